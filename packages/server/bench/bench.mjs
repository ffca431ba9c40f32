// Benchmarks the built server on loopback, bounded in time: cold start to first answer, resident
// memory after start, and requests/s with p50/p99 latency for sign-in and for the tenant list, on
// PGlite and (when BENCH_DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server) on PostgreSQL.
// Run `pnpm build` first. Prints a table; exits non-zero only when the server does not start.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { base32Decode } from '../dist/crypto/base32.js';
import { totp } from '../dist/crypto/totp.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PASSWORD = 'Bench-Passw0rd!';
const API_KEY = 'bench-api-key-0123456789';
const ADMIN = 'admin@contoso.example';
const serverEntry = new URL('../dist/server.js', import.meta.url).pathname;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
};

async function startServer(databaseUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PORTAL_DATA_DIR: dataDir,
    PORTAL_DEMO_PASSWORD: PASSWORD,
    PORTAL_API_KEY: API_KEY,
    PORTAL_AUTH_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl ?? '',
  };
  const started = performance.now();
  const child = spawn(process.execPath, [serverEntry], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1500; i++) {
    try {
      const r = await fetch(`${origin}/healthz`);
      if (r.ok) {
        const coldStartMs = Math.round(performance.now() - started);
        return {
          child,
          origin,
          coldStartMs,
          rss: rssMb(child.pid),
          cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start within 30 s');
}

async function json(origin, path, init = {}) {
  const r = await fetch(`${origin}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

/** Password, QR setup and code: a session token for the tenant-list run. */
async function session(origin) {
  const signin = await json(origin, '/api/auth/signin', {
    method: 'POST',
    body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
  });
  const qr = await json(origin, '/api/auth/generateQR', { headers: { authorization: signin.token } });
  const code = totp(base32Decode(qr.key), Date.now());
  const done = await json(origin, '/api/auth/qrcode-verification', {
    method: 'POST',
    headers: { authorization: signin.token },
    body: JSON.stringify({ code }),
  });
  return done.token;
}

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

const summary = (r) => ({
  'req/s': Math.round(r.requests.average),
  'p50 ms': r.latency.p50,
  'p99 ms': r.latency.p99,
  non2xx: r.non2xx,
});

async function bench(label, databaseUrl) {
  const server = await startServer(databaseUrl);
  try {
    const token = await session(server.origin);
    const signin = await load({
      url: `${server.origin}/api/auth/signin`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
    });
    const tenants = await load({
      url: `${server.origin}/apollo-beta/api/Tenants`,
      headers: { 'x-api-key': API_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    return [
      {
        database: label,
        run: 'sign-in (argon2id)',
        ...summary(signin),
        'cold start ms': server.coldStartMs,
        'rss after start MB': server.rss,
      },
      {
        database: label,
        run: 'tenant list',
        ...summary(tenants),
        'cold start ms': server.coldStartMs,
        'rss after start MB': server.rss,
      },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    server.cleanup();
  }
}

const rows = [...(await bench('PGlite', undefined))];
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  const name = `portal_bench_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(postgresUrl);
  target.pathname = `/${name}`;
  try {
    rows.push(...(await bench('PostgreSQL', target.toString())));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} else {
  console.log('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a server to include it.');
}
console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per run, loopback only`);
console.table(rows);
