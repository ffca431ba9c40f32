/**
 * `pnpm test:load --report` (scripts/test-under-load.mjs at the workspace root) adds up the runs under
 * load recorded at different times: the last N whole runs (every suite), their figures and each test
 * that failed in them; it exits 0 only when there are N and none failed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedRun } from './bounded-run';

const root = resolve(import.meta.dirname, '..', '..', '..');
const script = resolve(root, 'scripts/test-under-load.mjs');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

interface Row {
  invocation: string;
  run: number;
  suite: 'web' | 'server' | 'simulator';
  failed?: string[];
}

/** A history folder holding these suite runs. */
function history(rows: Row[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'under-load-'));
  folders.push(folder);
  const lines = rows.map((r, i) =>
    JSON.stringify({
      invocation: r.invocation,
      at: `2026-11-30T1${r.run}:0${i % 10}:00.000Z`,
      commit: `c0mm1t${r.run}`,
      run: r.run,
      busy: 2,
      suite: r.suite,
      passed: 100 + i,
      failed: r.failed ?? [],
      seconds: 60 + i,
      load: '3.9',
    }),
  );
  writeFileSync(join(folder, 'history.jsonl'), `${lines.join('\n')}\n`);
  return folder;
}

/** Whole runs (every suite) of one invocation; `failing` names a web test that failed in a run. */
function wholeRuns(invocation: string, count: number, failing: Record<number, string> = {}): Row[] {
  return Array.from({ length: count }, (_, i) =>
    (['web', 'server', 'simulator'] as const).map((suite) => ({
      invocation,
      run: i + 1,
      suite,
      ...(suite === 'web' && failing[i + 1] ? { failed: [failing[i + 1] ?? ''] } : {}),
    })),
  ).flat();
}

async function report(
  folder: string,
  last?: number,
  env: Record<string, string | undefined> = { UNDER_LOAD_REPORTS: folder, UNDER_LOAD_HISTORY: undefined },
) {
  return boundedRun([script, '--report', ...(last ? ['--last', String(last)] : [])], {
    cwd: root,
    env,
    limitMs: 15_000,
  });
}

describe('pnpm test:load --report', () => {
  it('adds up whole runs of different invocations and passes when the last five are green', async () => {
    // Two sittings: two runs, then three; a run that did not run every suite is not a whole run.
    const folder = history([
      ...wholeRuns('2026-11-29T10:00:00.000Z', 2),
      { invocation: '2026-11-29T20:00:00.000Z', run: 1, suite: 'web', failed: ['src/a.test.ts › half a run'] },
      ...wholeRuns('2026-11-30T10:00:00.000Z', 3),
    ]);
    const run = await report(folder);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('the last 5 whole run(s) under load (of 5 recorded');
    expect(run.output).toContain('tests that failed at least once in these runs: 0');
    expect(run.output).not.toContain('half a run');
    // Five runs of three suites, each with its commit and figures.
    expect(run.output.match(/ c0mm1t\d +2 {2}(web|server|simulator) /g)).toHaveLength(15);
  });

  it('lists each test that failed in the chosen runs with how often, and fails', async () => {
    const flaky = 'src/features/x.test.tsx › a flaky test';
    const folder = history(
      wholeRuns('2026-11-30T10:00:00.000Z', 6, { 1: 'src/old.test.ts › before', 3: flaky, 5: flaky }),
    );
    const run = await report(folder);
    expect(run.code).toBe(1);
    expect(run.output).toContain('the last 5 whole run(s) under load (of 6 recorded');
    expect(run.output).toContain(`2×  web: ${flaky}`);
    // The sixth-last run is not among the last five.
    expect(run.output).not.toContain('before');
  });

  it('fails while fewer whole runs than asked are recorded, saying how many more', async () => {
    const run = await report(history(wholeRuns('2026-11-30T10:00:00.000Z', 3)), 5);
    expect(run.code).toBe(1);
    expect(run.output).toContain('2 more whole run(s) needed for 5');
    const empty = mkdtempSync(join(tmpdir(), 'under-load-empty-'));
    folders.push(empty);
    const none = await report(empty);
    expect(none.code).toBe(1);
    expect(none.output).toContain('5 more whole run(s) needed for 5');
  });

  // Whatever the environment running this test sets (the runs under load set UNDER_LOAD_REPORTS).
  it('reads the committed scripts/under-load-history.jsonl, or the file UNDER_LOAD_HISTORY names', async () => {
    const committed = await report('', undefined, { UNDER_LOAD_REPORTS: undefined, UNDER_LOAD_HISTORY: undefined });
    expect(committed.output).toContain(`recorded in ${join(root, 'scripts', 'under-load-history.jsonl')})`);
    const folder = history(wholeRuns('2026-11-30T10:00:00.000Z', 4));
    const named = await report('', undefined, {
      UNDER_LOAD_REPORTS: undefined,
      UNDER_LOAD_HISTORY: join(folder, 'history.jsonl'),
    });
    expect(named.output).toContain(
      `the last 4 whole run(s) under load (of 4 recorded in ${join(folder, 'history.jsonl')})`,
    );
  });
});
