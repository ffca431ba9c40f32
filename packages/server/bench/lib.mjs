// What the benchmarks share: starting the built server on loopback, JSON requests, a signed-in session.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { base32Decode } from '../dist/crypto/base32.js';
import { totp } from '../dist/crypto/totp.js';

export const PASSWORD = 'Bench-Passw0rd!';
export const API_KEY = 'bench-api-key-0123456789';
export const ADMIN = 'admin@contoso.example';
const serverEntry = new URL('../dist/server.js', import.meta.url).pathname;

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
};

/** Servers started and not yet stopped: stopped with this process however it ends. */
const running = new Set();
const stopAllNow = () => {
  for (const server of running) server.abort();
};
process.on('exit', stopAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    stopAllNow();
    process.kill(process.pid, signal);
  });
}

/**
 * Starts the built server; `dataDir` an existing data directory (kept), else a fresh one (removed by
 * cleanup). `stop()` ends it and waits for that; should this process end first, the server goes too.
 */
export async function startServer(databaseUrl, dataDir = undefined, { history = false, env: more = {} } = {}) {
  const own = dataDir === undefined;
  dataDir ??= mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const cleanup = () => own && rmSync(dataDir, { recursive: true, force: true });
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PORTAL_DATA_DIR: dataDir,
    // The benchmarks run on the demo world, also on PostgreSQL where demo mode is off by default.
    PORTAL_DEMO: 'on',
    PORTAL_DEMO_PASSWORD: PASSWORD,
    // The demo world without its thirty days of history, unless asked for (the read benchmark): the
    // other benchmarks make their own data.
    PORTAL_DEMO_HISTORY: history ? 'on' : 'off',
    // The demo simulator on any free https port, so it never meets another server's.
    PORTAL_M365_SIMULATOR_PORT: '0',
    PORTAL_API_KEY: API_KEY,
    PORTAL_AUTH_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl ?? '',
    // What a benchmark adds (PORTAL_ROLE, PORTAL_DEMO_CLIENTS, …).
    ...more,
  };
  const started = performance.now();
  // stderr passes through this process, so a server left running never holds the caller's pipe.
  const child = spawn(process.execPath, [serverEntry], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.pipe(process.stderr, { end: false });
  const handle = {
    abort() {
      running.delete(handle);
      if (child.exitCode === null && child.signalCode === null) child.kill(own ? 'SIGKILL' : 'SIGTERM');
      if (own) cleanup();
    },
  };
  running.add(handle);
  const stop = async () => {
    running.delete(handle);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const spawned = new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  try {
    await spawned;
    const origin = `http://127.0.0.1:${port}`;
    // The thirty days of history are made before the server listens (about 35 s on PGlite).
    const limitS = history ? 300 : 30;
    for (let i = 0; i < limitS * 50; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        const r = await fetch(`${origin}/healthz`);
        if (r.ok) {
          const coldStartMs = Math.round(performance.now() - started);
          return { child, origin, coldStartMs, rss: rssMb(child.pid), stop, cleanup };
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`server did not start within ${limitS} s`);
  } catch (error) {
    await stop();
    cleanup();
    throw new Error(`the server could not be started: ${error.message}`, { cause: error });
  }
}

export async function json(origin, path, init = {}) {
  const r = await fetch(`${origin}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

/** Password, QR setup and code: a session token of a demo user (the administrator unless `email` says). */
export async function session(origin, email = ADMIN) {
  return (await signIn(origin, email)).token;
}

/**
 * As session(), with the authenticator key set up and the time step its code used, for signing in
 * again elsewhere (a browser) with a later step.
 */
export async function signIn(origin, email = ADMIN) {
  const signin = await json(origin, '/api/auth/signin', {
    method: 'POST',
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const qr = await json(origin, '/api/auth/generateQR', { headers: { authorization: signin.token } });
  const at = Date.now();
  const code = totp(base32Decode(qr.key), at);
  const done = await json(origin, '/api/auth/qrcode-verification', {
    method: 'POST',
    headers: { authorization: signin.token },
    body: JSON.stringify({ code }),
  });
  return { token: done.token, key: qr.key, step: Math.floor(at / 30_000) };
}

/**
 * A fresh database (portal_bench_<uuid>) on the PostgreSQL server of `serverUrl`: its URL, and
 * `drop()`, which removes it whatever is still connected.
 */
export async function scratchPostgres(serverUrl) {
  const name = `portal_bench_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
