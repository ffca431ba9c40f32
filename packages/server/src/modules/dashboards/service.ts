/**
 * Backup dashboards of OneDrive, SharePoint and Teams: figures of the last 30 days,
 * computed from the jobs, their runs and the stored backup items.
 *
 * The figures, defined once (the web's `figures` texts say the same):
 * - items protected: the files or messages the store holds for an account, site or team now (live,
 *   not deleted at the source), each once however many jobs back it up;
 * - stored size: the bytes of the distinct contents kept for an account, site or team, every
 *   version included, each content once however many jobs back it up (the store keeps it once);
 *   an area's and the overview's stored size is the sum of their accounts', sites' and teams';
 * - items changed and bytes read are a run's own (runs.ts).
 */
import {
  DASHBOARD_PERIOD_DAYS,
  type DashboardApplication,
  type DashboardBasic,
  type DashboardDetails,
  type DashboardSize,
  type JobStatus,
} from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';
import { jobStatusOf, type RunRow } from '../../jobs/repository.js';

const DAY = 86_400_000;

function period(now: Date, application: DashboardApplication) {
  const to = now;
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  return { application, periodDays: DASHBOARD_PERIOD_DAYS, from: from.toISOString(), to: to.toISOString() };
}

const JOBS = `j.tenant_id = $1 and j.type = 'backup' and j.application = $2`;

/**
 * The distinct contents the backup jobs matching `where` (over `jobs j`) store, per workload,
 * account, site or team: each content (its hash) once, with its size and the day a run first stored
 * it. The stored size of a source is the sum of its contents' sizes, whichever jobs cover it.
 */
export const storedContents = (where: string) => `
  select j.application, b.source_id, b.hash, max(b.size) as size,
         min(to_char(date_trunc('day', coalesce(r.finished, r.started, r.created_at) at time zone 'UTC'), 'YYYY-MM-DD'))
           as day
    from backup_items b join jobs j on j.job_id = b.job_id left join job_runs r on r.seq = b.first_seq
   where ${where} and b.hash is not null
   group by j.application, b.source_id, b.hash`;

/**
 * The figures of the basic view in one query (a dashboard is read often; each query costs a round
 * trip): protected sources (the backup jobs' sources), discovered sources, live items, the newest
 * finished run and the runs of the period by status.
 */
async function basicRow(db: Queryable, tenantId: string, application: DashboardApplication, from: Date) {
  const [row] = await db.query<{
    covered: number;
    discovered: number;
    items: number;
    last: { job_id: string; name: string; finished: string } | null;
    statuses: Record<string, number> | null;
  }>(
    `select
       (select count(distinct s)::int from jobs j, jsonb_array_elements_text(j.definition->'sources') s where ${JOBS}) as covered,
       (select count(*)::int from discovered_sources where tenant_id = $1 and application = $2) as discovered,
       (select count(*)::int from (select distinct b.source_id, b.item_id from backup_items b join jobs j on j.job_id = b.job_id
          where ${JOBS} and b.kind <> 'folder' and b.deleted_seq is null) x) as items,
       (select json_build_object('job_id', r.job_id, 'name', j.name, 'finished', r.finished) from job_runs r
          join jobs j on j.job_id = r.job_id
         where ${JOBS} and r.status = 'finished' order by r.finished desc, r.seq desc limit 1) as last,
       (select json_object_agg(status, n) from (select r.status, count(*)::int as n from job_runs r
          join jobs j on j.job_id = r.job_id where ${JOBS} and coalesce(r.started, r.created_at) >= $3 group by r.status) x) as statuses`,
    [tenantId, application, from],
  );
  return row;
}

export async function basicFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardBasic> {
  const range = period(now, application);
  const row = await basicRow(db, tenantId, application, new Date(range.from));
  return basicOf(range, row);
}

function basicOf(range: ReturnType<typeof period>, row: Awaited<ReturnType<typeof basicRow>>): DashboardBasic {
  const covered = Number(row?.covered ?? 0);
  const jobsByStatus: Record<JobStatus, number> = { finished: 0, running: 0, failed: 0, pending: 0 };
  for (const [status, n] of Object.entries(row?.statuses ?? {}))
    jobsByStatus[jobStatusOf(status as RunRow['status'])] += Number(n);
  const last = row?.last;
  return {
    ...range,
    view: 'basic',
    protectedCount: covered,
    discoveredCount: Math.max(Number(row?.discovered ?? 0), covered),
    items: Number(row?.items ?? 0),
    lastSuccessfulJob: last
      ? { jobId: last.job_id, jobName: last.name, finished: new Date(last.finished).toISOString() }
      : null,
    jobsByStatus,
  };
}

/**
 * Stored size and items protected per day, as they were at each day's end: the contents stored up to
 * that day (each once, see storedContents), and the items backed up by then and not yet deleted at
 * the source by then (each once, whichever jobs hold it).
 */
export async function sizeFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardSize> {
  const range = period(now, application);
  const firstDay = range.from.slice(0, 10);
  const today = now.toISOString().slice(0, 10);
  const [contents, items] = await Promise.all([
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
          group by b.job_id, b.source_id, b.item_id),
       days as (select to_char(g, 'YYYY-MM-DD') as day from generate_series($3::date::timestamp, $4::date::timestamp, interval '1 day') g)
       select days.day, count(distinct (s.source_id, s.item_id))::int as items
         from days join spans s on coalesce(s.since, $5::text) <= days.day and (s.until is null or s.until > days.day)
        group by days.day`,
      [tenantId, application, firstDay, today, firstDay],
    ),
  ]);
  const itemsOn = new Map(items.map((r) => [r.day, Number(r.items)]));
  const bytesOn = new Map<string, number>();
  // What was stored before the period is where its first day starts from.
  let bytes = 0;
  for (const c of contents) {
    if (c.day && c.day >= firstDay) bytesOn.set(c.day, (bytesOn.get(c.day) ?? 0) + Number(c.bytes));
    else bytes += Number(c.bytes);
  }
  const startBytes = bytes;
  const days: string[] = [];
  for (let t = new Date(range.from).getTime(); t <= now.getTime() + 1; t += DAY)
    days.push(new Date(t).toISOString().slice(0, 10));
  if (days.at(-1) !== today) days.push(today);
  const series: DashboardSize['series'] = days.map((day) => {
    bytes += bytesOn.get(day) ?? 0;
    return { date: day, bytes, items: itemsOn.get(day) ?? 0 };
  });
  // Contents a run stored with a clock ahead of today's still count as stored, on today.
  for (const [day, b] of bytesOn) if (day > today) bytes += b;
  const last = series.at(-1);
  if (last) last.bytes = bytes;
  const storedBytes = bytes;
  return { ...range, view: 'size', storedBytes, growthBytes: storedBytes - startBytes, series };
}

/** Per protected account, site or team: items, stored bytes, last backup and its outcome. */
export async function detailFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardDetails> {
  const range = period(now, application);
  // Protected sources with their names, stored items and bytes and newest run, in one query.
  const rows = await db.query<{
    source_id: string;
    display_name: string | null;
    items: number | null;
    bytes: string | null;
    finished: Date | null;
    status: RunRow['status'] | null;
    failed: boolean | null;
  }>(
    `with covered as (
       select distinct s as source_id from jobs j, jsonb_array_elements_text(j.definition->'sources') s where ${JOBS}),
     live as (
       select b.source_id, count(distinct b.item_id) filter (where b.kind <> 'folder' and b.deleted_seq is null)::int as items
         from backup_items b join jobs j on j.job_id = b.job_id where ${JOBS} group by b.source_id),
     contents as (select c.source_id, sum(c.size)::bigint as bytes from (${storedContents(JOBS)}) c group by c.source_id),
     newest as (
       select distinct on (s.source_id) s.source_id, r.finished, r.status, s.failed
         from job_run_sources s join job_runs r on r.run_id = s.run_id join jobs j on j.job_id = r.job_id
        where ${JOBS} order by s.source_id, r.seq desc)
     select c.source_id,
            (select d.display_name from discovered_sources d where d.tenant_id = $1 and d.source_id = c.source_id limit 1)
              as display_name,
            l.items, st.bytes, n.finished, n.status, n.failed
       from covered c left join live l on l.source_id = c.source_id left join contents st on st.source_id = c.source_id
       left join newest n on n.source_id = c.source_id`,
    [tenantId, application],
  );
  const entries = rows.map((r) => ({
    sourceId: r.source_id,
    displayName: r.display_name ?? r.source_id,
    items: Number(r.items ?? 0),
    bytes: Number(r.bytes ?? 0),
    lastBackup: r.finished ? new Date(r.finished).toISOString() : null,
    lastStatus: r.status ? (r.failed ? ('failed' as const) : jobStatusOf(r.status)) : null,
  }));
  entries.sort((a, b) => b.bytes - a.bytes || a.displayName.localeCompare(b.displayName));
  return { ...range, view: 'details', entries };
}

/** The newest backup run that finished without failure, of any workload. */
export async function lastSuccessfulBackup(db: Queryable, tenantId: string) {
  const [last] = await db.query<{ job_id: string; name: string; application: DashboardApplication; finished: Date }>(
    `select r.job_id, j.name, j.application, r.finished from job_runs r join jobs j on j.job_id = r.job_id
      where j.tenant_id = $1 and j.type = 'backup' and r.status = 'finished' and r.items_failed = 0
      order by r.finished desc, r.seq desc limit 1`,
    [tenantId],
  );
  return last
    ? {
        jobId: last.job_id,
        jobName: last.name,
        application: last.application,
        finished: new Date(last.finished).toISOString(),
      }
    : null;
}

/**
 * Per backup workload: protected sources, live items, stored bytes (each content of a source once,
 * see storedContents) and jobs; the three workloads in one query, grouped by workload.
 */
export async function backupStatistics(db: Queryable, tenantId: string) {
  const applications = ['onedrive', 'sharepoint', 'teams'] as const;
  const rows = await db.query<{
    application: DashboardApplication;
    covered: number;
    items: number;
    bytes: number | string;
    jobs: number;
  }>(
    `with j as (select job_id, application, definition from jobs where tenant_id = $1 and type = 'backup' and application = any($2)),
     covered as (select j.application, count(distinct s)::int as n from j, jsonb_array_elements_text(j.definition->'sources') s
                 group by j.application),
     live as (select j.application,
                     count(distinct (b.source_id, b.item_id)) filter (where b.kind <> 'folder' and b.deleted_seq is null)::int as items
                from backup_items b join j on j.job_id = b.job_id group by j.application),
     contents as (select c.application, coalesce(sum(c.size), 0)::bigint as bytes
                    from (${storedContents(`j.tenant_id = $1 and j.type = 'backup' and j.application = any($2)`)}) c
                   group by c.application),
     stored as (select l.application, l.items, coalesce(c.bytes, 0) as bytes
                  from live l left join contents c on c.application = l.application)
     select j.application, count(*)::int as jobs, coalesce(max(c.n), 0)::int as covered,
            coalesce(max(st.items), 0)::int as items, coalesce(max(st.bytes), 0)::bigint as bytes
       from j left join covered c on c.application = j.application left join stored st on st.application = j.application
      group by j.application`,
    [tenantId, applications],
  );
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    perApplication: applications.map((application) => {
      const row = rows.find((r) => r.application === application);
      return {
        application,
        protectedCount: Number(row?.covered ?? 0),
        items: Number(row?.items ?? 0),
        bytes: Number(row?.bytes ?? 0),
        jobs: Number(row?.jobs ?? 0),
      };
    }),
  };
}
