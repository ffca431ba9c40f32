/**
 * The benchmarks `pnpm test` and `pnpm bench` run end promptly with a clear message and a non-zero
 * code when Chromium is missing or cannot be started, or when they are told to stop, and leave
 * nothing running behind them (a server left holding the output pipe hung `pnpm test`).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { boundedRun, markedProcesses } from '../scripts/bounded-run';

const web = resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// An executable file whose interpreter does not exist: it passes the file checks, and spawning it
// fails with ENOENT, the error that went unhandled.
const scratch = mkdtempSync(join(tmpdir(), 'portal-bench-test-'));
const unstartable = join(scratch, 'chromium');
writeFileSync(unstartable, '#!/nonexistent/interpreter\n');
chmodSync(unstartable, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(['lighthouse', 'first-load'])('bench/%s.mjs', (name) => {
  const script = join(web, 'bench', `${name}.mjs`);

  it('without Chromium exits 1 at once, saying how to install it, and starts nothing', async () => {
    const run = await boundedRun([script, '--runs', '1'], {
      cwd: web,
      env: { CHROMIUM_PATH: '/nonexistent/chromium' },
      limitMs: 20_000,
    });
    expect(run.timedOut, run.output).toBe(false);
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      'Chromium not found at /nonexistent/chromium: apt-get update && apt-get install -y chromium',
    );
    expect(run.output).not.toContain('Demo world created');
    expect(run.leftovers).toEqual([]);
  });

  it('with a Chromium that cannot be spawned exits 1 with the spawn error and leaves nothing running', async () => {
    const run = await boundedRun([script, '--runs', '1'], {
      cwd: web,
      env: { CHROMIUM_PATH: unstartable },
      limitMs: 20_000,
    });
    expect(run.timedOut, run.output).toBe(false);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(new RegExp(`${name} failed: .*spawn ${unstartable} ENOENT`));
    expect(run.output).not.toMatch(/Unhandled 'error' event/);
    expect(run.leftovers).toEqual([]);
  });

  it('stopped with SIGTERM while its server starts, stops the server and Chromium and exits non-zero', async () => {
    let serverSeen = false;
    let poll: NodeJS.Timeout | undefined;
    const run = await boundedRun([script, '--runs', '1'], {
      cwd: web,
      env: { CHROMIUM_PATH: chromium },
      limitMs: 40_000,
      onStart: (child, marker) => {
        poll = setInterval(() => {
          if (markedProcesses(marker).some((p) => p.command.includes('server/dist/server.js'))) {
            clearInterval(poll);
            serverSeen = true;
            child.kill('SIGTERM');
          }
        }, 50);
      },
    });
    clearInterval(poll);
    expect(serverSeen, `the server never started:\n${run.output}`).toBe(true);
    expect(run.timedOut, run.output).toBe(false);
    expect(run.code === 0 && run.signal === null).toBe(false);
    expect(run.leftovers).toEqual([]);
  });
});
