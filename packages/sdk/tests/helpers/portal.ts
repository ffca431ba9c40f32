/**
 * A real portal for the SDK's tests that need one: the built server (packages/server/dist) on
 * 127.0.0.1 and a free port, in a temporary data directory, in demo mode (its demo organisations and
 * accounts, the built-in Microsoft 365 simulator), with a random application key and demo password.
 * Needs the server built (`pnpm build`); `pnpm test` builds before it tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverEntry = fileURLToPath(new URL('../../../server/dist/server.js', import.meta.url));
/** A new data directory's database, migrations and demo world: seconds alone, longer beside other suites. */
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

export interface Portal {
  /** The origin, `http://127.0.0.1:<port>`. */
  url: string;
  apiKey: string;
  /** The password of every demo account. */
  password: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** Starts the portal and waits until /healthz answers; `stop()` ends it and removes its data. */
export async function startPortal(): Promise<Portal> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: build the server first (pnpm build)`);
  const port = await freePort();
  const password = `Gen-${randomBytes(9).toString('base64url')}-1a!`;
  const apiKey = randomBytes(24).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-sdk-test-'));
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PORTAL_DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORTAL_DEMO: 'on',
      PORTAL_DEMO_HISTORY: 'off',
      PORTAL_DEMO_PASSWORD: password,
      PORTAL_API_KEY: apiKey,
      PORTAL_M365_SIMULATOR_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never outlives the test process, whatever ends it.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const stop = async () => {
    await stopChild(child);
    process.off('exit', kill);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + START_TIMEOUT_MS; ; ) {
    const problem = spawnError
      ? `could not be started: ${spawnError.message}`
      : child.exitCode !== null
        ? `exited with ${child.exitCode}`
        : Date.now() > deadline
          ? `did not answer /healthz within ${START_TIMEOUT_MS / 1000} s`
          : undefined;
    if (problem) {
      await stop();
      throw new Error(`the portal ${problem}:\n${output}`);
    }
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, apiKey, password, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
