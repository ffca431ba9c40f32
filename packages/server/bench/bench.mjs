// Benchmarks the built server on loopback, bounded in time, on the demo world with its thirty days of
// history (as `pnpm start` makes it): cold start, resident memory, sign-in, and requests/s with p50/p99
// latency for every read endpoint of the catalogue a signed-in admin calls (lists, dashboards, reports,
// monitor: bench/reads.mjs), each against the aim of 500 req/s with p99 at most 50 ms. On PGlite, and on
// PostgreSQL with `--postgres` (BENCH_DATABASE_URL, TEST_DATABASE_URL, else postgres on 127.0.0.1).
// Each read is measured BENCH_ROUNDS times (rounds interleaved) and the medians are printed.
// `--only=REGEX` measures the matching endpoint ids only; `--no-pglite` skips PGlite.
// Run `pnpm build` first. Prints tables; exits non-zero only when the server does not start.
import autocannon from 'autocannon';
import { ADMIN, PASSWORD, scratchPostgres, session, startServer } from './lib.mjs';
import { demoValues, headersFor, readRequests } from './reads.mjs';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const READ_S = Number(process.env.BENCH_READ_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const AIM = { rps: 500, p99: 50 };
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const withPostgres = args.includes('--postgres');
const withPglite = !args.includes('--no-pglite');
const withSignin = !args.includes('--no-signin');

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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function bench(label, databaseUrl) {
  const server = await startServer(databaseUrl, undefined, { history: true });
  try {
    const token = await session(server.origin);
    const rows = [];
    if (withSignin) {
      const signin = await load({
        url: `${server.origin}/api/auth/signin`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
      });
      rows.push({
        database: label,
        run: 'sign-in (argon2id)',
        ...summary(signin),
        'cold start ms': server.coldStartMs,
        'rss after start MB': server.rss,
      });
    }
    const values = await demoValues(server.origin, token);
    const requests = readRequests(values).filter((r) => !only || new RegExp(only).test(r.id));
    const reads = [];
    for (const r of requests) {
      if (r.skipped) {
        console.log(`${r.id}: skipped, ${r.skipped}`);
        continue;
      }
      // Only what the admin may read: an endpoint of the operator or the partner answers 403.
      const probe = await fetch(`${server.origin}${r.path}`, { headers: headersFor(r.api, token) });
      await probe.arrayBuffer();
      if (probe.status !== 200) {
        console.log(`${r.id}: skipped, ${probe.status} for the admin (${r.path})`);
        continue;
      }
      reads.push({ ...r, runs: [] });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const r of reads) {
        const result = await load({
          url: `${server.origin}${r.path}`,
          headers: headersFor(r.api, token),
          duration: READ_S,
        });
        r.runs.push(result);
      }
    }
    const table = reads.map((r) => {
      const rps = median(r.runs.map((x) => Math.round(x.requests.average)));
      const p50 = median(r.runs.map((x) => x.latency.p50));
      const p99 = median(r.runs.map((x) => x.latency.p99));
      const non2xx = r.runs.reduce((n, x) => n + x.non2xx + x.errors, 0);
      return {
        endpoint: r.id,
        database: label,
        'req/s': rps,
        'p50 ms': p50,
        'p99 ms': p99,
        aim: rps >= AIM.rps && p99 <= AIM.p99 ? 'yes' : 'NO',
        ...(non2xx ? { 'non-2xx/errors': non2xx } : {}),
      };
    });
    return { rows, table };
  } finally {
    await server.stop();
    server.cleanup();
  }
}

const rows = [];
const table = [];
const add = (result) => {
  rows.push(...result.rows);
  table.push(...result.table);
};
if (withPglite) add(await bench('PGlite', undefined));
const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  (withPostgres ? 'postgres://postgres:postgres@127.0.0.1:5432/postgres' : undefined);
if (postgresUrl) {
  const scratch = await scratchPostgres(postgresUrl);
  try {
    add(await bench('PostgreSQL', scratch.url));
  } finally {
    await scratch.drop();
  }
} else {
  console.log('PostgreSQL skipped: pass --postgres or set BENCH_DATABASE_URL (or TEST_DATABASE_URL).');
}
console.log(`\n${CONNECTIONS} connections, loopback only, demo world with 30 days of history`);
if (rows.length) console.table(rows);
console.log(
  `Reads: ${READ_S} s per endpoint, median of ${ROUNDS} rounds; aim ${AIM.rps} req/s and p99 <= ${AIM.p99} ms`,
);
console.table(table);
const missed = table.filter((r) => r.aim !== 'yes').length;
console.log(`${table.length - missed} of ${table.length} reads meet the aim.`);
