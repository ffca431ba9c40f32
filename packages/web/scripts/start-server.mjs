/**
 * Starts the built server with the built PWA on a free port and a temporary data directory: the
 * browser tests and the load benchmark run against the same code as `pnpm start`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const DEMO_PASSWORD = 'E2e-Demo-Passw0rd!';

const webRoot = resolve(import.meta.dirname, '..');
const serverEntry = resolve(webRoot, '..', 'server', 'dist', 'server.js');
const webDist = join(webRoot, 'dist');

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * @param {{ dataDir?: string, webDir?: string }} [options] dataDir: an existing data directory to
 *   start on (kept at stop); by default a fresh temporary one, removed at stop. webDir: the built PWA
 *   to serve, packages/web/dist by default (the update test serves a copy it changes).
 */
export async function startServer(options = {}) {
  const webDir = options.webDir ?? webDist;
  for (const needed of [serverEntry, join(webDir, 'index.html')]) {
    if (!existsSync(needed)) throw new Error(`${needed} is missing: build first (pnpm -r build)`);
  }
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PORTAL_DATA_DIR: dataDir,
      PORTAL_WEB_DIR: webDir,
      PORTAL_DEMO_PASSWORD: DEMO_PASSWORD,
      PORTAL_AUTH_RATE_LIMIT: '1000',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not answer /healthz within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
