// eDiscovery search over an archive of 100,000 mails through the API call the eDiscovery screen makes
// (POST /apollo-beta/api/{tenantId}/ediscovery/search, page of 25 with highlighted hits), on the
// embedded database: p50/p95 over a mix of queries (a word, two words, a phrase, a sender with a
// word, OR, NOT). The mails are written straight into the archive table with full-text vectors
// built as archiving builds them, from a vocabulary of 5,000 words; the administrator holds proxy
// rights on every mailbox. BENCH_MAILS sets the number of mails. Run `pnpm build` first.
// With --postgres the same on a scratch database of PostgreSQL (BENCH_DATABASE_URL, TEST_DATABASE_URL,
// else postgres on 127.0.0.1), where the aim is p95 <= 200 ms over 1,000,000 mails
// (`BENCH_MAILS=1000000 node bench/ediscovery.mjs --postgres`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../dist/db/database.js';
import { ADMIN, API_KEY, scratchPostgres, session, startServer } from './lib.mjs';

const MAILS = Number(process.env.BENCH_MAILS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
const MAILBOXES = 50;
/** Mails written per statement, so that the seeding reports progress and holds no huge transaction. */
const BATCH = 100_000;
const AIM_P95_MS = 200;

const withPostgres = process.argv.includes('--postgres');
const postgresUrl = withPostgres
  ? (process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres:postgres@127.0.0.1:5432/postgres')
  : undefined;
const scratch = postgresUrl ? await scratchPostgres(postgresUrl) : undefined;
const databaseUrl = scratch?.url;
const dropDatabase = async () => scratch?.drop();
const databaseName = postgresUrl ? 'PostgreSQL' : 'PGlite';

const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-ediscovery-'));
/** Removes the scratch database and directory however the run ends. */
const cleanUp = async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase();
};
process.on('uncaughtException', async (error) => {
  console.error(error);
  await cleanUp();
  process.exit(1);
});
// First start: migrations and the demo world.
await (await startServer(databaseUrl, dataDir)).stop();

const seeding = performance.now();
const db = await openDatabase({ databaseUrl, dataDir });
const word = (expr) => `'w' || ((${expr}) % 5000)::text`;
for (let from = 1; from <= MAILS; from += BATCH) {
  const to = Math.min(MAILS, from + BATCH - 1);
  await db.query(
    `insert into archive_items (tenant_id, kind, source, container, external_id, subject, sender, recipients, sent_at,
                              size, has_attachments, blob_hash, preview, job_id, archived_at, search)
   select $1, 'mail', 'mbx-' || (g % ${MAILBOXES}), 'Inbox', 'm' || g, x.subject, 'user' || (g % 200) || '@bench.example',
          'mbx-' || (g % ${MAILBOXES}) || '@bench.example', now() - (g || ' minutes')::interval, 2000 + g % 5000,
          g % 10 = 0, 'bench', x.body, null, now(),
          setweight(to_tsvector('english', x.subject), 'A') || setweight(to_tsvector('english', x.body), 'C')
     from generate_series($2::int, $3::int) g,
          lateral (select (select string_agg(${word('g::bigint * 7919 + i * 104729')}, ' ') from generate_series(1, 5) i) as subject,
                          (select string_agg(${word('g::bigint * 31 + i * i * 7 + i * 104723')}, ' ') from generate_series(1, 60) i) as body) x`,
    [TENANT, from, to],
  );
  if (MAILS > BATCH)
    console.log(`${to.toLocaleString('en')} mails written (${((performance.now() - seeding) / 1000).toFixed(0)} s)`);
}
for (let m = 0; m < MAILBOXES; m++) {
  await db.query(
    `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind, principal_name,
                               principal_email, granted_by, granted_at)
     values (gen_random_uuid()::text, $1, $2, $2, 'bench-admin', 'account', 'Bench admin', $3, 'bench', now())`,
    [TENANT, `mbx-${m}`, ADMIN],
  );
}
await db.exec('analyze');
await db.close();
const seedSeconds = (performance.now() - seeding) / 1000;

const server = await startServer(databaseUrl, dataDir);
try {
  const token = await session(server.origin);
  const queries = [];
  for (let q = 0; q < QUERIES; q++) {
    const a = `w${(q * 37) % 5000}`;
    const b = `w${(q * 91 + 13) % 5000}`;
    queries.push(
      [a, `${a} ${b}`, `"${a} ${b}"`, `from:user${q % 200}@bench.example ${a}`, `${a} OR ${b}`, `${a} NOT ${b}`][q % 6],
    );
  }
  const times = [];
  const kinds = ['word', 'two words', 'phrase', 'sender + word', 'OR', 'NOT'];
  const byKind = Object.fromEntries(kinds.map((k) => [k, []]));
  let hits = 0;
  for (const [q, query] of queries.entries()) {
    const started = performance.now();
    const response = await fetch(`${server.origin}/apollo-beta/api/${TENANT}/ediscovery/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, kinds: ['mail'], pageSize: 25 }),
    });
    const body = await response.json();
    times.push(performance.now() - started);
    byKind[kinds[q % 6]].push(performance.now() - started);
    if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
    hits += body.total;
  }
  const atOf = (sample, p) => {
    const sorted = [...sample].sort((x, y) => x - y);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
  };
  const at = (p) => atOf(times, p);
  console.log(
    `archive of ${MAILS.toLocaleString('en')} mails in ${MAILBOXES} mailboxes written in ${seedSeconds.toFixed(1)} s`,
  );
  console.log(
    `eDiscovery search through the API (${databaseName}), ${QUERIES} queries, page of 25 with highlighted hits: p50 ${at(50)} ms, p95 ${at(95)} ms, ${Math.round(hits / QUERIES)} hits per query on average`,
  );
  for (const [kind, sample] of Object.entries(byKind))
    console.log(`  ${kind.padEnd(14)} p50 ${atOf(sample, 50)} ms, p95 ${atOf(sample, 95)} ms`);
  if (postgresUrl && MAILS >= 1_000_000)
    console.log(
      `aim on PostgreSQL over 1,000,000 mails: p95 <= ${AIM_P95_MS} ms${Number(at(95)) <= AIM_P95_MS ? ' (met)' : ' (MISSED)'}`,
    );
} finally {
  await server.stop();
  await cleanUp();
}
