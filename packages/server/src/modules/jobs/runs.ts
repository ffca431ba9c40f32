/** Job runs as the monitor and the reports show them: filtered, sorted and paged in the database. */
import type { Application, HeldItem, JobRun, JobStatus, JobType, Page, RunAccount } from '@compliance-portal/sdk';
import type { Queryable, SqlValue } from '../../db/database.js';
import { ownValue } from '../../http/list-query.js';
import { jobStatusOf, nameRunSources, type RunRow } from '../../jobs/repository.js';
import { isRetryable } from '../../jobs/retry.js';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

type RunWithJob = RunRow & { name: string; type: JobType; application: Application };

/** What a run shows (runView): a run's own figures with its job's name, type and workload. */
const RUN_FIELDS = [
  'run_id',
  'job_id',
  'status',
  'progress',
  'started',
  'finished',
  'items_done',
  'items_failed',
  'bytes',
  'message',
] as const;
const JOB_FIELDS = ['name', 'type', 'application'] as const;

export type RunViewRow = Pick<RunWithJob, (typeof RUN_FIELDS)[number] | (typeof JOB_FIELDS)[number]> & {
  /** Read by the run lists (RUN_VIEW_COLUMNS); a row built otherwise offers no retry or download. */
  warnings?: number;
  retry_of?: string | null;
  download_size?: number | string | null;
};

/**
 * The size of the ZIP a restore as a download prepared, for the job's latest finished run: the one its
 * download (`legacy.jobs.downloadRestoreArchive`) serves. The checkpoint (large for a backup) is read
 * only for a finished restore's run (the outer case), and the later runs looked up only for one that
 * names an archive, so the lists' other rows cost nothing more.
 */
const DOWNLOAD_SIZE = `case when j.type = 'restore' and r.status = 'finished' then
    case when r.checkpoint->>'archive' is not null
          and not exists (select 1 from job_runs n where n.job_id = r.job_id and n.status = 'finished' and n.seq > r.seq)
         then (r.checkpoint->>'size')::bigint end end as download_size`;

/**
 * The columns of RunViewRow, of `job_runs r` joined with `jobs j`. Run lists select these rather than
 * `r.*`: the rows they sort, window and send are narrower (no checkpoint, worker or queue columns).
 */
export const RUN_VIEW_COLUMNS = [
  ...RUN_FIELDS.map((f) => `r.${f}`),
  ...JOB_FIELDS.map((f) => `j.${f}`),
  'r.warnings',
  'r.retry_of',
  DOWNLOAD_SIZE,
].join(', ');

export function runView(r: RunViewRow): JobRun {
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
    ...(r.warnings !== undefined ? { retryable: isRetryable({ ...r, warnings: r.warnings }) } : {}),
    ...(r.retry_of ? { retryOf: r.retry_of } : {}),
    ...(r.download_size !== undefined && r.download_size !== null
      ? { download: { size: Number(r.download_size) } }
      : {}),
  };
}

export const RUN_SELECT = `select ${RUN_VIEW_COLUMNS} from job_runs r join jobs j on j.job_id = r.job_id`;

export interface RunFilter {
  /** Only runs that ended (finished, failed or stopped): the runs that have a report. */
  ended?: boolean;
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
  const { rows, total, page, pageSize } = await pageRuns(db, tenantId, filter, '');
  return { items: rows.map(runView), total, page, pageSize };
}

/**
 * One page of `select <columns> <from>` in `order`, and the count of all rows `from` has: in one
 * statement (the count is computed over the rows the page is sorted from anyway); a page past the end
 * has no row to carry it and counts apart.
 */
async function countedPage<T>(
  db: Queryable,
  query: { columns: string; from: string; order: string; params: SqlValue[]; page: number; pageSize: number },
): Promise<{ rows: T[]; total: number }> {
  const { columns, from, order, params, page, pageSize } = query;
  const rows = await db.query<T & { matching?: number }>(
    `select ${columns}, count(*) over ()::int as matching ${from}
      order by ${order} limit ${pageSize} offset ${(page - 1) * pageSize}`,
    params,
  );
  let total = rows[0]?.matching;
  if (total === undefined) {
    const [count] = await db.query<{ n: number }>(`select count(*)::int as n ${from}`, params);
    total = count?.n ?? 0;
  }
  for (const row of rows) delete row.matching;
  return { rows, total: Number(total) };
}

/** One page of runs and the count of all that match; `extra` adds columns to the page's rows. */
async function pageRuns<T extends RunViewRow>(db: Queryable, tenantId: string, filter: RunFilter, extra: string) {
  const where = ['r.tenant_id = $1'];
  const params: SqlValue[] = [tenantId];
  const add = (clause: string, value: SqlValue) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  if (filter.ended) where.push(`r.status in ('finished', 'failed', 'stopped')`);
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
  const order = `${ownValue(sortable, filter.sort, 'r.started')} ${filter.order === 'asc' ? 'asc' : 'desc'} nulls first, r.seq desc`;
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  const from = `from job_runs r join jobs j on j.job_id = r.job_id where ${where.join(' and ')}`;
  const { rows, total } = await countedPage<T>(db, {
    columns: `${RUN_VIEW_COLUMNS}${extra}`,
    from,
    order,
    params,
    page,
    pageSize,
  });
  return { rows, total, page, pageSize };
}

/** The accounts (sources) of a run with their counts and up to 100 error messages each, paged in SQL. */
export async function runAccounts(
  db: Queryable,
  run: RunRow,
  filter: {
    status?: JobStatus;
    search?: string;
    sort?: string;
    order?: 'asc' | 'desc';
    page?: number;
    pageSize?: number;
    /** Keyset paging: the rows after this account in the chosen order. */
    after?: string;
  },
) {
  const runStatus = jobStatusOf(run.status);
  await nameRunSources(db, run);
  const params: SqlValue[] = [run.run_id];
  const where = ['s.run_id = $1'];
  if (filter.status === 'failed') where.push(runStatus === 'failed' ? 'true' : 's.failed');
  else if (filter.status) where.push(filter.status === runStatus ? 'not s.failed' : 'false');
  if (filter.search?.trim()) {
    params.push(
      `%${filter.search
        .trim()
        .toLowerCase()
        .replace(/[%_\\]/g, '\\$&')}%`,
    );
    where.push(`(lower(s.display_name) like $${params.length} or lower(s.source_id) like $${params.length})`);
  }
  const sortable: Record<string, string> = {
    accountId: 's.source_id',
    displayName: 'lower(s.display_name)',
    items: 's.items',
    failedItems: 's.failed_items',
    bytes: 's.bytes',
    status: 's.failed',
  };
  const direction = filter.order === 'desc' ? 'desc' : 'asc';
  const key = ownValue(sortable, filter.sort, 's.source_id');
  const order = `${key} ${direction}, s.source_id ${direction}`;
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from job_run_sources s where ${where.join(' and ')}`,
    params,
  );
  // Keyset paging: an export of 100,000 accounts reads each page from the index instead of skipping
  // ever more rows (the order's key of the row named by `after`, then the rows beyond it).
  let offset = (page - 1) * pageSize;
  if (filter.after !== undefined) {
    params.push(filter.after);
    const at = `$${params.length}`;
    where.push(
      `(${key}, s.source_id) ${direction === 'asc' ? '>' : '<'}
       (select ${key}, s.source_id from job_run_sources s where s.run_id = $1 and s.source_id = ${at})`,
    );
    offset = 0;
  }
  // The page comes as one JSON text built in the database: thousands of rows (an export's pages) cost
  // a fraction of the time the embedded database takes to hand them over row by row.
  const [json] = await db.query<{ rows: string }>(
    `select coalesce(json_agg(json_build_object('source_id', s.source_id, 'display_name', s.display_name,
              'items', s.items, 'failed_items', s.failed_items, 'bytes', s.bytes, 'failed', s.failed) order by ${order}), '[]')::text as rows
       from (select s.* from job_run_sources s where ${where.join(' and ')}
              order by ${order} limit ${pageSize} offset ${offset}) s`,
    params,
  );
  const sources = JSON.parse(json?.rows ?? '[]') as {
    source_id: string;
    display_name: string | null;
    items: number;
    failed_items: number;
    bytes: number;
    failed: boolean;
  }[];
  const errors = sources.length
    ? await db.query<{ source_id: string | null; item_name: string; message: string }>(
        // At most 100 per account, cut in the database: a page of thousands of accounts stays bounded.
        `select source_id, item_name, message from (
           select source_id, item_name, message, id, row_number() over (partition by source_id order by id) as n
             from job_run_errors where run_id = $1 and source_id = any($2)) e
          where n <= 100 order by id`,
        [run.run_id, sources.map((x) => x.source_id)],
      )
    : [];
  // Each account's errors by one lookup, not a scan of the page's errors per account.
  const errorsOf = new Map<string | null, string[]>();
  for (const e of errors) {
    const messages = errorsOf.get(e.source_id) ?? [];
    messages.push(`${e.item_name}: ${e.message}`);
    errorsOf.set(e.source_id, messages);
  }
  const items: RunAccount[] = sources.map((x) => ({
    accountId: x.source_id,
    displayName: x.display_name ?? x.source_id,
    status: x.failed ? 'failed' : runStatus,
    items: Number(x.items),
    failedItems: Number(x.failed_items),
    bytes: Number(x.bytes),
    errors: errorsOf.get(x.source_id) ?? [],
  }));
  return { items, total: Number(count?.n ?? 0), page, pageSize };
}

/** A report's title: the job and when its run started; exports use it as file and sheet name. */
function reportTitle(run: JobRun): string {
  const at = run.started ? run.started.slice(0, 16).replace('T', ' ') : 'not started';
  return `${run.jobName} ${at}`;
}

/** Reports of ended runs, with their totals. */
export async function queryReports(db: Queryable, tenantId: string, filter: RunFilter) {
  // Each report's accounts counted with its page (on the run's key), not in a query of their own.
  const { rows, ...runs } = await pageRuns<RunViewRow & { accounts: number }>(
    db,
    tenantId,
    { ...filter, ended: true },
    ', (select count(*)::int from job_run_sources s where s.run_id = r.run_id) as accounts',
  );
  const accounts = new Map(rows.map((c) => [c.run_id, Number(c.accounts)]));
  return {
    ...runs,
    items: rows.map(runView).map((r) => ({
      reportId: r.reportId,
      title: reportTitle(r),
      jobId: r.jobId,
      jobName: r.jobName,
      jobType: r.jobType,
      application: r.application ?? 'onedrive',
      status: r.status,
      started: r.started,
      finished: r.finished,
      totals: {
        accounts: accounts.get(r.reportId) ?? 0,
        items: r.itemsProcessed,
        bytes: r.bytesProcessed,
        failures: r.itemsFailed,
      },
    })),
  };
}

/** A clean-up report per site or account: files looked at, versions removed, bytes freed, errors. */
export async function dataManagementAccounts(
  db: Queryable,
  run: RunRow,
  filter: { status?: JobStatus; search?: string; page?: number; pageSize?: number },
) {
  const rows = await db.query<{ source_id: string; files: number; removed: number; freed: string }>(
    `select source_id, count(*)::int as files, coalesce(sum(deleted), 0)::int as removed,
            coalesce(sum(freed_bytes), 0)::bigint as freed
       from version_inventory where run_id = $1 group by source_id order by source_id`,
    [run.run_id],
  );
  const failed = new Set(
    (
      await db.query<{ source_id: string }>('select source_id from job_run_sources where run_id = $1 and failed', [
        run.run_id,
      ])
    ).map((r) => r.source_id),
  );
  const errors = await db.query<{ source_id: string | null; item_name: string; message: string }>(
    'select source_id, item_name, message from job_run_errors where run_id = $1 order by id',
    [run.run_id],
  );
  const sources = new Set([...rows.map((r) => r.source_id), ...failed]);
  const runStatus = jobStatusOf(run.status);
  const all = [...sources].sort().map((sourceId) => {
    const row = rows.find((r) => r.source_id === sourceId);
    return {
      accountId: sourceId,
      displayName: sourceId,
      status: failed.has(sourceId) ? ('failed' as const) : runStatus,
      files: Number(row?.files ?? 0),
      versionsRemoved: Number(row?.removed ?? 0),
      bytesFreed: Number(row?.freed ?? 0),
      errors: errors
        .filter((e) => e.source_id === sourceId)
        .slice(0, 100)
        .map((e) => `${e.item_name}: ${e.message}`),
    };
  });
  const search = filter.search?.trim().toLowerCase();
  const matching = all.filter(
    (a) => (!filter.status || a.status === filter.status) && (!search || a.accountId.toLowerCase().includes(search)),
  );
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  return { items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageSize };
}

/**
 * The items a deletion run kept because cases held them, as recorded when it ran, paged, sorted and
 * searched in SQL. A subject is shown where `readable` says the reader may read the item (mail of its
 * mailboxes, chats of their accounts, every team's channels), as eDiscovery shows it; elsewhere it is
 * null, and neither searched nor sorted on.
 */
export async function runHeldItems(
  db: Queryable,
  run: RunRow,
  readable: { mailboxes: readonly string[]; chats: readonly string[] },
  filter: { search?: string; sort?: string; order?: 'asc' | 'desc'; page?: number; pageSize?: number },
): Promise<Page<HeldItem>> {
  const params: SqlValue[] = [run.run_id, [...readable.mailboxes], [...readable.chats]];
  const where: string[] = [];
  if (filter.search?.trim()) {
    params.push(
      `%${filter.search
        .trim()
        .toLowerCase()
        .replace(/[%_\\]/g, '\\$&')}%`,
    );
    const n = `$${params.length}`;
    where.push(
      `(lower(coalesce(x.subject, '')) like ${n} or lower(x.source_name) like ${n} or lower(x.case_name) like ${n})`,
    );
  }
  const sortable: Record<string, string> = {
    sentAt: 'x.sent_at',
    subject: 'lower(x.subject)',
    sourceName: 'lower(x.source_name)',
    caseName: 'lower(x.case_name)',
  };
  const direction = filter.order === 'asc' ? 'asc' : 'desc';
  const order = `${ownValue(sortable, filter.sort, 'x.sent_at')} ${direction} nulls last, x.item_id, x.case_id`;
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  const from = `from (
       select r.item_id::text, r.kind, r.source, r.source_name, r.sent_at, r.case_id, r.case_name,
              case when r.kind = 'teams' or (r.kind = 'mail' and r.source = any($2::text[]))
                     or (r.kind = 'chat' and r.source = any($3::text[])) then r.subject end as subject
         from run_held_items r where r.run_id = $1) x
      ${where.length ? `where ${where.join(' and ')}` : ''}`;
  const { rows, total } = await countedPage<{
    item_id: string;
    kind: 'mail' | 'teams' | 'chat';
    source: string;
    source_name: string;
    subject: string | null;
    sent_at: Date | null;
    case_id: string;
    case_name: string;
  }>(db, { columns: 'x.*', from, order, params, page, pageSize });
  const items: HeldItem[] = rows.map((r) => ({
    itemId: r.item_id,
    kind: r.kind === 'chat' ? 'teams' : r.kind,
    ...(r.kind === 'chat' ? { chat: true } : {}),
    source: r.source,
    sourceName: r.source_name,
    subject: r.subject,
    sentAt: iso(r.sent_at),
    caseId: r.case_id,
    caseName: r.case_name,
  }));
  return { items, total, page, pageSize };
}
