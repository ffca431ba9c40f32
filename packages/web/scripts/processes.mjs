/**
 * The processes the browser tests and benchmarks start (the built server, Chromium). A failed spawn
 * (ENOENT, EACCES) rejects with a message instead of crashing on an unhandled `error` event, and
 * whatever is still running when this process exits, crashes or is told to stop (SIGINT, SIGTERM,
 * SIGHUP) is stopped with it: a child left behind would keep the caller's output pipe open, and
 * `pnpm test`, which waits for that pipe to close, would wait forever.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { constants } from 'node:os';

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_INSTALL = 'apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)';

/** Why Chromium cannot run at `path`, naming the package and its install command, or undefined. */
export function chromiumProblem(path = chromiumPath()) {
  try {
    if (!statSync(path).isFile()) return `Chromium at ${path} is not a file: ${CHROMIUM_INSTALL}`;
    accessSync(path, fsConstants.X_OK);
    return undefined;
  } catch (error) {
    return error.code === 'ENOENT'
      ? `Chromium not found at ${path}: ${CHROMIUM_INSTALL}`
      : `Chromium at ${path} cannot be run (${error.code}): ${CHROMIUM_INSTALL}`;
  }
}

/** For the benchmarks: without Chromium, say so and stop before anything is started. */
export function requireChromium() {
  const problem = chromiumProblem();
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}

/**
 * For a benchmark run from the command line: an error nothing caught (its `finally` blocks have run)
 * ends the process with code 1 and a short message instead of a long dump; the `exit` hook below then
 * stops whatever is still running.
 */
export function endOnError(name) {
  process.on('uncaughtException', (error) => {
    const message = String(error?.message ?? error).split('\n')[0];
    const frames = String(error?.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 3);
    console.error([`${name} failed: ${message}`, ...frames].join('\n'));
    process.exit(1);
  });
}

/** Started and not yet stopped: child -> what stops it when this process ends early. */
const running = new Map();
let hooked = false;

function signalChild(child, signal, group) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(group ? -child.pid : child.pid, signal);
  } catch {
    // already gone
  }
}

/** Synchronous, so it also runs in the `exit` event: signals every child and runs its cleanup. */
function stopAllNow() {
  for (const [child, { exitSignal, group, cleanup }] of running) {
    running.delete(child);
    signalChild(child, exitSignal, group);
    try {
      cleanup?.();
    } catch {
      // best effort while exiting
    }
  }
}

function hook() {
  if (hooked) return;
  hooked = true;
  process.on('exit', stopAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, function onSignal() {
      stopAllNow();
      process.off(signal, onSignal);
      // The signal's default action, this process ends, unless someone else listens; they get a
      // moment (Playwright closes its browsers on SIGTERM but does not exit).
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      else setTimeout(() => process.exit(128 + constants.signals[signal]), 3000).unref();
    });
  }
}

/**
 * Spawns a process and resolves once it runs; a spawn error rejects naming `name`. Until `stop()`,
 * it is stopped with `exitSignal` (its whole process group when `detached`) and `cleanup` runs if
 * this process ends first. `stop()` sends SIGTERM, waits for the exit (SIGKILL after `killAfterMs`),
 * then runs `cleanup`.
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { exitSignal?: NodeJS.Signals, cleanup?: () => void, killAfterMs?: number }} options
 */
export function startProcess(name, command, args, options = {}) {
  const { exitSignal = 'SIGTERM', cleanup, killAfterMs = 15_000, ...spawnOptions } = options;
  const group = spawnOptions.detached === true;
  hook();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, spawnOptions);
    running.set(child, { exitSignal, group, cleanup });
    const failed = (error) => {
      running.delete(child);
      cleanup?.();
      reject(new Error(`${name} could not be started: ${error.message}`, { cause: error }));
    };
    child.once('error', failed);
    child.once('spawn', () => {
      child.off('error', failed);
      // Later errors (a failed kill) are reported, never thrown from an event.
      child.on('error', (error) => console.error(`${name}: ${error.message}`));
      let stopping;
      const stop = () => {
        stopping ??= (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            const exited = new Promise((done) => child.once('exit', done));
            signalChild(child, 'SIGTERM', group);
            const timer = setTimeout(() => signalChild(child, 'SIGKILL', group), killAfterMs);
            await exited;
            clearTimeout(timer);
          }
          running.delete(child);
          cleanup?.();
        })();
        return stopping;
      };
      resolve({ child, stop });
    });
  });
}
