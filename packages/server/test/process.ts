/** Starting the built server as a process, as `pnpm start` does, for tests that stop or kill it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const entry = fileURLToPath(new URL('../dist/server.js', import.meta.url));

/**
 * Ports this process reserved, below the kernel's ephemeral range (32768-60999 on Linux), so that no
 * socket the system hands a port to (a `listen(0)`, an outgoing connection) can take one between the
 * moment a test picks it and the moment its server, seconds later under load, listens on it, nor while
 * a killed server's successor is starting. Test processes of concurrent runs (pnpm test runs suites
 * side by side) share the range: each reserves a port by creating its file in RESERVED with `wx`,
 * which only one process can. A test file gives its ports back when it ends; a file whose process has
 * ended without doing so (a worker killed) is taken over, as is one older than STALE_MS, since the
 * kernel reuses process ids.
 */
export const RESERVED = join(tmpdir(), 'portal-test-ports');
const FIRST_PORT = 20_000;
const PORTS = 12_000;
const STALE_MS = 3 * 60 * 60 * 1000;
const reserved = new Set<string>();

function releasePorts() {
  for (const file of reserved) rmSync(file, { force: true });
  reserved.clear();
}
afterAll(releasePorts);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function reservePort(port: number): boolean {
  const file = join(RESERVED, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    let owner = Number.NaN;
    let age = 0;
    try {
      owner = Number(readFileSync(file, 'utf8'));
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      return false;
    }
    if (!Number.isInteger(owner) || owner <= 0 || (alive(owner) && age < STALE_MS)) return false;
    try {
      unlinkSync(file);
      writeFileSync(file, String(process.pid), { flag: 'wx' });
    } catch {
      return false;
    }
  }
  reserved.add(file);
  return true;
}

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** A port of 127.0.0.1 nothing listens on, reserved for this test process until it ends. */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVED, { recursive: true });
  const start = randomInt(PORTS);
  for (let i = 0; i < PORTS; i++) {
    const port = FIRST_PORT + ((start + i) % PORTS);
    if (reservePort(port) && (await bindable(port))) return port;
  }
  throw new Error(`no free port between ${FIRST_PORT} and ${FIRST_PORT + PORTS - 1}`);
}

/** Servers a test started: killed when the test process ends, so none outlives the run holding its pipes. */
const started = new Set<ChildProcess>();
process.on('exit', () => {
  releasePorts();
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export async function startProcess(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  args: string[] = [],
  /**
   * How long the server may take to answer; a demo world with its history takes longest. A new data
   * directory's initdb, migrations and demo world take about 8 s on an idle 2-core machine and passed
   * 30 s beside another suite (pnpm test runs two at once).
   */
  readyWithinMs = 90_000,
) {
  const child = spawn(process.execPath, [entry, ...args], {
    env: {
      ...process.env,
      PORTAL_DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: args.includes('--role=worker') ? 'info' : 'warn',
      DATABASE_URL: '',
      PORTAL_DEMO_PASSWORD: '',
      // Several servers run at once: each demo simulator takes any free port.
      PORTAL_M365_SIMULATOR_PORT: '0',
      // The demo world starts empty unless a test asks for its thirty days of history.
      PORTAL_DEMO_HISTORY: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  child.once('exit', () => started.delete(child));
  let output = '';
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // A worker has no HTTP side: it is up once it says so.
  const worker = args.includes('--role=worker');
  for (const deadline = Date.now() + readyWithinMs; Date.now() < deadline; ) {
    if (spawnError) throw new Error(`server could not be started: ${spawnError.message}`);
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    const ok = worker
      ? output.includes('job worker started')
      : await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
    if (ok) return { child, output: () => output };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${output}`);
}

/** The exit code once the child has exited (at once if it already has). */
export const exited = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
