/**
 * For the tools' tests: runs a Node script as `pnpm test` runs its steps (output through pipes, the
 * run over when they close) under a hard time limit, so a hang fails the test instead of hanging it.
 * Every process the script starts inherits a marker in its environment; what still runs after the
 * script ended is reported as left over, then killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export interface BoundedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  output: string;
  timedOut: boolean;
  /** Command lines of the processes the script started that outlived it. */
  leftovers: string[];
}

/** Live processes (not zombies) whose environment carries the marker, with their command lines. */
export function markedProcesses(marker: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`PORTAL_RUN_MARKER=${marker}\0`)) continue;
      if (/\) Z /.test(readFileSync(`/proc/${entry}/stat`, 'latin1'))) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'latin1').replaceAll('\0', ' ').trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

function killMarked(marker: string) {
  for (const { pid } of markedProcesses(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/**
 * @param script the script and its arguments, run with this Node
 * @param env variables to set; `undefined` removes one
 * @param onStart gets the running child and its marker (to act on it while it runs)
 */
export function boundedRun(
  script: string[],
  options: {
    env?: Record<string, string | undefined>;
    cwd?: string;
    limitMs: number;
    onStart?: (child: ChildProcess, marker: string) => void;
  },
): Promise<BoundedRun> {
  const marker = randomUUID();
  const env: NodeJS.ProcessEnv = { ...process.env, PORTAL_RUN_MARKER: marker };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const started = Date.now();
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const child = spawn(process.execPath, script, {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const settle = async (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      const ms = Date.now() - started;
      let leftovers = markedProcesses(marker);
      // What the script stopped on its way out may take a moment to go.
      for (let i = 0; !timedOut && i < 30 && leftovers.length > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        leftovers = markedProcesses(marker);
      }
      killMarked(marker);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({
        code: child.exitCode,
        signal: child.signalCode,
        ms,
        output,
        timedOut,
        leftovers: leftovers.map((p) => `${p.pid} ${p.command.slice(0, 200)}`),
      });
    };
    const limit = setTimeout(() => void settle(true), options.limitMs);
    const take = (chunk: Buffer) => {
      output += chunk.toString();
    };
    options.onStart?.(child, marker);
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('error', (error) => {
      output += `\n${error.message}`;
      void settle(false);
    });
    // Ends when the pipes close, as `pnpm test` waited for: a process holding them keeps it open.
    child.once('close', () => void settle(false));
  });
}
