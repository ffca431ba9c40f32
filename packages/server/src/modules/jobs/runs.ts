/** Job runs as the monitor and the reports show them: filtered, sorted and paged in the database. */
import type { Application, JobRun, JobStatus, JobType, RunAccount } from '@compliance-portal/sdk';
import type { Queryable, SqlValue } from '../../db/database.js';
import { jobStatusOf, type RunRow } from '../../jobs/repository.js';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export type RunWithJob = RunRow & { name: string; type: JobType; application: Application };

export function runView(r: RunWithJob): JobRun {
  return {
    reportId: r.run_id,
    jobId: r.job_id,
    jobName: r.name,
    jobType: r.type,
    application: r.application,
    status: jobStatusOf(r.status),
    progress: Number(r.progress),
    started: iso(r.started),
    finished: iso(r.finished),
    itemsProcessed: Number(r.items_done),
    itemsFailed: Number(r.items_failed),
    bytesProcessed: Number(r.bytes),
    ...(r.message ? { message: r.message } : {}),
  };
}

export const RUN_SELECT = `select r.*, j.name, j.type, j.application from job_runs r join jobs j on j.job_id = r.job_id`;

export interface RunFilter {
  types?: readonly JobType[];
  status?: readonly JobStatus[] | JobStatus;
  application?: Application;
  jobId?: string;
  from?: string;
  to?: string;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  page?: number;
  pageSize?: number;
}

/** A job status as the run statuses behind it (pending covers queued and stopped runs). */
function runStatuses(status: JobStatus): string[] {
  return status === 'pending' ? ['queued', 'stopped'] : [status];
}

export async function queryRuns(db: Queryable, tenantId: string, filter: RunFilter) {
  const where = ['r.tenant_id = $1'];
  const params: SqlValue[] = [tenantId];
  const add = (clause: string, value: SqlValue) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  if (filter.types?.length) add('j.type = any(?)', [...filter.types]);
  const statuses = filter.status === undefined ? [] : Array.isArray(filter.status) ? filter.status : [filter.status];
  if (statuses.length)
    add(
      'r.status = any(?)',
      statuses.flatMap((s) => runStatuses(s as JobStatus)),
    );
  if (filter.application) add('j.application = ?', filter.application);
  if (filter.jobId) add('r.job_id = ?', filter.jobId);
  if (filter.from) add('coalesce(r.started, r.created_at) >= ?', new Date(filter.from));
  if (filter.to) add('coalesce(r.started, r.created_at) < ?', new Date(filter.to));
  if (filter.search?.trim()) add('j.name ilike ?', `%${filter.search.trim().replace(/[%_\\]/g, '\\$&')}%`);
  const sortable: Record<string, string> = {
    started: 'r.started',
    finished: 'r.finished',
    jobName: 'j.name',
    status: 'r.status',
    progress: 'r.progress',
  };
  const order = `${sortable[filter.sort ?? 'started'] ?? 'r.started'} ${filter.order === 'asc' ? 'asc' : 'desc'} nulls first, r.seq desc`;
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from job_runs r join jobs j on j.job_id = r.job_id where ${where.join(' and ')}`,
    params,
  );
  const rows = await db.query<RunWithJob>(
    `${RUN_SELECT} where ${where.join(' and ')} order by ${order} limit ${pageSize} offset ${(page - 1) * pageSize}`,
    params,
  );
  return { items: rows.map(runView), total: Number(count?.n ?? 0), page, pageSize };
}

/** The accounts (sources) of a run with their counts and up to 100 error messages each. */
export async function runAccounts(
  db: Queryable,
  run: RunRow,
  filter: { status?: JobStatus; search?: string; page?: number; pageSize?: number },
) {
  const sources = await db.query<{
    source_id: string;
    items: number;
    failed_items: number;
    bytes: number;
    failed: boolean;
  }>('select * from job_run_sources where run_id = $1 order by source_id', [run.run_id]);
  const errors = await db.query<{ source_id: string | null; item_name: string; message: string }>(
    'select source_id, item_name, message from job_run_errors where run_id = $1 order by id',
    [run.run_id],
  );
  const runStatus = jobStatusOf(run.status);
  const accounts: RunAccount[] = sources.map((s) => ({
    accountId: s.source_id,
    displayName: s.source_id,
    status: s.failed ? 'failed' : runStatus,
    items: Number(s.items),
    failedItems: Number(s.failed_items),
    bytes: Number(s.bytes),
    errors: errors
      .filter((e) => e.source_id === s.source_id)
      .slice(0, 100)
      .map((e) => `${e.item_name}: ${e.message}`),
  }));
  const search = filter.search?.trim().toLowerCase();
  const matching = accounts.filter(
    (a) => (!filter.status || a.status === filter.status) && (!search || a.accountId.toLowerCase().includes(search)),
  );
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  return { items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageSize };
}
