/**
 * What an executor (one job type) works with during a run: the job, its tenant, progress reporting,
 * per-item failure handling, a checkpoint to resume from, delta links, and the stop signal.
 *
 * Item failures are bounded: a transient error is retried a few times; a permanent one (not found,
 * forbidden, no mailbox) is recorded once for the job and the item is skipped by later runs until it
 * succeeds again. A run with item failures still ends "finished", with warnings.
 */
import type { AppContext } from '../context.js';
import type { Organisation, TenantRecord } from '../db/records.js';
import { GraphError } from '../m365/graph-api.js';
import { progressOf, WorkPart } from './progress.js';
import type { JobRecord, RunRow } from './repository.js';

/** Thrown by `checkStopped` when the run was asked to stop or the worker shuts down. */
export class RunStopped extends Error {
  constructor() {
    super('The run was stopped.');
    this.name = 'RunStopped';
  }
}

export interface ItemRef {
  /** Stable across runs: the same item has the same key. */
  key: string;
  /**
   * What a person reads in the report: the item's own name (a file's path, a channel's or chat's
   * name), not the id of its source, which the report names beside it.
   */
  name: string;
  /** The account, site, mailbox or team the item belongs to (the run report's row). */
  source?: string;
  /** A failure of this item is a failure of the whole source (it could not be read at all). */
  wholeSource?: boolean;
  /**
   * The part of the run's work the item belongs to (see progress.ts): a failure finishes one of its
   * items, or, for a whole source, the part itself. The whole run's when unset.
   */
  part?: WorkPart;
}

interface ProgressDelta {
  total?: number;
  done?: number;
  failed?: number;
  bytes?: number;
  /** Also counted for this source in the run report. */
  source?: string;
  /** The part of the run's work `total` and `done` + `failed` count in (the whole run's when unset). */
  part?: WorkPart;
  /**
   * `total` is of a page of a listing that goes on: about this many items may follow in this part
   * (the page's length, folders and removed items included).
   */
  more?: number;
}

export interface RunContext {
  ctx: AppContext;
  job: JobRecord;
  tenant: TenantRecord;
  organisation: Organisation | undefined;
  run: RunRow;
  signal: AbortSignal;
  /** Throws RunStopped once the run should stop; call it between items. */
  checkStopped(): void;
  /**
   * The run's work as a tree of parts (progress.ts), which the executor splits as it learns it: its
   * progress is the share of it done, never going down, 100 only once the run finished.
   */
  work: WorkPart;
  /** Adds to the run's counters and its work's items; written to the database at most every few hundred ms. */
  progress(delta: ProgressDelta): void;
  /**
   * Runs `work` for one item: transient errors retried, permanent ones recorded; not ok when it
   * failed, `permanent` when retrying would fail the same way (a transient failure is read again by
   * the next run: the executor keeps its delta link where it was).
   */
  item<T>(ref: ItemRef, work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; permanent: boolean }>;
  /**
   * Items that failed for good on an earlier run and are skipped; not those a retry was asked for,
   * which are tried again.
   */
  isKnownFailure(key: string): Promise<boolean>;
  /**
   * A retry of an earlier run (retry.ts): the keys of the items that failed in it, and whether only
   * those items are to be processed (`items`); with `sources` the job's sources were narrowed to those
   * that had them. None for a run that is no retry, or one that retries the whole job.
   */
  retry: { kind: 'items' | 'sources'; keys: ReadonlySet<string> } | null;
  checkpoint: Record<string, unknown>;
  saveCheckpoint(checkpoint: Record<string, unknown>): Promise<void>;
  deltaLink(sourceKey: string): Promise<string | undefined>;
  saveDeltaLink(sourceKey: string, link: string): Promise<void>;
  /** Writes pending progress. */
  flush(): Promise<void>;
  failedItems(): Promise<number>;
  /**
   * The account, site, mailbox or team the run works on: the source of the last item that stands
   * for a whole source (wholeSource) begun. A run that fails names it as the account it failed on.
   */
  readonly currentSource: string | undefined;
}

export type Executor = (rc: RunContext) => Promise<{ message?: string }>;

export interface RunContextInput {
  ctx: AppContext;
  job: JobRecord;
  tenant: TenantRecord;
  organisation: Organisation | undefined;
  run: RunRow;
  checkpoint: Record<string, unknown>;
  signal: AbortSignal;
  retry?: RunContext['retry'];
  /** Attempts per item for transient errors. */
  itemAttempts?: number;
  /** Pause between item attempts. */
  retryDelayMs?: number;
  /** Progress is written at most this often (a run's end writes what is left). */
  progressIntervalMs?: number;
  /**
   * Called after each checkpoint is saved: the engine may ask the run to stop there (a yield to other
   * tenants' runs), where resuming repeats nothing.
   */
  onCheckpoint?: () => Promise<void>;
}

/** Permanent: retrying the same item fails the same way. Unknown errors count as transient. */
function isPermanent(error: unknown): boolean {
  if (error instanceof GraphError) return error.permanent;
  return typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true;
}

function codeOf(error: unknown): string {
  if (error instanceof GraphError) return error.code;
  if (error instanceof Error) return error.name;
  return 'Error';
}

export function createRunContext(input: RunContextInput): RunContext {
  const { ctx, job, run, signal } = input;
  const attempts = input.itemAttempts ?? 3;
  const retryDelayMs = input.retryDelayMs ?? 200;
  const progressIntervalMs = input.progressIntervalMs ?? 300;
  const pending = { total: 0, done: 0, failed: 0, bytes: 0 };
  const perSource = new Map<string, { items: number; failed: number; bytes: number; sourceFailed: boolean }>();
  let lastWrite = 0;
  let writing: Promise<void> = Promise.resolve();
  let written = -1;
  const knownFailures = new Set<string>();
  let knownLoaded = false;
  let currentSource: string | undefined;

  const write = () => {
    const delta = { ...pending };
    pending.total = pending.done = pending.failed = pending.bytes = 0;
    const sources = [...perSource.entries()];
    perSource.clear();
    if (sources.length > 0) {
      writing = writing.then(async () => {
        for (const [sourceId, s] of sources) {
          await ctx.db.query(
            `insert into job_run_sources (run_id, source_id, items, failed_items, bytes, failed) values ($1, $2, $3, $4, $5, $6)
             on conflict (run_id, source_id) do update set items = job_run_sources.items + excluded.items,
               failed_items = job_run_sources.failed_items + excluded.failed_items,
               bytes = job_run_sources.bytes + excluded.bytes, failed = job_run_sources.failed or excluded.failed`,
            [run.run_id, sourceId, s.items, s.failed, s.bytes, s.sourceFailed],
          );
        }
      });
    }
    const progress = progressOf(rc.work);
    const counted = delta.total !== 0 || delta.done !== 0 || delta.failed !== 0 || delta.bytes !== 0;
    if (!counted && progress <= written) return writing;
    written = Math.max(written, progress);
    writing = writing.then(async () => {
      // Never lower than written before (a run resumed after an interruption counts its work again).
      const [row] = await ctx.db.query<{ progress: number }>(
        `update job_runs set items_total = items_total + $2, items_done = items_done + $3,
                items_failed = items_failed + $4, bytes = bytes + $5, progress = greatest(progress, $6)
          where run_id = $1 returning progress`,
        [run.run_id, delta.total, delta.done, delta.failed, delta.bytes, progress],
      );
      if (row) await ctx.db.query('update jobs set progress = $2 where job_id = $1', [job.jobId, row.progress]);
    });
    return writing;
  };

  /** Writes now, unless the last write was less than the interval ago (the run's end writes what is left). */
  const changed = () => {
    const now = Date.now();
    if (now - lastWrite >= progressIntervalMs) {
      lastWrite = now;
      void write().catch((err: unknown) => ctx.log.warn({ err }, 'progress write failed'));
    }
  };

  const rc: RunContext = {
    ctx,
    job,
    tenant: input.tenant,
    organisation: input.organisation,
    run,
    signal,
    checkStopped() {
      if (signal.aborted) throw new RunStopped();
    },
    work: new WorkPart(() => changed()),
    progress(delta) {
      if (delta.source !== undefined) {
        const s = perSource.get(delta.source) ?? { items: 0, failed: 0, bytes: 0, sourceFailed: false };
        s.items += delta.done ?? 0;
        s.failed += delta.failed ?? 0;
        s.bytes += delta.bytes ?? 0;
        perSource.set(delta.source, s);
      }
      pending.total += delta.total ?? 0;
      pending.done += delta.done ?? 0;
      pending.failed += delta.failed ?? 0;
      pending.bytes += delta.bytes ?? 0;
      // The counters first: the work's change writes them with the progress they make.
      const part = delta.part ?? rc.work;
      if (delta.total !== undefined) part.add(delta.total, delta.more);
      part.finish((delta.done ?? 0) + (delta.failed ?? 0));
      changed();
    },
    get currentSource() {
      return currentSource;
    },
    async item(ref, work) {
      if (ref.wholeSource && ref.source !== undefined) currentSource = ref.source;
      for (let attempt = 1; ; attempt++) {
        rc.checkStopped();
        try {
          const value = await work();
          if (knownFailures.has(ref.key)) {
            knownFailures.delete(ref.key);
            await ctx.db.query('delete from job_item_failures where job_id = $1 and item_key = $2', [
              job.jobId,
              ref.key,
            ]);
          }
          return { ok: true, value };
        } catch (error) {
          if (error instanceof RunStopped || signal.aborted) throw new RunStopped();
          const permanent = isPermanent(error);
          if (!permanent && attempt < attempts) {
            await new Promise((r) => setTimeout(r, retryDelayMs * attempt));
            continue;
          }
          const now = ctx.now();
          const message = error instanceof Error ? error.message : String(error);
          await ctx.db.query(
            `insert into job_run_errors (run_id, item_key, item_name, code, message, permanent, attempts, at, source_id, status)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
            [
              run.run_id,
              ref.key,
              ref.name,
              codeOf(error),
              message,
              permanent,
              attempt,
              now,
              ref.source ?? null,
              error instanceof GraphError ? error.status : null,
            ],
          );
          if (ref.source !== undefined && ref.wholeSource) {
            const s = perSource.get(ref.source) ?? { items: 0, failed: 0, bytes: 0, sourceFailed: false };
            s.sourceFailed = true;
            perSource.set(ref.source, s);
          }
          if (permanent) {
            knownFailures.add(ref.key);
            await ctx.db.query(
              `insert into job_item_failures (job_id, item_key, item_name, code, reason, first_seen, last_seen)
               values ($1, $2, $3, $4, $5, $6, $6)
               on conflict (job_id, item_key) do update set last_seen = excluded.last_seen, reason = excluded.reason`,
              [job.jobId, ref.key, ref.name, codeOf(error), message, now],
            );
          }
          rc.progress({
            failed: 1,
            ...(ref.source !== undefined ? { source: ref.source } : {}),
            // A source that cannot be read at all ends its part; an item is one of its part's.
            ...(ref.part && !ref.wholeSource ? { part: ref.part } : {}),
          });
          if (ref.wholeSource) ref.part?.end();
          return { ok: false, permanent };
        }
      }
    },
    async isKnownFailure(key) {
      if (!knownLoaded) {
        const rows = await ctx.db.query<{ item_key: string }>(
          'select item_key from job_item_failures where job_id = $1',
          [job.jobId],
        );
        for (const r of rows) knownFailures.add(r.item_key);
        knownLoaded = true;
      }
      return knownFailures.has(key) && !rc.retry?.keys.has(key);
    },
    retry: input.retry ?? null,
    checkpoint: input.checkpoint,
    async saveCheckpoint(checkpoint) {
      rc.checkpoint = checkpoint;
      await ctx.db.query('update job_runs set checkpoint = $2 where run_id = $1', [
        run.run_id,
        JSON.stringify(checkpoint),
      ]);
      await input.onCheckpoint?.();
    },
    async deltaLink(sourceKey) {
      const [row] = await ctx.db.query<{ delta_link: string }>(
        'select delta_link from job_delta_links where job_id = $1 and source_key = $2',
        [job.jobId, sourceKey],
      );
      return row?.delta_link;
    },
    async saveDeltaLink(sourceKey, link) {
      await ctx.db.query(
        `insert into job_delta_links (job_id, source_key, delta_link, updated_at) values ($1, $2, $3, $4)
         on conflict (job_id, source_key) do update set delta_link = excluded.delta_link, updated_at = excluded.updated_at`,
        [job.jobId, sourceKey, link, ctx.now()],
      );
    },
    async flush() {
      await write();
    },
    async failedItems() {
      const [row] = await ctx.db.query<{ n: number }>(
        'select count(distinct item_key)::int as n from job_run_errors where run_id = $1',
        [run.run_id],
      );
      return Number(row?.n ?? 0);
    },
  };
  return rc;
}
