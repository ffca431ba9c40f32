/**
 * `pnpm test` (scripts/test.mjs at the workspace root) checks the machine before anything else and
 * stops in seconds, saying what to install, when Chromium is missing or PostgreSQL does not answer;
 * a step that leaves a process holding its output cannot hang the run; and the summary names each
 * failed test, read from vitest's own JSON report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/test-ports.mjs';
import { boundedRun } from './bounded-run';

const root = resolve(import.meta.dirname, '..', '..', '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const lastLine = (output: string) => output.trim().split('\n').at(-1) ?? '';

describe('pnpm test checks the machine first', () => {
  it('stops at once without Chromium, naming it and its install command, with the summary line', async () => {
    const run = await boundedRun([resolve(root, 'scripts/test.mjs')], {
      cwd: root,
      env: { CHROMIUM_PATH: '/nonexistent/chromium', TEST_DATABASE_URL: undefined },
      limitMs: 15_000,
    });
    expect(run.timedOut, run.output).toBe(false);
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      'Chromium not found at /nonexistent/chromium: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)',
    );
    expect(lastLine(run.output)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
    // Nothing else ran: no lint, no build.
    expect(run.output).not.toContain('=== lint');
    expect(run.leftovers).toEqual([]);
  });

  it('stops at once when the PostgreSQL of TEST_DATABASE_URL does not answer', async () => {
    const port = await freePort();
    const run = await boundedRun([resolve(root, 'scripts/preflight.mjs')], {
      cwd: root,
      env: { CHROMIUM_PATH: chromium, TEST_DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` },
      limitMs: 15_000,
    });
    expect(run.timedOut, run.output).toBe(false);
    expect(run.code).toBe(1);
    expect(run.output).toContain(`PostgreSQL at 127.0.0.1:${port} does not answer`);
    expect(run.output).toContain('apt-get install -y postgresql');
    expect(run.output).not.toContain('Chromium');
  });

  it('passes on a machine with Chromium and no TEST_DATABASE_URL', async () => {
    const run = await boundedRun([resolve(root, 'scripts/preflight.mjs')], {
      cwd: root,
      env: { CHROMIUM_PATH: chromium, TEST_DATABASE_URL: undefined },
      limitMs: 15_000,
    });
    expect(run.code, run.output).toBe(0);
  });
});

describe('a step of pnpm test', () => {
  it('ends when its process exits, even if that left a child holding the output pipe', async () => {
    // The step: a script that starts a long sleep on its own stdout and exits (as bench/lighthouse.mjs
    // did when it crashed with its server still running).
    const step = `import { spawn } from 'node:child_process';
      spawn('sleep', ['600'], { stdio: ['ignore', 'inherit', 'inherit'] }).unref();
      process.exitCode = 3;`;
    const driver = `import { runStep } from ${JSON.stringify(resolve(root, 'scripts/run-step.mjs'))};
      const result = await runStep(process.execPath, ['--input-type=module', '-e', ${JSON.stringify(step)}], { graceMs: 1000 });
      console.log(JSON.stringify(result));`;
    const run = await boundedRun(['--input-type=module', '-e', driver], { limitMs: 15_000 });
    expect(run.timedOut, run.output).toBe(false);
    expect(JSON.parse(lastLine(run.output))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('ended with 3'),
    });
    expect(run.leftovers).toEqual([]);
  });

  it('run beside another, shows each whole line of its output after its own prefix', async () => {
    // Two steps at once, each writing a line in two pieces: no line of one is cut by the other's.
    const step = (word: string) =>
      `process.stdout.write('${word} one, '); setTimeout(() => console.log('${word} two'), 200); setTimeout(() => process.stdout.write('${word} end'), 400);`;
    const driver = `import { runStep } from ${JSON.stringify(resolve(root, 'scripts/run-step.mjs'))};
      const results = await Promise.all(['alpha', 'beta'].map((word, i) =>
        runStep(process.execPath, ['-e', ${JSON.stringify(step('WORD'))}.replaceAll('WORD', word)], { graceMs: 500, prefix: '[' + (i + 1) + '] ' })));
      console.log(JSON.stringify(results.map((r) => r.ok)));`;
    const run = await boundedRun(['--input-type=module', '-e', driver], { limitMs: 15_000 });
    expect(run.timedOut, run.output).toBe(false);
    const lines = run.output.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['[1] alpha one, alpha two', '[2] beta one, beta two', '[1] alpha end', '[2] beta end']),
    );
    expect(lines).toHaveLength(5);
    expect(lastLine(run.output)).toBe('[true,true]');
  });
});

describe('the failed tests named in the summary', () => {
  it('reads them from a report vitest itself wrote: the failed test and the file that could not run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-report-'));
    try {
      writeFileSync(
        join(dir, 'sample.test.mjs'),
        `import { describe, expect, it } from 'vitest';
         describe('outer', () => {
           it('passes', () => expect(1).toBe(1));
           it('fails', () => expect(1).toBe(2));
         });`,
      );
      writeFileSync(
        join(dir, 'broken.test.mjs'),
        `import './missing-module.mjs';\nimport { it } from 'vitest';\nit('never runs', () => {});`,
      );
      const vitest = resolve(import.meta.dirname, '..', 'node_modules', 'vitest', 'vitest.mjs');
      const report = join(dir, 'report.json');
      const run = await boundedRun([vitest, 'run', '--root', dir, '--reporter=json', `--outputFile=${report}`], {
        cwd: dir,
        limitMs: 45_000,
      });
      expect(run.timedOut, run.output).toBe(false);
      expect(run.code).toBe(1);
      const driver = `import { readFileSync } from 'node:fs';
        import { failedTestNames } from ${JSON.stringify(resolve(root, 'scripts/vitest-report.mjs'))};
        console.log(JSON.stringify(failedTestNames(JSON.parse(readFileSync(${JSON.stringify(report)}, 'utf8')), ${JSON.stringify(dir)})));`;
      const read = await boundedRun(['--input-type=module', '-e', driver], { limitMs: 15_000 });
      expect(JSON.parse(lastLine(read.output)).sort()).toEqual([
        'broken.test.mjs (the file did not run)',
        'sample.test.mjs › outer fails',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
