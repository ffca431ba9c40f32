/**
 * Starts the built server with the built PWA on a free port and a temporary data directory: the
 * browser tests and the load benchmark run against the same code as `pnpm start`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort, releasePort } from '../../../scripts/test-ports.mjs';
import { startProcess } from './processes.mjs';

export const DEMO_PASSWORD = 'E2e-Demo-Passw0rd!';
/** The demo tenants' client secret in the browser tests, so they can read the simulated tenants. */
export const DEMO_CLIENT_SECRET = 'E2e-demo-client-secret';

const webRoot = resolve(import.meta.dirname, '..');
const serverEntry = resolve(webRoot, '..', 'server', 'dist', 'server.js');
const webDist = join(webRoot, 'dist');

/**
 * The demo simulator of each server started here, by the server's URL: its https origin and the CA
 * its certificate chains to (made by the server in its data directory), for reading a demo tenant as
 * its app registration does (e2e/browser.ts simulatorGraph).
 * @type {Map<string, { url: string, caCertificatePath: string }>}
 */
const simulators = new Map();

/** The demo simulator of the server at `url` started by this process, or undefined. */
export const simulatorOf = (url) => simulators.get(url);

/**
 * @param {{ dataDir?: string, webDir?: string, history?: boolean, demo?: boolean, env?: Record<string, string> }} [options]
 *   dataDir: an existing data directory to start on (kept at stop); by default a fresh temporary one,
 *   removed at stop. webDir: the built PWA to serve, packages/web/dist by default (the update test
 *   serves a copy it changes). history: the demo world with its thirty days of history
 *   (PORTAL_DEMO_HISTORY), as `pnpm start` makes it; off by default, so that each test starts from the
 *   demo world it sets up. demo: false starts an empty portal outside demo mode (PORTAL_DEMO=off, a
 *   secret key of its own given from outside the data directory, no simulator, mail in the data
 *   directory's outbox), as an operator first starts one. env: more of the server's environment.
 */
export async function startServer(options = {}) {
  const webDir = options.webDir ?? webDist;
  for (const needed of [serverEntry, join(webDir, 'index.html')]) {
    if (!existsSync(needed)) throw new Error(`${needed} is missing: build first (pnpm -r build)`);
  }
  const port = await freePort();
  // The demo simulator's https port, chosen here so the tests know where it is.
  const simulatorPort = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const server = await startProcess('the server', process.execPath, [serverEntry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PORTAL_DATA_DIR: dataDir,
      PORTAL_WEB_DIR: webDir,
      PORTAL_DEMO_PASSWORD: DEMO_PASSWORD,
      PORTAL_DEMO_CLIENT_SECRET: DEMO_CLIENT_SECRET,
      PORTAL_M365_SIMULATOR_PORT: String(simulatorPort),
      PORTAL_AUTH_RATE_LIMIT: '1000',
      PORTAL_DEMO_HISTORY: options.history ? 'on' : 'off',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...(options.demo === false
        ? {
            PORTAL_DEMO: 'off',
            PORTAL_SECRET_KEY: randomBytes(32).toString('hex'),
            PORTAL_SECRET_KEY_FILE: '',
            PORTAL_SELF_REGISTRATION: '',
          }
        : {}),
      ...options.env,
    },
    // Its output passes through this process, so the caller's pipe closes with this process even if
    // the server were left running.
    stdio: ['ignore', 'pipe', 'pipe'],
    // Left running when this process ends early: a throwaway data directory goes with the server; a
    // kept one is left to the server's own clean shutdown.
    exitSignal: options.dataDir ? 'SIGTERM' : 'SIGKILL',
    cleanup: () => {
      simulators.delete(`http://127.0.0.1:${port}`);
      releasePort(port);
      releasePort(simulatorPort);
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  });
  server.child.stdout?.pipe(process.stdout, { end: false });
  server.child.stderr?.pipe(process.stderr, { end: false });
  const url = `http://127.0.0.1:${port}`;
  try {
    // Making 30 days of demo history first takes about 30 s on an idle 2-core machine and can take
    // twice that and more on a busy one: the server is given three minutes then, one otherwise.
    const waitSeconds = options.history ? 180 : 60;
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`the server exited with ${server.child.exitCode}`);
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the server did not answer /healthz within ${waitSeconds} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  const simulator = {
    url: `https://localhost:${simulatorPort}`,
    caCertificatePath: join(dataDir, 'm365-simulator', 'tls', 'ca.pem'),
  };
  if (options.demo !== false) simulators.set(url, simulator);
  return { url, simulator, dataDir, stop: server.stop };
}

/** Azurite's development account and its key: the same in every installation (documented by Microsoft). */
const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/**
 * Azure Storage's emulator (Azurite's blob service, the server package's test dependency) on a free
 * port of 127.0.0.1 with a temporary data directory, for a browser test that needs an object store;
 * resolves once it listens.
 */
export async function startAzurite() {
  const fromServer = createRequire(join(webRoot, '..', 'server', 'package.json'));
  const main = join(dirname(fromServer.resolve('azurite/package.json')), 'dist', 'src', 'blob', 'main.js');
  const port = await freePort();
  const location = mkdtempSync(join(tmpdir(), 'portal-e2e-azurite-'));
  const azurite = await startProcess(
    'Azurite',
    process.execPath,
    [
      main,
      ...['--blobHost', '127.0.0.1', '--blobPort', String(port), '--location', location],
      // No telemetry; the SDK the server uses speaks a newer API version than Azurite for Node 20 knows.
      ...['--disableTelemetry', '--silent', '--skipApiVersionCheck'],
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own shutdown waits for kept-alive connections: a test's store is thrown away.
      exitSignal: 'SIGKILL',
      killAfterMs: 2000,
      cleanup: () => {
        releasePort(port);
        rmSync(location, { recursive: true, force: true });
      },
    },
  );
  await new Promise((listening, failed) => {
    let output = '';
    const timer = setTimeout(() => failed(new Error(`Azurite did not listen within 60 s: ${output}`)), 60_000);
    azurite.child.stdout?.on('data', (chunk) => {
      output += String(chunk);
      if (/successfully listens on/i.test(output)) {
        clearTimeout(timer);
        listening(undefined);
      }
    });
    azurite.child.once('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`Azurite ended (${code}) before it listened: ${output}`));
    });
  }).catch(async (error) => {
    await azurite.stop();
    throw error;
  });
  return {
    port,
    accountKey: AZURITE_KEY,
    containerUrl: (name) => `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}/${name}`,
    stop: azurite.stop,
  };
}
