// The audit-log screen's reads over a long log: an organisation's 100,000 entries (BENCH_ENTRIES) in a
// chain they share with another organisation's entries (one in six), verified against the chain
// through the API call the screen makes (GET /apollo-beta/api/audit-log/verify: each of the
// organisation's entries recomputed, its links to its neighbours checked, the chain checked for gaps),
// and the screen's first page read with and without a filter by who. The entries are chained here as
// the server chains them (its own hash function) and written in batches. Prints the median of
// BENCH_ROUNDS (3) of each. On the embedded database; with --postgres on a scratch database of
// PostgreSQL (BENCH_DATABASE_URL, TEST_DATABASE_URL, else postgres on 127.0.0.1). Run `pnpm build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entryHash, GENESIS_HASH } from '../dist/audit/audit-log.js';
import { openDatabase } from '../dist/db/database.js';
import { ADMIN, API_KEY, scratchPostgres, session, startServer } from './lib.mjs';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Entries written per statement. */
const BATCH = 2_000;
const ACTIONS = ['auth.signin', 'auth.2fa.verify', 'tenant.update', 'job.start', 'location.create', 'user.create'];

const withPostgres = process.argv.includes('--postgres');
const postgresUrl = withPostgres
  ? (process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres:postgres@127.0.0.1:5432/postgres')
  : undefined;
const scratch = postgresUrl ? await scratchPostgres(postgresUrl) : undefined;
const databaseUrl = scratch?.url;
const databaseName = postgresUrl ? 'PostgreSQL' : 'PGlite';
const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-audit-'));
const cleanUp = async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
};
process.on('uncaughtException', async (error) => {
  console.error(error);
  await cleanUp();
  process.exit(1);
});

// First start: migrations and the demo world (whose seeding is the chain's first entries).
await (await startServer(databaseUrl, dataDir)).stop();

const seeding = performance.now();
const db = await openDatabase({ databaseUrl, dataDir });
const [contoso] = await db.query("select id from organisations where name = 'Contoso'");
const [other] = await db.query("select id from organisations where name = 'Northwind Traders'");
const [admin] = await db.query('select id, email from users where email = $1', [ADMIN]);
const [last] = await db.query('select seq, hash from audit_log order by seq desc limit 1');
let seq = Number(last?.seq ?? 0);
let prevHash = last?.hash ?? GENESIS_HASH;
const others = Math.floor(ENTRIES / 5);
const total = ENTRIES + others;
const start = Date.now() - 30 * 24 * 3600_000;
let written = 0;
while (written < total) {
  const rows = [];
  for (let i = 0; i < BATCH && written < total; i++, written++) {
    seq += 1;
    // One entry in six is the other organisation's: the organisation's entries are not contiguous.
    const ours = written % 6 !== 5;
    const entry = {
      seq,
      at: new Date(start + Math.floor((written / total) * 30 * 24 * 3600_000)).toISOString(),
      actorUserId: ours ? admin.id : null,
      actorEmail: ours ? admin.email : 'someone@northwind.example',
      organisationId: ours ? contoso.id : other.id,
      action: ACTIONS[written % ACTIONS.length],
      target: `target-${written % 97}`,
      outcome: written % 13 === 0 ? 'failure' : 'success',
      ip: '198.51.100.7',
      details: { n: written },
      prevHash,
    };
    const hash = entryHash(entry);
    rows.push({ ...entry, hash });
    prevHash = hash;
  }
  const columns = [
    'seq',
    'at',
    'actorUserId',
    'actorEmail',
    'organisationId',
    'action',
    'target',
    'outcome',
    'ip',
    'details',
    'prevHash',
    'hash',
  ].map((key) => rows.map((r) => (key === 'details' ? JSON.stringify(r.details) : r[key])));
  await db.query(
    `insert into audit_log (seq, at, actor_user_id, actor_email, organisation_id, action, target, outcome, ip, details, prev_hash, hash)
     select * from unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                          $8::text[], $9::text[], $10::jsonb[], $11::text[], $12::text[])`,
    columns,
  );
}
await db.exec('analyze');
const [counted] = await db.query('select count(*)::int as n from audit_log where organisation_id = $1', [contoso.id]);
await db.close();
const seedSeconds = (performance.now() - seeding) / 1000;

const server = await startServer(databaseUrl, dataDir);
try {
  const token = await session(server.origin);
  const headers = { 'x-api-key': API_KEY, authorization: `Bearer ${token}` };
  const timed = async (path) => {
    const times = [];
    let body;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const response = await fetch(`${server.origin}/apollo-beta${path}`, { headers });
      body = await response.json();
      times.push(performance.now() - started);
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    return { ms: median.toFixed(0), body };
  };
  const verify = await timed('/api/audit-log/verify');
  if (!verify.body.verified) throw new Error(`the chain did not verify: ${JSON.stringify(verify.body)}`);
  const page = await timed('/api/audit-log?pageSize=25');
  const byActor = await timed('/api/audit-log?pageSize=25&actor=contoso%20admin');
  console.log(
    `audit log of ${Number(counted.n).toLocaleString('en')} entries of one organisation in a chain of ${seq.toLocaleString('en')} (${databaseName}), written in ${seedSeconds.toFixed(1)} s`,
  );
  console.log(
    `verify through the API: ${verify.ms} ms for ${verify.body.entries.toLocaleString('en')} entries (the server's own time ${verify.body.durationMs} ms); median of ${ROUNDS}`,
  );
  console.log(
    `first page of 25: ${page.ms} ms; filtered by who: ${byActor.ms} ms (${byActor.body.total.toLocaleString('en')} entries)`,
  );
} finally {
  await server.stop();
  await cleanUp();
}
