// eDiscovery search over an archive of 100,000 mails through the API call the eDiscovery screen makes
// (POST /apollo-beta/api/{tenantId}/ediscovery/search, page of 25 with highlighted hits), on the
// embedded database: p50/p95 over a mix of queries (a word, two words, a phrase, a sender with a
// word, OR, NOT). The mails are written straight into the archive table with full-text vectors
// built as archiving builds them, from a vocabulary of 5,000 words; the administrator holds proxy
// rights on every mailbox. BENCH_MAILS sets the number of mails. Run `pnpm build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../dist/db/database.js';
import { ADMIN, API_KEY, session, startServer } from './lib.mjs';

const MAILS = Number(process.env.BENCH_MAILS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
const MAILBOXES = 50;

const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-ediscovery-'));
// First start: migrations and the demo world.
await (await startServer(undefined, dataDir)).stop();

const seeding = performance.now();
const db = await openDatabase({ dataDir });
const word = (expr) => `'w' || ((${expr}) % 5000)::text`;
await db.query(
  `insert into archive_items (tenant_id, kind, source, container, external_id, subject, sender, recipients, sent_at,
                              size, has_attachments, blob_hash, preview, job_id, archived_at, search)
   select $1, 'mail', 'mbx-' || (g % ${MAILBOXES}), 'Inbox', 'm' || g, x.subject, 'user' || (g % 200) || '@bench.example',
          'mbx-' || (g % ${MAILBOXES}) || '@bench.example', now() - (g || ' minutes')::interval, 2000 + g % 5000,
          g % 10 = 0, 'bench', x.body, null, now(),
          setweight(to_tsvector('english', x.subject), 'A') || setweight(to_tsvector('english', x.body), 'C')
     from generate_series(1, $2::int) g,
          lateral (select (select string_agg(${word('g * 7919 + i * 104729')}, ' ') from generate_series(1, 5) i) as subject,
                          (select string_agg(${word('g * 31 + i * i * 7 + i * 104723')}, ' ') from generate_series(1, 60) i) as body) x`,
  [TENANT, MAILS],
);
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

const server = await startServer(undefined, dataDir);
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
  let hits = 0;
  for (const query of queries) {
    const started = performance.now();
    const response = await fetch(`${server.origin}/apollo-beta/api/${TENANT}/ediscovery/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, kinds: ['mail'], pageSize: 25 }),
    });
    const body = await response.json();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
    hits += body.total;
  }
  times.sort((x, y) => x - y);
  const at = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
  console.log(
    `archive of ${MAILS.toLocaleString('en')} mails in ${MAILBOXES} mailboxes written in ${seedSeconds.toFixed(1)} s`,
  );
  console.log(
    `eDiscovery search through the API (PGlite), ${QUERIES} queries, page of 25 with highlighted hits: p50 ${at(50)} ms, p95 ${at(95)} ms, ${Math.round(hits / QUERIES)} hits per query on average`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
