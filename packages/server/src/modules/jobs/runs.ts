/** Job runs as the monitor and the reports show them: filtered, sorted and paged in the database. */
import type {
  Application,
  HeldItem,
  JobRun,
  JobStatus,
  JobType,
  Page,
  RunAccount,
  RunItemFailure,
} from '@compliance-portal/sdk';
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

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/** Per second of `duration`, to two significant decimals; null when the run has not started. */
const perSecond = (amount: number, duration: number | null) =>
  duration === null ? null : Math.round((100 * amount) / Math.max(1, duration)) / 100;

/**
 * A run as every screen shows it: the same figures in the monitor, the job lists, the overview and
 * the legacy API. `now` ends a running run's duration.
 */
export function runView(r: RunViewRow, now: Date = new Date()): JobRun {
  const started = r.started ? new Date(r.started).getTime() : null;
  const end = r.finished ? new Date(r.finished).getTime() : r.status === 'running' ? now.getTime() : null;
  const duration = started !== null && end !== null ? seconds(end - started) : null;
  const accountsTotal = r.accounts_total === undefined ? undefined : Number(r.accounts_total);
  const retries = Number(r.throttle_retries ?? 0);
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
    state: r.status,
    queuedAt: new Date(r.created_at).toISOString(),
    durationSeconds: duration,
    itemsFound: Number(r.items_total ?? 0),
    itemsPerSecond: perSecond(Number(r.items_done), duration),
    bytesPerSecond: perSecond(Number(r.bytes), duration),
    ...(accountsTotal === undefined
      ? {}
      : {
          accountsTotal,
          // Every account of a failed run shows as failed in its report (runAccounts): counted the same here.
          accountsFailed: r.status === 'failed' ? accountsTotal : Number(r.accounts_failed ?? 0),
        }),
    warnings: Number(r.warnings ?? 0),
    ...(r.status === 'failed'
      ? {
          failure: {
            reason: r.message ?? 'The run failed.',
            ...(r.error_code ? { code: r.error_code } : {}),
            ...(r.error_status !== null && r.error_status !== undefined ? { status: Number(r.error_status) } : {}),
          },
        }
      : {}),
    ...(retries > 0 || r.throttled_since
      ? {
          throttling: {
            waiting: r.throttled_since !== null && (r.status === 'running' || r.status === 'queued'),
            since: iso(r.throttled_since),
            nextTryAt: iso(r.throttle_next_try),
            status: Number(r.throttle_status ?? 0),
            retries,
            waitedSeconds: seconds(Number(r.throttled_ms ?? 0)),
          },
        }
      : {}),
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
  return { items: (await withAccounts(db, rows)).map((r) => runView(r)), total, page, pageSize };
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
    ? await db.query<ErrorRow>(
        // At most 100 per account, cut in the database: a page of thousands of accounts stays bounded.
        `select source_id, item_name, message, code, status from (
           select source_id, item_name, message, code, status, id,
                  row_number() over (partition by source_id order by id) as n
             from job_run_errors where run_id = $1 and source_id = any($2)) e
          where n <= 100 order by id`,
        [run.run_id, sources.map((x) => x.source_id)],
      )
    : [];
  const names = new Map(sources.map((x) => [x.source_id, x.display_name ?? x.source_id]));
  // Each account's failures by one lookup, not a scan of the page's errors per account.
  const failuresOf = new Map<string | null, RunItemFailure[]>();
  for (const e of errors) {
    const failures = failuresOf.get(e.source_id) ?? [];
    failures.push(itemFailure(e, e.source_id === null ? undefined : names.get(e.source_id)));
    failuresOf.set(e.source_id, failures);
  }
  // An account of a failed run without a failure of its own failed with the run: the run's reason.
  const runFailure = (name: string): RunItemFailure[] =>
    runStatus === 'failed'
      ? [
          {
            item: name,
            reason: run.message ?? 'The run failed.',
            ...(run.error_code ? { code: run.error_code } : {}),
            ...(run.error_status !== null && run.error_status !== undefined
              ? { status: Number(run.error_status) }
              : {}),
            wholeAccount: true,
          },
        ]
      : [];
  const items: RunAccount[] = sources.map((x) => {
    const displayName = x.display_name ?? x.source_id;
    const failures = failuresOf.get(x.source_id) ?? runFailure(displayName);
    return {
      accountId: x.source_id,
      displayName,
      status: x.failed ? 'failed' : runStatus,
      items: Number(x.items),
      failedItems: Number(x.failed_items),
      bytes: Number(x.bytes),
      errors: failures.map((f) => `${f.item}: ${f.reason}`),
      failures,
    };
  });
  return { items, total: Number(count?.n ?? 0), page, pageSize };
}

interface ErrorRow {
  source_id: string | null;
  item_name: string;
  message: string;
  code: string;
  status: number | null;
}

/**
 * A failed item as the report names it: an account that could not be read at all by the account's
 * name (its item was recorded under the account's id), an item by its own name without the id of
 * its account in front (as runs before migration 30 recorded channels, chats and files).
 */
function itemFailure(e: ErrorRow, accountName: string | undefined): RunItemFailure {
  const wholeAccount = e.source_id !== null && e.item_name === e.source_id;
  let item = e.item_name;
  if (wholeAccount) item = accountName ?? e.item_name;
  else if (e.source_id && item.startsWith(`${e.source_id}: `)) item = item.slice(e.source_id.length + 2);
  else if (e.source_id && item.startsWith(`${e.source_id} `)) item = item.slice(e.source_id.length + 1);
  return {
    item,
    reason: e.message,
    ...(e.code ? { code: e.code } : {}),
    ...(e.status !== null && e.status !== undefined ? { status: Number(e.status) } : {}),
    ...(wholeAccount ? { wholeAccount: true } : {}),
  };
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
    items: rows
      .map((r) => runView(r))
      .map((r) => ({
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
  const errors = await db.query<ErrorRow>(
    'select source_id, item_name, message, code, status from job_run_errors where run_id = $1 order by id',
    [run.run_id],
  );
  const sources = new Set([...rows.map((r) => r.source_id), ...failed]);
  // Sites and OneDrives by the names discovery knows them by, never by their ids.
  await nameRunSources(db, run);
  const named = await db.query<{ source_id: string; display_name: string | null }>(
    `select x.source_id, coalesce(s.display_name,
            (select d.display_name from discovered_sources d where d.tenant_id = $3 and d.source_id = x.source_id limit 1)) as display_name
       from unnest($2::text[]) as x(source_id)
       left join job_run_sources s on s.run_id = $1 and s.source_id = x.source_id`,
    [run.run_id, [...sources], run.tenant_id],
  );
  const names = new Map(named.map((n) => [n.source_id, n.display_name ?? n.source_id]));
  const runStatus = jobStatusOf(run.status);
  const all = [...sources].sort().map((sourceId) => {
    const row = rows.find((r) => r.source_id === sourceId);
    const displayName = names.get(sourceId) ?? sourceId;
    return {
      accountId: sourceId,
      displayName,
      status: failed.has(sourceId) ? ('failed' as const) : runStatus,
      files: Number(row?.files ?? 0),
      versionsRemoved: Number(row?.removed ?? 0),
      bytesFreed: Number(row?.freed ?? 0),
      errors: errors
        .filter((e) => e.source_id === sourceId)
        .slice(0, 100)
        .map((e) => {
          const f = itemFailure(e, displayName);
          return `${f.item}: ${f.reason}${f.code ? ` (${f.code})` : ''}`;
        }),
    };
  });
  const search = filter.search?.trim().toLowerCase();
  const matching = all.filter(
    (a) =>
      (!filter.status || a.status === filter.status) &&
      (!search || a.accountId.toLowerCase().includes(search) || a.displayName.toLowerCase().includes(search)),
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
