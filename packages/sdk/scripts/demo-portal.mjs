/**
 * A portal of its own for the SDK's runnable checks (scripts/examples.mjs, scripts/readme.mjs): the
 * built server (packages/server/dist) on 127.0.0.1 and a free port, in a temporary data directory, in
 * demo mode with the built-in Microsoft 365 simulator; and the authenticator a person would hold.
 */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, releasePort } from '../../../scripts/test-ports.mjs';

const serverEntry = resolve(import.meta.dirname, '..', '..', 'server', 'dist', 'server.js');
/** A new data directory's database, migrations and demo world: seconds alone, longer beside other suites. */
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

/** The demo world's accounts that sign in with a password (packages/server/src/demo/seed.ts). */
export const DEMO_ADMIN = 'admin@contoso.example';
export const DEMO_PARTNER = 'partner@fabrikam.example';

/** The current 30-second step of RFC 6238. */
export const currentStep = () => Math.floor(Date.now() / 30_000);

/** RFC 6238 code of a base32 key at a 30-second step, as an authenticator app computes it. */
export function totpAt(base32Key, step) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Key.replace(/[\s=]/g, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * Starts the portal and waits for /healthz. Resolves `{ url, apiKey, password, dataDir, stop }`;
 * `stop()` ends the server (SIGTERM, SIGKILL after 10 s) and removes the data directory. The server
 * is killed when this process exits, whatever ends it.
 */
export async function startDemoPortal(prefix = 'portal-sdk-') {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: build first (pnpm build)`);
  const port = await freePort();
  const password = `Ex-${randomBytes(9).toString('base64url')}-1a!`;
  const apiKey = randomBytes(24).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let output = '';
  const server = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PORTAL_DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORTAL_DEMO: 'on',
      // The checks make what they read; the demo history's own runs would queue before theirs.
      PORTAL_DEMO_HISTORY: 'off',
      PORTAL_DEMO_PASSWORD: password,
      PORTAL_API_KEY: apiKey,
      PORTAL_M365_SIMULATOR_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  let stopped;
  const stop = () => {
    stopped ??= (async () => {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((done) => server.once('exit', done));
        server.kill('SIGTERM');
        const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      process.removeListener('exit', killOnExit);
      releasePort(port);
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return stopped;
  };
  const spawnFailed = new Promise((_, fail) => server.once('error', fail));
  server.stdout.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${output}`);
      const up = await Promise.race([
        fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
        spawnFailed,
      ]);
      if (up) break;
      if (Date.now() > deadline) {
        throw new Error(`the server did not answer /healthz within ${START_TIMEOUT_MS / 1000} s`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, apiKey, password, dataDir, stop };
}

/**
 * An account's first sign-in through the SDK (`client`, made by the caller with the portal's key):
 * password, then the QR setup confirmed with a code, as a person does once with an authenticator app.
 * Returns the enrolled key and the session token. The code is that of the previous 30-second step (the
 * server accepts two steps either side and each step once), so the current step's code is still unused
 * for what signs in next.
 */
export async function enrol(client, email, password) {
  const signin = await client.legacy.auth.signin({ body: { email, password } });
  if (signin.twoFactor !== 'setup') throw new Error(`expected the QR setup for ${email}, got ${signin.twoFactor}`);
  client.setToken(signin.token);
  const { key } = await client.legacy.auth.generateQr();
  const session = await client.legacy.auth.qrcodeVerification({ body: { code: totpAt(key, currentStep() - 1) } });
  client.setToken(null);
  return { key, token: session.token };
}

/**
 * Ends a run's portal and programs with the run: on SIGINT, SIGTERM or SIGHUP it says so under `label`
 * and awaits `stopAll` before exiting 1; at exit, whatever of `children` still runs is killed.
 */
export function stopWithProcess(label, stopAll, children) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      console.log(`\n${label}: stopped by ${signal}`);
      void stopAll().finally(() => process.exit(1));
    });
  }
  process.once('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
}
