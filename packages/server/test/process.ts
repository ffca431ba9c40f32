/** Starting the built server as a process, as `pnpm start` does, for tests that stop or kill it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { freePort, releasePorts } from '../../../scripts/test-ports.mjs';

const entry = fileURLToPath(new URL('../dist/server.js', import.meta.url));

// A test file gives the ports it reserved back when it ends (vitest's workers end without Node's exit
// event); see scripts/test-ports.mjs.
afterAll(releasePorts);

export { freePort };

/** Servers a test started: killed when the test process ends, so none outlives the run holding its pipes. */
const started = new Set<ChildProcess>();
process.on('exit', () => {
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
