/**
 * The dashboards' reads: the backup dashboards' figures per workload, the legacy worker statistics and
 * the overview's runs and figures, each in as few statements as a dashboard's visits allow.
 */
import type { Application, DashboardApplication, JobType, OverviewDashboard } from '@compliance-portal/sdk';
import { MAILBOX_ITEM_TOTALS, type MailboxItemTotals } from '../../archive-data/mailbox-item-totals-repository.js';
import type { Queryable } from '../../db/database.js';
import type { RunRow } from '../../jobs/repository.js';
import { FREED_SINCE } from '../data-management/repository.js';
import { RUN_VIEW_COLUMNS, type RunViewRow } from '../jobs/runs-repository.js';
import type { TenantRecord } from '../tenants/repository.js';

const JOBS = `j.tenant_id = $1 and j.type = 'backup' and j.application = $2`;

/**
 * The distinct contents the backup jobs matching `where` (over `jobs j`) store, per workload,
 * account, site or team: each content (its hash) once, with its size and the day a run first stored
 * it. The stored size of a source is the sum of its contents' sizes, whichever jobs cover it.
 */
const storedContents = (where: string) => `
  select j.application, b.source_id, b.hash, max(b.size) as size,
         min(to_char(date_trunc('day', coalesce(r.finished, r.started, r.created_at) at time zone 'UTC'), 'YYYY-MM-DD'))
           as day
    from backup_items b join jobs j on j.job_id = b.job_id left join job_runs r on r.seq = b.first_seq
   where ${where} and b.hash is not null
   group by j.application, b.source_id, b.hash`;

/**
 * The items the backup jobs matching `where` (over `jobs j`) hold now, by kind: files and Teams
 * messages (backup_items), SharePoint list items and site pages (migration 38); one row, or one per
 * account, site or team (`source_id`) or per workload (`application`). Live means not deleted at the
 * source; each item once however many jobs or versions hold it (the union keeps one of each).
 */
const liveKinds = (where: string, group?: 'source' | 'application') => {
  const key = (source: string) =>
    group === 'source' ? `${source} as source_id,` : group === 'application' ? 'j.application,' : '';
  const by = group === 'source' ? 'source_id' : group;
  return `
  select ${by ? `${by},` : ''}
         count(*) filter (where kind = 'file')::int as files,
         count(*) filter (where kind = 'message')::int as messages,
         count(*) filter (where kind = 'listItem')::int as list_items,
         count(*) filter (where kind = 'page')::int as pages
    from (select ${key('b.source_id')} b.kind, b.source_id as s, b.item_id as i, '' as l
            from backup_items b join jobs j on j.job_id = b.job_id
           where ${where} and b.kind <> 'folder' and b.deleted_seq is null
          union
          select ${key('li.site_id')} 'listItem', li.site_id, li.item_id, li.list_id
            from backup_list_items li join jobs j on j.job_id = li.job_id where ${where} and li.deleted_seq is null
          union
          select ${key('p.site_id')} 'page', p.site_id, p.page_id, ''
            from backup_pages p join jobs j on j.job_id = p.job_id where ${where} and p.deleted_seq is null) k
   ${by ? `group by ${by}` : ''}`;
};

/** A row of liveKinds. */
export interface LiveKindsRow {
  files: number;
  messages: number;
  list_items: number;
  pages: number;
}

/**
 * The figures of the basic view in one query (a dashboard is read often; each query costs a round
 * trip): protected sources (the backup jobs' sources), discovered sources, live items, the newest
 * finished run and the runs of the period by status.
 */
export async function basicRow(db: Queryable, tenantId: string, application: DashboardApplication, from: Date) {
  const [row] = await db.query<{
    covered: number;
    discovered: number;
    kinds: LiveKindsRow | string | null;
    last: { job_id: string; name: string; finished: string } | null;
    statuses: Record<string, number> | null;
  }>(
    `select
       (select count(distinct s)::int from jobs j, jsonb_array_elements_text(j.definition->'sources') s where ${JOBS}) as covered,
       (select count(*)::int from discovered_sources where tenant_id = $1 and application = $2) as discovered,
       (select row_to_json(k) from (${liveKinds(JOBS)}) k) as kinds,
       (select json_build_object('job_id', r.job_id, 'name', j.name, 'finished', r.finished) from job_runs r
          join jobs j on j.job_id = r.job_id
         where ${JOBS} and r.status = 'finished' order by r.finished desc, r.seq desc limit 1) as last,
       (select json_object_agg(status, n) from (select r.status, count(*)::int as n from job_runs r
          join jobs j on j.job_id = r.job_id where ${JOBS} and coalesce(r.started, r.created_at) >= $3 group by r.status) x) as statuses`,
    [tenantId, application, from],
  );
  return row;
}

/**
 * The stored bytes per day a content was first stored (see storedContents), and the items protected at
 * the end of each day from `firstDay` to `today` (backed up by then, not yet deleted at the source).
 */
export function sizeRows(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  firstDay: string,
  today: string,
) {
  return Promise.all([
    db.query<{ day: string | null; bytes: string }>(
      `select c.day, sum(c.size)::bigint as bytes from (${storedContents(JOBS)}) c group by c.day`,
      [tenantId, application],
    ),
    db.query<{ day: string; items: number }>(
      `with spans as (
         select b.source_id, b.item_id,
                min(to_char(date_trunc('day', coalesce(r.finished, r.started, r.created_at) at time zone 'UTC'), 'YYYY-MM-DD'))
                  as since,
                case when bool_and(b.deleted_seq is not null) then
                  max(to_char(date_trunc('day', coalesce(d.finished, d.started, d.created_at) at time zone 'UTC'), 'YYYY-MM-DD'))
                end as until
           from backup_items b join jobs j on j.job_id = b.job_id
           left join job_runs r on r.seq = b.first_seq left join job_runs d on d.seq = b.deleted_seq
          where ${JOBS} and b.kind <> 'folder'
          group by b.job_id, b.source_id, b.item_id
         union all
         select li.site_id, 'listItem:' || li.list_id || ':' || li.item_id,
                min(to_char(date_trunc('day', coalesce(r.finished, r.started, r.created_at) at time zone 'UTC'), 'YYYY-MM-DD')),
                case when bool_and(li.deleted_seq is not null) then
                  max(to_char(date_trunc('day', coalesce(d.finished, d.started, d.created_at) at time zone 'UTC'), 'YYYY-MM-DD'))
                end
           from backup_list_items li join jobs j on j.job_id = li.job_id
           left join job_runs r on r.seq = li.first_seq left join job_runs d on d.seq = li.deleted_seq
          where ${JOBS}
          group by li.job_id, li.site_id, li.list_id, li.item_id
         union all
         select p.site_id, 'page:' || p.page_id,
                min(to_char(date_trunc('day', coalesce(r.finished, r.started, r.created_at) at time zone 'UTC'), 'YYYY-MM-DD')),
                case when bool_and(p.deleted_seq is not null) then
                  max(to_char(date_trunc('day', coalesce(d.finished, d.started, d.created_at) at time zone 'UTC'), 'YYYY-MM-DD'))
                end
           from backup_pages p join jobs j on j.job_id = p.job_id
           left join job_runs r on r.seq = p.first_seq left join job_runs d on d.seq = p.deleted_seq
          where ${JOBS}
          group by p.job_id, p.site_id, p.page_id),
       days as (select to_char(g, 'YYYY-MM-DD') as day from generate_series($3::date::timestamp, $4::date::timestamp, interval '1 day') g)
       select days.day, count(distinct (s.source_id, s.item_id))::int as items
         from days join spans s on coalesce(s.since, $5::text) <= days.day and (s.until is null or s.until > days.day)
        group by days.day`,
      [tenantId, application, firstDay, today, firstDay],
    ),
  ]);
}

/** Per protected account, site or team: its name, live items, stored bytes and newest run. */
export function detailRows(db: Queryable, tenantId: string, application: DashboardApplication) {
  return db.query<{
    source_id: string;
    display_name: string | null;
    files: number | null;
    messages: number | null;
    list_items: number | null;
    pages: number | null;
    bytes: string | null;
    finished: Date | null;
    status: RunRow['status'] | null;
    failed: boolean | null;
  }>(
    `with covered as (
       select distinct s as source_id from jobs j, jsonb_array_elements_text(j.definition->'sources') s where ${JOBS}),
     live as (${liveKinds(JOBS, 'source')}),
     contents as (select c.source_id, sum(c.size)::bigint as bytes from (${storedContents(JOBS)}) c group by c.source_id),
     newest as (
       select distinct on (s.source_id) s.source_id, r.finished, r.status, s.failed
         from job_run_sources s join job_runs r on r.run_id = s.run_id join jobs j on j.job_id = r.job_id
        where ${JOBS} order by s.source_id, r.seq desc)
     select c.source_id,
            (select d.display_name from discovered_sources d where d.tenant_id = $1 and d.source_id = c.source_id limit 1)
              as display_name,
            l.files, l.messages, l.list_items, l.pages, st.bytes, n.finished, n.status, n.failed
       from covered c left join live l on l.source_id = c.source_id left join contents st on st.source_id = c.source_id
       left join newest n on n.source_id = c.source_id`,
    [tenantId, application],
  );
}

/** The newest backup run that finished without failure, of any workload, with its job. */
export async function lastSuccessfulBackupRow(db: Queryable, tenantId: string) {
  const [last] = await db.query<{ job_id: string; name: string; application: DashboardApplication; finished: Date }>(
    `select r.job_id, j.name, j.application, r.finished from job_runs r join jobs j on j.job_id = r.job_id
      where j.tenant_id = $1 and j.type = 'backup' and r.status = 'finished' and r.items_failed = 0
      order by r.finished desc, r.seq desc limit 1`,
    [tenantId],
  );
  return last;
}

/**
 * Per backup workload among `applications`: protected sources, live items, stored bytes (each content of
 * a source once, see storedContents) and jobs; in one query, grouped by workload.
 */
export function backupStatisticsRows(db: Queryable, tenantId: string, applications: readonly DashboardApplication[]) {
  return db.query<{
    application: DashboardApplication;
    covered: number;
    files: number;
    messages: number;
    list_items: number;
    pages: number;
    bytes: number | string;
    jobs: number;
  }>(
    `with j as (select job_id, application, definition from jobs where tenant_id = $1 and type = 'backup' and application = any($2)),
     covered as (select j.application, count(distinct s)::int as n from j, jsonb_array_elements_text(j.definition->'sources') s
                 group by j.application),
     live as (${liveKinds(`j.tenant_id = $1 and j.type = 'backup' and j.application = any($2)`, 'application')}),
     contents as (select c.application, coalesce(sum(c.size), 0)::bigint as bytes
                    from (${storedContents(`j.tenant_id = $1 and j.type = 'backup' and j.application = any($2)`)}) c
                   group by c.application),
     stored as (select l.application, l.files, l.messages, l.list_items, l.pages, coalesce(c.bytes, 0) as bytes
                  from live l left join contents c on c.application = l.application)
     select j.application, count(*)::int as jobs, coalesce(max(c.n), 0)::int as covered,
            coalesce(max(st.files), 0)::int as files, coalesce(max(st.messages), 0)::int as messages,
            coalesce(max(st.list_items), 0)::int as list_items, coalesce(max(st.pages), 0)::int as pages,
            coalesce(max(st.bytes), 0)::bigint as bytes
       from j left join covered c on c.application = j.application left join stored st on st.application = j.application
      group by j.application`,
    [tenantId, applications],
  );
}

/**
 * The runs the overview shows, in one query: each area's newest run (`n` 0) and the tenant's ten
 * newest failed runs of any kind (`n` 1 to 10, newest first).
 */
export function overviewRuns(db: Queryable, tenantId: string, areaTypes: readonly JobType[]) {
  return db.query<RunViewRow & { n: number }>(
    `(select distinct on (j.type) ${RUN_VIEW_COLUMNS}, 0::int as n from job_runs r join jobs j on j.job_id = r.job_id
       where r.tenant_id = $1 and j.type = any($2) order by j.type, coalesce(r.started, r.created_at) desc, r.seq desc)
     union all
     (select ${RUN_VIEW_COLUMNS},
             row_number() over (order by r.finished desc nulls last, r.seq desc)::int as n
        from job_runs r join jobs j on j.job_id = r.job_id
       where r.tenant_id = $1 and r.status = 'failed' order by n limit 10)`,
    [tenantId, areaTypes],
  );
}

/**
 * Every figure of the overview in one query: per area its failed runs since `from`, what it covers
 * and stores; the bytes clean-ups freed since `from` and the tenant's storage price; the
 * organisation's licence and, on a trial, its backup and restore jobs per workload. The overview is
 * read on every visit: one round trip and one plan instead of one per figure; the archived bytes come
 * from the per-source totals the database keeps (migration 18). The backup's stored bytes are its
 * accounts', sites' and teams' stored sizes as their dashboards show them (each content of a source
 * once, however many jobs back it up: see storedContents); per-job totals would count an account
 * twice that two jobs cover.
 */
export function overviewFigures(db: Queryable, tenant: TenantRecord, from: Date, areaTypes: readonly JobType[]) {
  return db.query<{
    failed: Record<string, number>;
    backup_covered: number;
    backup_bytes: number | string;
    backup_kinds: LiveKindsRow | string | null;
    mail_covered: number;
    mail_items: number | string;
    mail_bytes: number | string;
    mail_kinds: MailboxItemTotals | string | null;
    teams_covered: number;
    teams_bytes: number | string;
    saved_bytes: number | string;
    price_per_gb_month: number | string | null;
    currency: string | null;
    license: OverviewDashboard['license']['kind'] | null;
    used: { type: JobType; application: Application; n: number }[] | null;
  }>(
    `select
       (select coalesce(json_object_agg(type, n), '{}') from (select j.type, count(*)::int as n from job_runs r
          join jobs j on j.job_id = r.job_id where r.tenant_id = $1 and j.type = any($3) and r.status = 'failed'
           and coalesce(r.started, r.created_at) >= $2 group by j.type) x) as failed,
       (select count(distinct s)::int from jobs j, jsonb_array_elements_text(j.definition->'sources') s
         where j.tenant_id = $1 and j.type = 'backup') as backup_covered,
       (select coalesce(sum(c.size), 0)::bigint
          from (${storedContents(`j.tenant_id = $1 and j.type = 'backup'`)}) c) as backup_bytes,
       (select row_to_json(k) from (${liveKinds(`j.tenant_id = $1 and j.type = 'backup'`)}) k) as backup_kinds,
       a.mail_covered, a.mail_items, a.mail_bytes, a.teams_covered, a.teams_bytes,
       (select row_to_json(m) from (${MAILBOX_ITEM_TOTALS}) m) as mail_kinds,
       (select coalesce(sum(v.freed_bytes), 0)::bigint from ${FREED_SINCE}) as saved_bytes,
       c.price_per_gb_month, c.currency, o.license,
       case when o.license = 'trial' then
         (select json_agg(x) from (select j.type, j.application, count(*)::int as n from jobs j
            join tenants t on t.tenant_id = j.tenant_id
           where t.organisation_id = $4 and j.type in ('backup', 'restore') group by j.type, j.application) x)
       end as used
     from (select count(distinct source) filter (where kind = 'mail')::int as mail_covered,
                  coalesce(sum(items) filter (where kind = 'mail'), 0)::bigint as mail_items,
                  coalesce(sum(bytes) filter (where kind = 'mail'), 0)::bigint as mail_bytes,
                  count(distinct source) filter (where kind in ('teams', 'chat'))::int as teams_covered,
                  coalesce(sum(bytes) filter (where kind in ('teams', 'chat')), 0)::bigint as teams_bytes
             from archive_usage where tenant_id = $1 and items > 0) a
     left join backup_config c on c.tenant_id = $1
     left join organisations o on o.id = $4`,
    [tenant.tenantId, from, areaTypes, tenant.organisationId],
  );
}
