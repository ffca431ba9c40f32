/**
 * One step of `pnpm test`, run so that it cannot hang the run: in its own process group, its output
 * shown as it comes and kept for the summary. The step ends when its process exits; whatever it left
 * running in its group (a server, a browser) is then stopped, so its output pipes close; a process
 * elsewhere still holding them open fails the step after a grace period. A step over its time limit,
 * or stopped with stopStep(), has its whole group stopped (SIGTERM, then SIGKILL).
 */
import { spawn } from 'node:child_process';

/** The steps running now (`pnpm test` runs up to two at once), each with its stop. */
const running = new Set();

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, graceMs?: number, quiet?: boolean, prefix?: string }} [options]
 * @returns {Promise<{ ok: boolean, output: string, problem?: string }>}
 */
export function runStep(command, args, options = {}) {
  const { cwd, env, timeoutMs = 60 * 60_000, graceMs = 5000, quiet = false, prefix } = options;
  return new Promise((done) => {
    const output = [];
    const timers = [];
    const later = (ms, action) => timers.push(setTimeout(action, ms));
    let problem;
    let exitCode;
    let settled = false;
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      child.stdout.destroy();
      child.stderr.destroy();
      running.delete(step);
      done({ ok: !problem && exitCode === 0, output: output.join(''), problem });
    };
    const stop = (why) => {
      problem ??= why;
      killGroup(child.pid, 'SIGTERM');
      later(graceMs, () => killGroup(child.pid, 'SIGKILL'));
      later(2 * graceMs, finish);
    };
    const step = { child, stop };
    running.add(step);
    later(timeoutMs, () => stop(`timed out after ${Math.round(timeoutMs / 1000)} s`));
    for (const [stream, sink] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      // With a prefix, each whole line is shown with it: two steps at once stay readable.
      let partial = '';
      stream.on('data', (chunk) => {
        const text = chunk.toString();
        output.push(text);
        if (quiet) return;
        if (prefix === undefined) return sink.write(chunk);
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        if (lines.length > 0) sink.write(lines.map((line) => `${prefix}${line}\n`).join(''));
      });
      stream.on('close', () => {
        if (partial && !quiet && prefix !== undefined) sink.write(`${prefix}${partial}\n`);
      });
    }
    child.once('error', (error) => {
      problem ??= `could not start ${command}: ${error.message}`;
      finish();
    });
    child.once('exit', (code, signal) => {
      exitCode = code;
      if (code !== 0) problem ??= `${command} ended with ${signal ?? code}`;
      // What the step left behind in its group goes with it; then its pipes close.
      killGroup(child.pid, 'SIGTERM');
      later(graceMs, () => killGroup(child.pid, 'SIGKILL'));
      later(2 * graceMs, () => {
        problem ??= 'a process it started outside its process group still held its output open';
        finish();
      });
    });
    child.once('close', finish);
  });
}

/** Stops the running steps' whole groups; false when no step runs. */
export function stopStep(why) {
  if (running.size === 0) return false;
  for (const step of running) step.stop(why);
  return true;
}
