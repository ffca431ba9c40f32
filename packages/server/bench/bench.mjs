// Benchmarks the built server on loopback, bounded in time: cold start to first answer, resident
// memory after start, and requests/s with p50/p99 latency for sign-in and for the tenant list, on
// PGlite and (when BENCH_DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server) on PostgreSQL.
// Run `pnpm build` first. Prints a table; exits non-zero only when the server does not start.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { ADMIN, API_KEY, PASSWORD, session, startServer } from './lib.mjs';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

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
    await server.stop();
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
