/** Job runs as the monitor and the reports show them (their SQL in runs-repository.ts). */
import type {
  HeldItem,
  ItemsByKind,
  JobRun,
  JobStatus,
  Page,
  RunAccount,
  RunItemFailure,
} from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';
import { jobStatusOf, nameRunSources, type RunRow } from '../../jobs/repository.js';
import { isRetryable } from '../../jobs/retry.js';
import {
  cleanupRunRows,
  type ErrorRow,
  firstErrorsOf,
  heldItemsPage,
  pageReports,
  pageRuns,
  type RunFilter,
  type RunViewRow,
  runSourceNames,
  runSourcesPage,
  withAccounts,
} from './runs-repository.js';

// The archive's Teams restores list their runs with the same columns and view.
export { RUN_SELECT, type RunViewRow } from './runs-repository.js';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/** Per second of `duration`, to two significant decimals; null when the run has not started. */
const perSecond = (amount: number, duration: number | null) =>
  duration === null ? null : Math.round((100 * amount) / Math.max(1, duration)) / 100;

/**
 * What a run archived or backed up by kind, for the runs that handle more than one: an Exchange
 * archive's mails (its own counter) with the events, contacts and tasks it recorded beside them, a
 * SharePoint backup's files with its list items and pages. Other runs handle one kind: none.
 */
function itemsByKind(r: RunViewRow): ItemsByKind | undefined {
  if (r.type === 'exchangeArchive') {
    const raw = r.mailbox_items;
    const counts: Record<string, unknown> = typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {});
    const count = (kind: string) => Number(counts[kind] ?? 0);
    return { mails: Number(r.items_done), events: count('events'), contacts: count('contacts'), tasks: count('tasks') };
  }
  if (r.type === 'backup' && r.application === 'sharepoint')
    return {
      files: Number(r.items_done),
      listItems: Number(r.list_items_done ?? 0),
      pages: Number(r.pages_done ?? 0),
    };
  return undefined;
}

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
  const byKind = itemsByKind(r);
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
    ...(byKind ? { itemsByKind: byKind } : {}),
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

export async function queryRuns(db: Queryable, tenantId: string, filter: RunFilter) {
  const { rows, total, page, pageSize } = await pageRuns(db, tenantId, filter, '');
  return { items: (await withAccounts(db, rows)).map((r) => runView(r)), total, page, pageSize };
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
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  const { sources, total } = await runSourcesPage(db, run, runStatus, { ...filter, page, pageSize });
  const errors = sources.length
    ? await firstErrorsOf(
        db,
        run.run_id,
        sources.map((x) => x.source_id),
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
  return { items, total, page, pageSize };
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
  const { rows, ...runs } = await pageReports(db, tenantId, filter);
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
          ...(r.itemsByKind ? { itemsByKind: r.itemsByKind } : {}),
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
  const { rows, failed, errors } = await cleanupRunRows(db, run);
  const sources = new Set([...rows.map((r) => r.source_id), ...failed]);
  // Sites and OneDrives by the names discovery knows them by, never by their ids.
  await nameRunSources(db, run);
  const named = await runSourceNames(db, run, sources);
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
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? 25;
  const { rows, total } = await heldItemsPage(db, run, readable, { ...filter, page, pageSize });
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
