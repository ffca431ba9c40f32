#!/usr/bin/env node
/**
 * Runs every script of examples/ against a real portal: the built server (packages/server/dist) on
 * 127.0.0.1 and a free port, in a temporary data directory, in demo mode with the built-in Microsoft
 * 365 simulator. It enrols the demo administrator's authenticator (the portal's QR setup, through the
 * SDK), runs each example as a child process with the server URL and credentials in its environment,
 * stops the server (also on failure, a timeout or Ctrl-C) and prints `SDK examples: N of M ran`.
 * Exits 1 when any example fails. Needs `pnpm build` first (the SDK and the server).
 *
 *   node scripts/examples.mjs [name-filter]
 */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient } from '@compliance-portal/sdk';

const sdkRoot = resolve(import.meta.dirname, '..');
const examplesDir = join(sdkRoot, 'examples');
const serverEntry = resolve(sdkRoot, '..', 'server', 'dist', 'server.js');
/** Examples run in this order (the rest after them, by name): sign-in first, while its code is fresh. */
const ORDER = ['sign-in.mjs', 'backup-and-follow.mjs', 'list-tenants-and-jobs.mjs', 'download-report.mjs'];
const EXAMPLE_TIMEOUT_MS = 90_000;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const ADMIN = 'admin@contoso.example';

const filter = process.argv[2];
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith('.mjs') && (!filter || name.includes(filter)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
function rank(name) {
  const index = ORDER.indexOf(name);
  return index < 0 ? ORDER.length : index;
}

const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

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

/** RFC 6238 code of a base32 key at a 30-second step, as an authenticator app computes it. */
function totpAt(base32Key, step) {
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

/** Runs a child to its end, killing it after `timeoutMs`; its output goes through, indented. */
function runChild(args, env, timeoutMs) {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: sdkRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const indent = (sink) => (chunk) => sink.write(chunk.toString().replace(/^(?=.)/gm, '    '));
    child.stdout.on('data', indent(process.stdout));
    child.stderr.on('data', indent(process.stderr));
    child.once('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      done({ ok: false, problem: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (timedOut) done({ ok: false, problem: `timed out after ${timeoutMs / 1000} s` });
      else done({ ok: code === 0, problem: code === 0 ? undefined : `ended with ${code ?? signal}` });
    });
  });
}

const children = new Set();
let server;
let dataDir;

/** Stops the server (SIGTERM, SIGKILL after STOP_TIMEOUT_MS) and any example still running. */
async function stopAll() {
  for (const child of children) child.kill('SIGKILL');
  const running = server;
  server = undefined;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

// Ended from outside: the server and examples go too, never left behind.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    console.log(`\nSDK examples: stopped by ${signal}`);
    void stopAll().finally(() => process.exit(1));
  });
}
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  if (server?.exitCode === null) server.kill('SIGKILL');
});

async function startPortal() {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: build first (pnpm build)`);
  const port = await freePort();
  const password = `Ex-${randomBytes(9).toString('base64url')}-1a!`;
  const apiKey = randomBytes(24).toString('base64url');
  dataDir = mkdtempSync(join(tmpdir(), 'portal-sdk-examples-'));
  let output = '';
  server = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PORTAL_DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORTAL_DEMO: 'on',
      // The examples make what they read; the demo history's own runs would queue before theirs.
      PORTAL_DEMO_HISTORY: 'off',
      PORTAL_DEMO_PASSWORD: password,
      PORTAL_API_KEY: apiKey,
      PORTAL_M365_SIMULATOR_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawnFailed = new Promise((_, fail) => server.once('error', fail));
  server.stdout.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
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
    if (Date.now() > deadline)
      throw new Error(`the server did not answer /healthz within ${START_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, apiKey, password };
}

/**
 * The demo administrator's first sign-in: password, then the QR setup confirmed with a code, as a
 * person does once with an authenticator app. Returns the enrolled key and the session token. The
 * code is that of the previous 30-second step (the server accepts two steps either side and each
 * step once), so the code sign-in.mjs computes for the current step is still unused.
 */
async function enrol({ url, apiKey, password }) {
  const client = createClient({ origin: url, apiKey });
  const signin = await client.legacy.auth.signin({ body: { email: ADMIN, password } });
  if (signin.twoFactor !== 'setup') throw new Error(`expected the QR setup, got ${signin.twoFactor}`);
  client.setToken(signin.token);
  const { key } = await client.legacy.auth.generateQr();
  const step = Math.floor(Date.now() / 30_000) - 1;
  const session = await client.legacy.auth.qrcodeVerification({ body: { code: totpAt(key, step) } });
  return { key, token: session.token };
}

const results = [];
let failure;
try {
  if (examples.length === 0) throw new Error(`no examples${filter ? ` matching ${filter}` : ''} in ${examplesDir}`);
  const portal = await startPortal();
  console.log(`SDK examples: portal at ${portal.url} (demo mode, started in ${seconds(started)})`);
  const { key, token } = await enrol(portal);
  const downloads = join(dataDir ?? tmpdir(), 'downloads');
  const env = {
    ...process.env,
    PORTAL_URL: portal.url,
    PORTAL_API_KEY: portal.apiKey,
    PORTAL_EMAIL: ADMIN,
    PORTAL_PASSWORD: portal.password,
    PORTAL_TOTP_SECRET: key,
    PORTAL_TOKEN: token,
    PORTAL_DOWNLOAD_DIR: downloads,
  };
  for (const name of examples) {
    const since = Date.now();
    console.log(`\n--- ${name}`);
    const result = await runChild([join(examplesDir, name)], env, EXAMPLE_TIMEOUT_MS);
    results.push({ name, ...result, took: seconds(since) });
    console.log(`--- ${name}: ${result.ok ? 'ok' : `FAILED (${result.problem})`} in ${seconds(since)}`);
  }
} catch (error) {
  failure = error;
} finally {
  await stopAll();
}

const ran = results.filter((r) => r.ok).length;
if (failure) console.error(`\nSDK examples: ${failure instanceof Error ? failure.message : String(failure)}`);
for (const r of results.filter((result) => !result.ok)) console.error(`SDK examples: ${r.name} failed: ${r.problem}`);
console.log(`\nSDK examples: ${ran} of ${examples.length} ran (${seconds(started)})`);
process.exit(failure || ran < examples.length ? 1 : 0);
