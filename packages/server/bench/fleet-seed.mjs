// A partner's fleet for the benchmarks: `clients` customer organisations of one partner, each with a
// worker, an active tenant, a storage location, five jobs (OneDrive, SharePoint and Teams backups, the
// mail and the Teams archive) and their runs every `runEveryHours` hours over `days` days, stored
// backup versions and archived items (the usage totals follow by their triggers), discovered sources,
// archive deletions and a connection test in the audit chain. Some clients are made to need attention:
// no tenant (one in 50), no location (one in 40), a trial that ends or ended (one in 10), a failed
// connection test (one in 31) or none (one in 7), and runs that fail or finish with warnings.
//
// Written with a few set-based statements (generate_series), so 500 clients take seconds. Import it:
//   import { seedFleet } from './fleet-seed.mjs';
//   await seedFleet(db, { partnerId, clients: 500 });
// where `db` is the server's Database (dist/db/database.js), migrated, with the partner organisation.
import { entryHash, GENESIS_HASH } from '../dist/audit/audit-log.js';

const HOUR = 3_600_000;
/** Audit entries written per statement. */
const AUDIT_BATCH = 1_000;

/**
 * Seeds the fleet of `partnerId`; `now` is where the runs end (the server's clock: the wall clock).
 * Ids and names start with `prefix`, so several fleets can be seeded into one database.
 * Returns what was written.
 */
export async function seedFleet(
  db,
  { partnerId, clients = 500, days = 7, runEveryHours = 6, now = new Date(), prefix = 'fleet' } = {},
) {
  const p = prefix;
  const runsPerJob = Math.max(1, Math.floor((days * 24) / runEveryHours));
  // Organisations, workers and tenants (one client in 50 has none: its worker acts for no tenant).
  await db.query(
    `insert into organisations (id, name, kind, partner_id, license, license_valid_until, abbr, created_at)
     select $1 || '-org-' || i, 'Client ' || lpad(i::text, 4, '0'), 'customer', $2,
            case when i % 10 = 0 then 'trial' else 'full' end,
            case when i % 10 = 0 then $3::timestamptz + ((i % 30) - 10) * interval '1 day' end,
            $1 || '-c' || i, $3::timestamptz - interval '90 days'
       from generate_series(1, $4) i`,
    [p, partnerId, now, clients],
  );
  await db.query(
    `insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri,
                          is_active, provisioning, default_domain)
     select md5($1 || 'tenant' || i)::uuid::text, $1 || '-org-' || i, 'client' || i || '.onmicrosoft.com',
            md5($1 || 'app' || i)::uuid::text, md5($1 || 'object' || i)::uuid::text, 'https://portal.example/redirect',
            true, 'provisioned', 'client' || i || '.onmicrosoft.com'
       from generate_series(1, $2) i where i % 50 <> 0`,
    [p, clients],
  );
  const [{ n: workersBefore }] = await db.query('select count(*)::int as n from workers');
  await db.query(
    `insert into workers (id, organisation_id, worker_ip, index_ip, stagingtenant_id)
     select $1 || '-worker-' || i, $1 || '-org-' || i,
            '10.' || (96 + (i + $3) / 62500) || '.' || ((i + $3) / 250 % 250) || '.' || ((i + $3) % 250 + 1),
            '10.' || (112 + (i + $3) / 62500) || '.' || ((i + $3) / 250 % 250) || '.' || ((i + $3) % 250 + 1),
            case when i % 50 <> 0 then md5($1 || 'tenant' || i)::uuid::text end
       from generate_series(1, $2) i`,
    [p, clients, workersBefore],
  );
  await db.query(
    `insert into locations (location_id, tenant_id, name, site_address, created_at)
     select $1 || '-location-' || i, md5($1 || 'tenant' || i)::uuid::text, 'Vault',
            'https://client' || i || '.sharepoint.com/sites/vault', $3::timestamptz - interval '90 days'
       from generate_series(1, $2) i where i % 50 <> 0 and i % 40 <> 0`,
    [p, clients, now],
  );
  // Five jobs a tenant, each covering some of the tenant's sources.
  const kinds = [
    ['backup', 'onedrive', 20],
    ['backup', 'sharepoint', 8],
    ['backup', 'teams', 6],
    ['exchangeArchive', 'exchange', 20],
    ['teamsArchive', 'teams', 6],
  ];
  await db.query(
    `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, enabled, next_run, created_at, updated_at)
     select $1 || '-job-' || i || '-' || k.n, md5($1 || 'tenant' || i)::uuid::text, k.type || ' ' || k.application,
            k.type, k.application, case when i % 40 <> 0 then $1 || '-location-' || i end,
            jsonb_build_object('sources', (select jsonb_agg(k.application || '-' || s) from generate_series(1, k.sources) s)),
            true, $3::timestamptz + interval '1 hour', $3::timestamptz - interval '90 days', $3::timestamptz - interval '90 days'
       from generate_series(1, $2) i
       cross join unnest($4::text[], $5::text[], $6::int[]) with ordinality as k(type, application, sources, n)
      where i % 50 <> 0`,
    [p, clients, now, kinds.map((k) => k[0]), kinds.map((k) => k[1]), kinds.map((k) => k[2])],
  );
  // The runs: every `runEveryHours` hours per job; one in 150 fails, one in 60 finishes with warnings
  // (and failed items, so it is no success); the newest of one job in 9 is still running.
  await db.query(
    `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished,
                           progress, items_total, items_done, items_failed, bytes, warnings, message)
     select j.job_id || '-run-' || r, j.job_id, j.tenant_id, 'schedule', x.status, x.at, x.at, x.at,
            case when x.status in ('finished', 'failed') then x.at + interval '12 minutes' end,
            case when x.status = 'running' then 40 else 100 end, 200, 200,
            case when x.warned then 3 else 0 end,
            case when x.status = 'failed' then 0 else 1000000 + (hashtext(j.job_id || r) & 1048575) end,
            case when x.warned then 3 else 0 end,
            case when x.status = 'failed' then 'The run failed.' end
       from jobs j
       cross join generate_series(1, $3) r
       cross join lateral (
         select $2::timestamptz - (r * $4 - 1) * interval '1 hour' as at,
                case when r = 1 and (hashtext(j.job_id) & 8191) % 9 = 0 then 'running'
                     when (hashtext(j.job_id || r) & 8191) % 150 = 0 then 'failed'
                     else 'finished' end as status,
                (hashtext(j.job_id || r || 'w') & 8191) % 60 = 0 as warned
       ) x
      where j.job_id like $1 || '-job-%'`,
    [p, now, runsPerJob, runEveryHours],
  );
  await db.query(
    `update job_runs set warnings = 0, items_failed = 0 where job_id like $1 || '-job-%' and status <> 'finished'`,
    [p],
  );
  // Backed-up versions (ten a backup job, from its oldest run) and archived items (per archive job).
  await db.query(
    `insert into backup_items (job_id, source_id, item_id, version_id, kind, name, path, size, hash, is_latest, first_seq)
     select j.job_id, j.application || '-1', 'item-' || n, 'v1', 'file', 'file-' || n, '/',
            100000 + n * 1000, md5(j.job_id || n), true,
            (select min(seq) from job_runs r where r.job_id = j.job_id)
       from jobs j cross join generate_series(1, 10) n
      where j.job_id like $1 || '-job-%' and j.type = 'backup'`,
    [p],
  );
  await db.query(
    `insert into archive_items (tenant_id, kind, source, container, external_id, subject, size, blob_hash, job_id, archived_at, search)
     select j.tenant_id, case when j.type = 'exchangeArchive' then 'mail' else 'teams' end, j.application || '-1', 'Inbox',
            j.job_id || '-item-' || n, 'Item ' || n, 20000 + n * 100, md5(j.job_id || 'a' || n), j.job_id,
            $2::timestamptz - (n % ($3::int * 24)) * interval '1 hour', to_tsvector('simple', '')
       from jobs j cross join generate_series(1, 20) n
      where j.job_id like $1 || '-job-%' and j.type in ('exchangeArchive', 'teamsArchive')`,
    [p, now, days],
  );
  await db.query(
    `insert into archive_deletions (tenant_id, run_id, kind, source, archived_day, deleted_at, items, bytes)
     select md5($1 || 'tenant' || i)::uuid::text, $1 || '-deletion-' || i, 'mail', 'exchange-1',
            ($2::timestamptz - interval '400 days')::date, $2::timestamptz - interval '2 days', 5, 50000
       from generate_series(1, $3) i where i % 50 <> 0 and i % 5 = 0`,
    [p, now, clients],
  );
  // What discovery found: somewhat more than the jobs cover.
  const found = [
    ['onedrive', 'user', 25],
    ['sharepoint', 'site', 10],
    ['teams', 'team', 8],
    ['exchange', 'mailbox', 25],
  ];
  await db.query(
    `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, seen_at)
     select md5($1 || 'tenant' || i)::uuid::text, k.application, k.application || '-' || s, k.kind,
            k.application || ' ' || s, $2::timestamptz - interval '1 day'
       from generate_series(1, $3) i
       cross join unnest($4::text[], $5::text[], $6::int[]) as k(application, kind, n)
       cross join lateral generate_series(1, k.n) s
      where i % 50 <> 0`,
    [p, now, clients, found.map((f) => f[0]), found.map((f) => f[1]), found.map((f) => f[2])],
  );
  const tests = await seedConnectionTests(db, { prefix: p, clients, now });
  const [{ runs }] = await db.query(`select count(*)::int as runs from job_runs where job_id like $1 || '-job-%'`, [p]);
  return { clients, runs: Number(runs), connectionTests: tests };
}

/**
 * The connection tests of the fleet's tenants (one in 7 never tested, one in 31 failed), appended to
 * the audit chain as the server appends them: each entry hashed with its predecessor's hash.
 */
async function seedConnectionTests(db, { prefix, clients, now }) {
  const tenants = await db.query(
    `select i, md5($1 || 'tenant' || i)::uuid::text as tenant_id, $1 || '-org-' || i as organisation_id
       from generate_series(1, $2) i where i % 50 <> 0 and i % 7 <> 0 order by i`,
    [prefix, clients],
  );
  const [last] = await db.query('select seq, hash from audit_log order by seq desc limit 1');
  let seq = Number(last?.seq ?? 0);
  let prevHash = last?.hash ?? GENESIS_HASH;
  for (let start = 0; start < tenants.length; start += AUDIT_BATCH) {
    const rows = tenants.slice(start, start + AUDIT_BATCH).map((t) => {
      seq += 1;
      const failed = Number(t.i) % 31 === 0;
      const entry = {
        seq,
        at: new Date(now.getTime() - (Number(t.i) % 72) * HOUR).toISOString(),
        actorUserId: null,
        actorEmail: null,
        organisationId: t.organisation_id,
        action: 'tenant.connectionTest',
        target: t.tenant_id,
        outcome: failed ? 'failure' : 'success',
        ip: null,
        details: failed ? { message: 'The app registration was not found in the tenant.' } : {},
        prevHash,
      };
      const hash = entryHash(entry);
      prevHash = hash;
      return { ...entry, hash };
    });
    const column = (key) => rows.map((r) => (key === 'details' ? JSON.stringify(r.details) : r[key]));
    await db.query(
      `insert into audit_log (seq, at, actor_user_id, actor_email, organisation_id, action, target, outcome, ip, details, prev_hash, hash)
       select * from unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::text[], $10::jsonb[], $11::text[], $12::text[])`,
      [
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
      ].map(column),
    );
  }
  return tenants.length;
}
