// The partner's fleet endpoint (GET /api/partner-clients/fleet) under load: the demo partner gets
// BENCH_FLEET_CLIENTS clients (500 by default) with a week of runs (bench/fleet-seed.mjs) in the
// embedded database, then BENCH_CONNECTIONS (10) connections ask for the fleet for BENCH_SECONDS (10 s),
// cycling through what the fleet screen asks: the first page, the next, sorted by name, the critical
// ones, a search. Prints p50/p95/p99 latency and requests/s against the aim (p95 <= 100 ms,
// >= 300 req/s), and the time of a read that finds no snapshot (every figure of every client read).
// `--no-snapshot` runs the server with PORTAL_FLEET_SNAPSHOT_MS=0: every request reads every figure.
// On PGlite; with --postgres on a scratch database of PostgreSQL (BENCH_DATABASE_URL,
// TEST_DATABASE_URL, else postgres on 127.0.0.1). Run `pnpm build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../dist/db/database.js';
import { loadFleet, percentile } from './fleet-load.mjs';
import { seedFleet } from './fleet-seed.mjs';
import { scratchPostgres, session, startServer } from './lib.mjs';

const CLIENTS = Number(process.env.BENCH_FLEET_CLIENTS ?? 500);
const DAYS = Number(process.env.BENCH_FLEET_DAYS ?? 7);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const AIM = { p95: 100, rps: 300 };
const PARTNER = 'partner@fabrikam.example';
const args = process.argv.slice(2);
const withPostgres = args.includes('--postgres');
if (args.includes('--no-snapshot')) process.env.PORTAL_FLEET_SNAPSHOT_MS = '0';

const postgresUrl = withPostgres
  ? (process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres:postgres@127.0.0.1:5432/postgres')
  : undefined;
const scratch = postgresUrl ? await scratchPostgres(postgresUrl) : undefined;
const databaseUrl = scratch?.url;
const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-fleet-'));
const cleanUp = async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
};

try {
  // First start: migrations and the demo world, with the partner the fleet is seeded for.
  await (await startServer(databaseUrl, dataDir)).stop();
  const seeding = performance.now();
  const db = await openDatabase({ databaseUrl, dataDir });
  const [partner] = await db.query(`select id from organisations where name = 'Fabrikam Partners'`);
  const seeded = await seedFleet(db, { partnerId: partner.id, clients: CLIENTS, days: DAYS });
  await db.exec('analyze');
  await db.close();
  const seedSeconds = (performance.now() - seeding) / 1000;

  const server = await startServer(databaseUrl, dataDir);
  try {
    const { page, firstMs, times, result } = await loadFleet({
      origin: server.origin,
      token: await session(server.origin, PARTNER),
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p));
    const rps = result.requests.average;
    console.log(
      `fleet of ${seeded.clients} clients, ${seeded.runs.toLocaleString('en')} runs over ${DAYS} days (${postgresUrl ? 'PostgreSQL' : 'PGlite'}), seeded in ${seedSeconds.toFixed(1)} s; counts ${JSON.stringify(page.counts)}`,
    );
    console.log(
      `first read (no snapshot${process.env.PORTAL_FLEET_SNAPSHOT_MS === '0' ? ', none kept' : ''}): ${firstMs.toFixed(0)} ms`,
    );
    console.log(
      `${CONNECTIONS} connections for ${SECONDS} s: ${Math.round(rps)} req/s, p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (${times.length} answers, non-2xx ${result.non2xx}, errors ${result.errors})`,
    );
    const met = p95 <= AIM.p95 && rps >= AIM.rps && result.non2xx === 0 && result.errors === 0;
    console.log(`aim p95 <= ${AIM.p95} ms and >= ${AIM.rps} req/s: ${met ? 'met' : 'NOT met'}`);
    process.exitCode = met ? 0 : 1;
  } finally {
    await server.stop();
  }
} finally {
  await cleanUp();
}
