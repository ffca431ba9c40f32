/**
 * The SQL of the run views (runs.ts): runs with their jobs' names, filtered, sorted and paged in the
 * database; a run's accounts with their first errors; a clean-up run's inventory; a deletion run's held
 * items.
 */
import type { Application, JobStatus, JobType } from '@compliance-portal/sdk';
import type { Queryable, SqlValue } from '../../db/database.js';
import { ownValue } from '../../http/list-query.js';
import type { RunRow } from '../../jobs/repository.js';

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
  'created_at',
  'items_total',
  'warnings',
  'error_code',
  'error_status',
  'throttled_since',
  'throttle_next_try',
  'throttle_status',
  'throttle_retries',
  'throttled_ms',
  'list_items_done',
  'pages_done',
  'mailbox_items',
] as const;
const JOB_FIELDS = ['name', 'type', 'application'] as const;

export type RunViewRow = Pick<RunWithJob, (typeof RUN_FIELDS)[number] | (typeof JOB_FIELDS)[number]> & {
  /** The run's accounts, and of them those that failed as a whole (withAccounts). */
  accounts_total?: number;
  accounts_failed?: number;
  /** Read by the run lists (RUN_VIEW_COLUMNS); a row built otherwise offers no retry or download. */
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
  'r.retry_of',
  DOWNLOAD_SIZE,
].join(', ');

/**
 * The rows with their runs' accounts counted, in one statement for the rows only (a page), not per
 * row of every run the list sorts.
 */
export async function withAccounts<T extends RunViewRow>(db: Queryable, rows: T[]): Promise<T[]> {
  if (rows.length === 0) return rows;
  const counts = await db.query<{ run_id: string; total: number; failed: number }>(
    `select run_id, count(*)::int as total, count(*) filter (where failed)::int as failed
       from job_run_sources where run_id = any($1) group by run_id`,
    [rows.map((r) => r.run_id)],
  );
  const byRun = new Map(counts.map((c) => [c.run_id, c]));
  for (const row of rows) {
    row.accounts_total = Number(byRun.get(row.run_id)?.total ?? 0);
    row.accounts_failed = Number(byRun.get(row.run_id)?.failed ?? 0);
  }
  return rows;
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
export async function pageRuns<T extends RunViewRow>(
  db: Queryable,
  tenantId: string,
  filter: RunFilter,
  extra: string,
) {
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

/** One page of the runs that ended (the reports), each with its accounts counted, and the count of all that match. */
export function pageReports(db: Queryable, tenantId: string, filter: RunFilter) {
  // Each report's accounts counted with its page (on the run's key), not in a query of their own.
  return pageRuns<RunViewRow & { accounts: number }>(
    db,
    tenantId,
    { ...filter, ended: true },
    ', (select count(*)::int from job_run_sources s where s.run_id = r.run_id) as accounts',
  );
}

/** An account of a run as its report lists it. */
export interface RunSourceRow {
  source_id: string;
  display_name: string | null;
  items: number;
  failed_items: number;
  bytes: number;
  failed: boolean;
}

/**
 * One page of a run's accounts (keyset paging after the account `after`, else by page number) and
 * the count of all that match. `runStatus` is the run's own status: an account matches `status`
 * failed when it failed or the whole run did, another status when it is the run's and the account
 * did not fail.
 */
export async function runSourcesPage(
  db: Queryable,
  run: RunRow,
  runStatus: JobStatus,
  filter: {
    status?: JobStatus;
    search?: string;
    sort?: string;
    order?: 'asc' | 'desc';
    page: number;
    pageSize: number;
    after?: string;
  },
): Promise<{ sources: RunSourceRow[]; total: number }> {
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
  const { page, pageSize } = filter;
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
  const sources = JSON.parse(json?.rows ?? '[]') as RunSourceRow[];
  return { sources, total: Number(count?.n ?? 0) };
}

export interface ErrorRow {
  source_id: string | null;
  item_name: string;
  message: string;
  code: string;
  status: number | null;
}

/** The errors of a run's accounts among `sourceIds`, at most 100 per account, in the order recorded. */
export function firstErrorsOf(db: Queryable, runId: string, sourceIds: readonly string[]): Promise<ErrorRow[]> {
  return db.query<ErrorRow>(
    // At most 100 per account, cut in the database: a page of thousands of accounts stays bounded.
    `select source_id, item_name, message, code, status from (
       select source_id, item_name, message, code, status, id,
              row_number() over (partition by source_id order by id) as n
         from job_run_errors where run_id = $1 and source_id = any($2)) e
      where n <= 100 order by id`,
    [runId, [...sourceIds]],
  );
}

/**
 * A clean-up run's inventory per site or account (files looked at, versions removed, bytes freed),
 * the accounts that failed, and every error it recorded in order.
 */
export async function cleanupRunRows(db: Queryable, run: RunRow) {
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
  const errors = await db.query<ErrorRow>(
    'select source_id, item_name, message, code, status from job_run_errors where run_id = $1 order by id',
    [run.run_id],
  );
  return { rows, failed, errors };
}

/** Each of `sources` with the name its run or (else) discovery knows it by; null when neither does. */
export async function runSourceNames(db: Queryable, run: RunRow, sources: Iterable<string>) {
  const named = await db.query<{ source_id: string; display_name: string | null }>(
    `select x.source_id, coalesce(s.display_name,
            (select d.display_name from discovered_sources d where d.tenant_id = $3 and d.source_id = x.source_id limit 1)) as display_name
       from unnest($2::text[]) as x(source_id)
       left join job_run_sources s on s.run_id = $1 and s.source_id = x.source_id`,
    [run.run_id, [...sources], run.tenant_id],
  );
  return named;
}

/** An item a deletion run kept on legal hold, as it recorded it; the subject only where readable. */
export interface HeldItemRow {
  item_id: string;
  kind: 'mail' | 'teams' | 'chat';
  source: string;
  source_name: string;
  subject: string | null;
  sent_at: Date | null;
  case_id: string;
  case_name: string;
}

/**
 * One page of the items a deletion run kept on legal hold, searched and sorted, and the count of all
 * that match. A subject is read where `readable` names its mailbox or chat (every team's channels),
 * else it is null and neither searched nor sorted on.
 */
export function heldItemsPage(
  db: Queryable,
  run: RunRow,
  readable: { mailboxes: readonly string[]; chats: readonly string[] },
  filter: { search?: string; sort?: string; order?: 'asc' | 'desc'; page: number; pageSize: number },
): Promise<{ rows: HeldItemRow[]; total: number }> {
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
  const { page, pageSize } = filter;
  const from = `from (
       select r.item_id::text, r.kind, r.source, r.source_name, r.sent_at, r.case_id, r.case_name,
              case when r.kind = 'teams' or (r.kind = 'mail' and r.source = any($2::text[]))
                     or (r.kind = 'chat' and r.source = any($3::text[])) then r.subject end as subject
         from run_held_items r where r.run_id = $1) x
      ${where.length ? `where ${where.join(' and ')}` : ''}`;
  return countedPage<HeldItemRow>(db, { columns: 'x.*', from, order, params, page, pageSize });
}
