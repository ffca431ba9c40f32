/**
 * Backup dashboards of OneDrive, SharePoint and Teams: figures of the last 30 days,
 * computed from the jobs, their runs and the stored backup items.
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
import { protectedSources, sourceNames } from '../discovery/service.js';

const DAY = 86_400_000;

function period(now: Date, application: DashboardApplication) {
  const to = now;
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  return { application, periodDays: DASHBOARD_PERIOD_DAYS, from: from.toISOString(), to: to.toISOString() };
}

const JOBS = `j.tenant_id = $1 and j.type = 'backup' and j.application = $2`;

export async function basicFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardBasic> {
  const range = period(now, application);
  const covered = await protectedSources(db, tenantId, application);
  const [discovered] = await db.query<{ n: number }>(
    'select count(*)::int as n from discovered_sources where tenant_id = $1 and application = $2',
    [tenantId, application],
  );
  const [items] = await db.query<{ n: number }>(
    `select count(*)::int as n from (select distinct b.source_id, b.item_id from backup_items b join jobs j on j.job_id = b.job_id
      where ${JOBS} and b.kind <> 'folder' and b.deleted_seq is null) x`,
    [tenantId, application],
  );
  const [last] = await db.query<{ job_id: string; name: string; finished: Date }>(
    `select r.job_id, j.name, r.finished from job_runs r join jobs j on j.job_id = r.job_id
      where ${JOBS} and r.status = 'finished' order by r.finished desc, r.seq desc limit 1`,
    [tenantId, application],
  );
  const statuses = await db.query<{ status: RunRow['status']; n: number }>(
    `select r.status, count(*)::int as n from job_runs r join jobs j on j.job_id = r.job_id
      where ${JOBS} and coalesce(r.started, r.created_at) >= $3 group by r.status`,
    [tenantId, application, new Date(range.from)],
  );
  const jobsByStatus: Record<JobStatus, number> = { finished: 0, running: 0, failed: 0, pending: 0 };
  for (const s of statuses) jobsByStatus[jobStatusOf(s.status)] += Number(s.n);
  return {
    ...range,
    view: 'basic',
    protectedCount: covered.size,
    discoveredCount: Math.max(Number(discovered?.n ?? 0), covered.size),
    items: Number(items?.n ?? 0),
    lastSuccessfulJob: last
      ? { jobId: last.job_id, jobName: last.name, finished: new Date(last.finished).toISOString() }
      : null,
    jobsByStatus,
  };
}

/** Stored bytes and items per day: what the runs up to that day had stored. */
export async function sizeFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardSize> {
  const range = period(now, application);
  const rows = await db.query<{ day: string | null; bytes: string; items: number }>(
    `select to_char(date_trunc('day', coalesce(r.finished, r.started, r.created_at) at time zone 'UTC'), 'YYYY-MM-DD') as day,
            sum(b.size)::bigint as bytes, count(*) filter (where b.kind <> 'folder')::int as items
       from backup_items b join jobs j on j.job_id = b.job_id left join job_runs r on r.seq = b.first_seq
      where ${JOBS} group by 1 order by 1`,
    [tenantId, application],
  );
  const firstDay = range.from.slice(0, 10);
  let bytes = 0;
  let items = 0;
  const byDay = new Map<string, { bytes: number; items: number }>();
  for (const r of rows) byDay.set(r.day ?? firstDay, { bytes: Number(r.bytes), items: Number(r.items) });
  // What was stored before the period counts into its first day.
  for (const [day, v] of byDay)
    if (day < firstDay) {
      bytes += v.bytes;
      items += v.items;
    }
  const startBytes = bytes;
  const series: DashboardSize['series'] = [];
  for (let t = new Date(range.from).getTime(); t <= now.getTime() + 1; t += DAY) {
    const day = new Date(t).toISOString().slice(0, 10);
    const v = byDay.get(day);
    if (v) {
      bytes += v.bytes;
      items += v.items;
    }
    series.push({ date: day, bytes, items });
  }
  const today = now.toISOString().slice(0, 10);
  if (series.at(-1)?.date !== today) {
    const v = byDay.get(today);
    series.push({ date: today, bytes: bytes + (v?.bytes ?? 0), items: items + (v?.items ?? 0) });
  }
  const storedBytes = series.at(-1)?.bytes ?? 0;
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
  const covered = [...(await protectedSources(db, tenantId, application))];
  const stored = await db.query<{ source_id: string; items: number; bytes: string }>(
    `select b.source_id, count(distinct b.item_id) filter (where b.kind <> 'folder' and b.deleted_seq is null)::int as items,
            sum(b.size)::bigint as bytes
       from backup_items b join jobs j on j.job_id = b.job_id where ${JOBS} group by b.source_id`,
    [tenantId, application],
  );
  const runs = await db.query<{ source_id: string; finished: Date | null; status: RunRow['status']; failed: boolean }>(
    `select distinct on (s.source_id) s.source_id, r.finished, r.status, s.failed
       from job_run_sources s join job_runs r on r.run_id = s.run_id join jobs j on j.job_id = r.job_id
      where ${JOBS} order by s.source_id, r.seq desc`,
    [tenantId, application],
  );
  const name = await sourceNames(db, tenantId, covered);
  const entries = covered.map((sourceId) => {
    const s = stored.find((x) => x.source_id === sourceId);
    const r = runs.find((x) => x.source_id === sourceId);
    return {
      sourceId,
      displayName: name(sourceId),
      items: Number(s?.items ?? 0),
      bytes: Number(s?.bytes ?? 0),
      lastBackup: r?.finished ? new Date(r.finished).toISOString() : null,
      lastStatus: r ? (r.failed ? ('failed' as const) : jobStatusOf(r.status)) : null,
    };
  });
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

/** Per backup workload: protected sources, items, stored bytes and jobs. */
export async function backupStatistics(db: Queryable, tenantId: string, now: Date) {
  const perApplication = [];
  for (const application of ['onedrive', 'sharepoint', 'teams'] as const) {
    const basic = await basicFigures(db, tenantId, application, now);
    const [row] = await db.query<{ bytes: string; jobs: number }>(
      `select coalesce((select sum(b.size) from backup_items b join jobs j on j.job_id = b.job_id where ${JOBS}), 0)::bigint as bytes,
              (select count(*)::int from jobs j where ${JOBS}) as jobs`,
      [tenantId, application],
    );
    perApplication.push({
      application,
      protectedCount: basic.protectedCount,
      items: basic.items,
      bytes: Number(row?.bytes ?? 0),
      jobs: Number(row?.jobs ?? 0),
    });
  }
  return { periodDays: DASHBOARD_PERIOD_DAYS, perApplication };
}
