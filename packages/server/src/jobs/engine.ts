/**
 * The job engine: a durable queue in the database. The scheduler turns due jobs into queued runs;
 * workers claim runs with `for update skip locked`, so several processes on one PostgreSQL database
 * never run the same job twice (a partial unique index also allows one active run per job). A run
 * holds a lease renewed by heartbeats; a run whose worker died (crash, kill, restart) is resumed from
 * its checkpoint by the next worker, or ends failed with the reason after `maxAttempts`.
 *
 * Turns are fair between tenants (a partner's hundreds of clients may all be due at 01:00): a claim
 * takes the run of the tenant with the fewest runs running, then the tenant served longest ago, then
 * the oldest run; a tenant runs at most `tenantConcurrency` runs at once and none while one of its
 * runs waits on Microsoft 365's throttling; a run that held its slot for a time slice while other
 * tenants' runs wait gives its slot up at its next checkpoint and queues behind them.
 */
import { randomUUID } from 'node:crypto';
import type { JobType } from '@compliance-portal/sdk';
import type { AppContext } from '../context.js';
import { findOrganisation, findTenant } from '../db/records.js';
import { GraphError } from '../m365/graph-api.js';
import { listenToGraphRetries } from '../m365/graph-client.js';
import { counted } from '../words.js';
import { notifyRunEnded } from './notify.js';
import { JobQueue } from './queue.js';
import {
  checkpointOf,
  findJob,
  type JobRow,
  jobStatusOf,
  nameRunSources,
  type RunRow,
  toJobRecord,
} from './repository.js';
import { retryScopeFrom } from './retry.js';
import { createRunContext, type Executor, RunStopped } from './run-context.js';
import { nextRun } from './schedule.js';
import { createThrottleTracker } from './throttling.js';

/**
 * A resumed run starts its counters (and its per-source counts) afresh: the executor reports again
 * what its checkpoint covers, so nothing is counted twice.
 */
const RESET_COUNTERS = 'items_total = 0, items_done = 0, items_failed = 0, bytes = 0';

/**
 * Runs one worker executes at once. Runs are I/O-bound: they wait on Microsoft Graph (a tenant's
 * client has at most 4 requests in flight per process, data-plane.ts), the blob store and the
 * database, so a worker's throughput grows with the number of tenants it serves at once, and 2 left
 * it idle on network waits (a night of 500 five-minute runs would take a worker 21 hours). The bound
 * is memory: a backup run holds up to 24 whole files in flight (executors/backup.ts), so each slot
 * multiplies the peak; 4 doubles the old throughput at twice its peak. More throughput comes from
 * more workers, or PORTAL_WORKER_CONCURRENCY on a machine with the memory for it.
 */
const DEFAULT_CONCURRENCY = 4;
/**
 * Runs of one tenant at once, across all workers. Microsoft throttles per tenant (and per mailbox,
 * drive or site), and a process shares one Graph client per tenant between its runs: a second run
 * of the same tenant adds little but 429s, and a tenant with twenty jobs would fill every slot.
 */
const DEFAULT_TENANT_CONCURRENCY = 1;
/**
 * A run that held its slot this long while runs of other tenants wait yields at its next checkpoint:
 * a tenant's wait behind long runs is bounded by about one slice (a long backup is resumed from its
 * checkpoint, which costs one checkpoint's work at most), and a run that yields does so at most every
 * ten minutes, so resuming stays a small share of its time.
 */
const DEFAULT_TIME_SLICE_MS = 10 * 60_000;

/** Claims of every worker take turns on this lock (engine.ts only; the other keys are 72361–72365). */
const CLAIM_LOCK = 72366;

export interface JobEngineOptions {
  executors: Partial<Record<JobType, Executor>>;
  /** Identifies this worker process in the runs it holds. */
  workerId?: string;
  /** Runs executed at once by this worker (DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** Runs of one tenant executed at once by all workers together (DEFAULT_TENANT_CONCURRENCY). */
  tenantConcurrency?: number;
  /**
   * A run that held its slot this long while other tenants' runs wait yields at its next checkpoint
   * (DEFAULT_TIME_SLICE_MS; 0: never). Measured on the context's clock.
   */
  timeSliceMs?: number;
  pollMs?: number;
  /** A run whose heartbeat is older than this is considered abandoned. */
  leaseMs?: number;
  heartbeatMs?: number;
  /** Attempts before an interrupted run ends failed. */
  maxAttempts?: number;
  /** A run's progress is written at most this often (300 ms by default). */
  progressIntervalMs?: number;
}

export interface RunOutcome {
  runId: string;
  status: RunRow['status'];
}

export class JobEngine {
  readonly workerId: string;
  readonly queue: JobQueue;
  private readonly concurrency: number;
  private readonly tenantConcurrency: number;
  private readonly timeSliceMs: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly maxAttempts: number;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<RunOutcome> }>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: JobEngineOptions,
  ) {
    this.workerId = options.workerId ?? `worker-${randomUUID().slice(0, 8)}`;
    this.queue = new JobQueue(ctx);
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.tenantConcurrency = Math.max(1, options.tenantConcurrency ?? DEFAULT_TENANT_CONCURRENCY);
    this.timeSliceMs = options.timeSliceMs ?? DEFAULT_TIME_SLICE_MS;
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? 5000;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  /** Starts polling. `recoverAll` (one process on an embedded database) takes over every running run at once. */
  async start({ recoverAll = false } = {}) {
    this.stopping = false;
    await this.recover(recoverAll ? 0 : this.leaseMs);
    const loop = () => {
      this.timer = setTimeout(async () => {
        await this.tick().catch((err: unknown) => this.ctx.log.error({ err }, 'job engine tick failed'));
        if (!this.stopping) loop();
      }, this.pollMs);
      this.timer.unref?.();
    };
    loop();
  }

  /**
   * Stops claiming and asks running runs to stop at their next checkpoint; they go back to the queue
   * and resume on the next start.
   */
  async stop() {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    for (const { controller } of this.running.values()) controller.abort('shutdown');
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /** One round: due schedules become runs, abandoned runs are recovered, free slots claim runs. */
  tick(): Promise<void> {
    this.ticking = (async () => {
      await this.scheduleDue();
      await this.recover(this.leaseMs);
      while (!this.stopping && this.running.size < this.concurrency) {
        const run = await this.claim();
        if (!run) break;
        this.execute(run);
      }
    })();
    return this.ticking;
  }

  /** Waits for every run this worker is executing. */
  async drain(): Promise<RunOutcome[]> {
    const outcomes: RunOutcome[] = [];
    while (this.running.size > 0) {
      outcomes.push(...(await Promise.all([...this.running.values()].map((r) => r.done))));
    }
    return outcomes;
  }

  /** Runs every queued run to its end (tests and the CLI): tick and drain until the queue is empty. */
  async runUntilIdle(): Promise<RunOutcome[]> {
    const outcomes: RunOutcome[] = [];
    for (;;) {
      await this.tick();
      if (this.running.size === 0) return outcomes;
      outcomes.push(...(await this.drain()));
    }
  }

  enqueue(jobId: string, trigger: RunRow['trigger']) {
    return this.queue.enqueue(jobId, trigger);
  }

  /** Jobs whose next run is due get a queued run and their following run time. */
  async scheduleDue() {
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      const due = await tx.query<JobRow & { time_zone: string | null }>(
        `select j.*, o.time_zone from jobs j
           join tenants t on t.tenant_id = j.tenant_id
           join organisations o on o.id = t.organisation_id
          where j.enabled and j.next_run is not null and j.next_run <= $1
          order by j.next_run limit 100 for update of j skip locked`,
        [now],
      );
      for (const row of due) {
        const job = toJobRecord(row);
        await this.queue.enqueue(job.jobId, 'schedule', tx);
        const following = nextRun({
          recurrence: job.recurrence,
          after: now,
          createdAt: job.createdAt,
          organisationTimeZone: row.time_zone ?? undefined,
        });
        await tx.query('update jobs set next_run = $2 where job_id = $1', [job.jobId, following]);
      }
    });
  }

  /**
   * Claims the next run in fair turns: among the tenants with a due queued run, none of whose runs
   * waits on Microsoft 365's throttling (its next try still ahead) and which runs fewer than
   * `tenantConcurrency`, the tenant with the fewest runs running, then the one served longest ago
   * (never first), then its oldest run (run_after, seq).
   *
   * Those turns share the scheduled work. A run someone asked for (started by hand, a new job's first
   * run such as a restore, a retry) has a person waiting for it: it goes before scheduled runs and is
   * held back neither by its tenant's limit nor by the throttling of its tenant's other runs (its own
   * requests still wait as Microsoft says). A restore then never waits for a night's backup or a
   * throttled clean-up of its tenant.
   *
   * One statement picks and takes the run, `for update skip locked`, so two workers never take the
   * same run. Claims of all workers still take turns on a transaction-scoped advisory lock taken
   * first: each claim's snapshot then includes every claim committed before it, so two workers at the
   * same moment cannot both see a tenant as idle and both start one of its runs (beyond its limit).
   * A claim is one short statement, so the turns cost little even for many workers.
   */
  private async claim(): Promise<RunRow | undefined> {
    let now = this.ctx.now();
    const run = await this.ctx.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
      // The time of the claim is read once its turn came, so claims are stamped in the order taken.
      now = this.ctx.now();
      const [claimed] = await tx.query<RunRow>(
        `with tenants as (
           select w.tenant_id,
                  (select count(*) from job_runs r where r.tenant_id = w.tenant_id and r.status = 'running') as running,
                  (select max(r.served_at) from job_runs r where r.tenant_id = w.tenant_id) as served,
                  exists (select 1 from job_runs r where r.tenant_id = w.tenant_id and r.status = 'running'
                             and r.throttle_next_try > $2) as throttled
             from (select distinct tenant_id from job_runs where status = 'queued' and run_after <= $2) w
         )
         update job_runs set status = 'running', worker_id = $1, heartbeat_at = $2, attempt = attempt + 1,
                started = coalesce(started, $2), served_at = $2
          where run_id = (select q.run_id from job_runs q join tenants t on t.tenant_id = q.tenant_id
                           where q.status = 'queued' and q.run_after <= $2
                             and (q.trigger <> 'schedule' or (t.running < $3 and not t.throttled))
                           order by q.trigger = 'schedule', t.running, t.served nulls first, q.run_after, q.seq
                           limit 1 for update of q skip locked)
          returning *`,
        [this.workerId, now, this.tenantConcurrency],
      );
      return claimed;
    });
    if (!run) return undefined;
    await this.ctx.db.query(
      `update jobs set status = 'running', started = $2, finished = null, message = null, updated_at = $2 where job_id = $1`,
      [run.job_id, now],
    );
    await this.queue.settleTasks(run.job_id, 'start', 'succeeded', 'The job is running.');
    return run;
  }

  /**
   * Runs whose worker stopped renewing the lease go back to the queue to resume from their
   * checkpoint, or end failed once they have had `maxAttempts` attempts.
   */
  async recover(leaseMs: number) {
    const cutoff = new Date(this.ctx.now().getTime() - leaseMs);
    const abandoned = await this.ctx.db.query<RunRow>(
      `select * from job_runs where status = 'running' and (heartbeat_at is null or heartbeat_at <= $1)
          and (worker_id is distinct from $2 or $3)`,
      [cutoff, this.workerId, leaseMs === 0],
    );
    for (const run of abandoned) {
      if (this.running.has(run.run_id)) continue;
      if (run.cancel_requested) {
        await this.finish(run, 'stopped', 'Stopped.');
      } else if (run.attempt >= this.maxAttempts) {
        await this.finish(
          run,
          'failed',
          `The run was interrupted ${run.attempt} times (worker stopped or restarted) and was given up.`,
        );
      } else {
        await this.ctx.db.query(
          `update job_runs set status = 'queued', worker_id = null, run_after = $2, message = $3, ${RESET_COUNTERS}
            where run_id = $1 and status = 'running'`,
          [run.run_id, this.ctx.now(), 'Resuming after an interruption.'],
        );
        await this.ctx.db.query('delete from job_run_sources where run_id = $1', [run.run_id]);
        this.ctx.log.warn({ runId: run.run_id, jobId: run.job_id, attempt: run.attempt }, 'resuming interrupted run');
      }
    }
  }

  // ---- execution ----

  private execute(run: RunRow) {
    const controller = new AbortController();
    const done = this.runOne(run, controller).catch(async (err: unknown) => {
      this.ctx.log.error({ err, runId: run.run_id }, 'run crashed');
      await this.finish(run, 'failed', `The run could not complete: ${messageOf(err)}`, 0, failureOf(err)).catch(
        () => undefined,
      );
      return { runId: run.run_id, status: 'failed' as const };
    });
    this.running.set(run.run_id, { controller, done });
    void done.finally(() => this.running.delete(run.run_id));
  }

  private async runOne(run: RunRow, controller: AbortController): Promise<RunOutcome> {
    const found = await findJob(this.ctx.db, run.job_id);
    if (!found) return this.finish(run, 'failed', 'The job was removed.');
    // A retry of the sources that had failures reads those only (of the sources the job still has).
    const scope = retryScopeFrom(run.retry_scope);
    const job =
      scope?.kind === 'sources' ? { ...found, sources: found.sources.filter((s) => scope.sources.includes(s)) } : found;
    const executor = this.options.executors[job.type];
    if (!executor) return this.finish(run, 'failed', `No worker can run ${job.type} jobs.`);
    const tenant = await findTenant(this.ctx.db, job.tenantId);
    if (!tenant) return this.finish(run, 'failed', 'The tenant was removed.');
    const organisation = await findOrganisation(this.ctx.db, tenant.organisationId);

    // The time slice: from when the run got its slot, on the context's clock.
    const slotSince = new Date(run.served_at ?? this.ctx.now()).getTime();
    let lookedAt = Number.NEGATIVE_INFINITY;
    const yieldIfOthersWait = async (heldAtLeast: number) => {
      if (this.timeSliceMs <= 0 || controller.signal.aborted) return;
      const now = this.ctx.now().getTime();
      // Looked for waiting runs at most once a heartbeat interval (a run may save checkpoints often).
      if (now - slotSince < heldAtLeast || now - lookedAt < this.heartbeatMs) return;
      lookedAt = now;
      if (await this.othersWait(run, now)) controller.abort('yield');
    };

    const heartbeat = setInterval(() => {
      void this.ctx.db
        .query<{ cancel_requested: boolean }>(
          'update job_runs set heartbeat_at = $2 where run_id = $1 returning cancel_requested',
          [run.run_id, this.ctx.now()],
        )
        .then(async ([row]) => {
          if (row?.cancel_requested) controller.abort('stop');
          // A run that saved no checkpoint for a second slice yields anyway, as a shutdown stops it,
          // and resumes from its last checkpoint: the others' wait stays bounded.
          else await yieldIfOthersWait(2 * this.timeSliceMs);
        })
        .catch(() => undefined);
    }, this.heartbeatMs);
    heartbeat.unref?.();

    const rc = createRunContext({
      ctx: this.ctx,
      job,
      tenant,
      organisation,
      run,
      checkpoint: checkpointOf(run),
      signal: controller.signal,
      ...(scope && scope.kind !== 'job' ? { retry: { kind: scope.kind, keys: new Set(scope.keys) } } : {}),
      ...(this.options.progressIntervalMs !== undefined ? { progressIntervalMs: this.options.progressIntervalMs } : {}),
      // A checkpoint is where yielding repeats nothing: the slice is checked there first.
      onCheckpoint: () => yieldIfOthersWait(this.timeSliceMs),
    });
    // Microsoft 365's throttling of the run's requests, recorded while the run waits for it.
    const throttle = createThrottleTracker(this.ctx, run.run_id);
    try {
      const result = await listenToGraphRetries(throttle, () => executor(rc));
      await rc.flush();
      await throttle.close();
      const failed = await rc.failedItems();
      const warning = failed > 0 ? `${counted(failed, 'item')} could not be processed.` : '';
      const said = result.message
        ? `${result.message}${warning ? ` ${warning}` : ''}`
        : warning
          ? `Finished with ${counted(failed, 'item')} that could not be processed.`
          : 'Finished.';
      // Its figures are the whole run's (a resumed run counts again what its checkpoint covers).
      const yields = Number(run.yields ?? 0);
      const message =
        yields > 0
          ? `${said} It gave its turn to other tenants' runs ${counted(yields, 'time')} and resumed from its checkpoint.`
          : said;
      return await this.finish(run, 'finished', message, failed);
    } catch (err) {
      await rc.flush().catch(() => undefined);
      await throttle.close();
      if (err instanceof RunStopped || controller.signal.aborted) {
        if (controller.signal.reason === 'yield') return await this.yieldTurn(run);
        if (controller.signal.reason === 'shutdown') {
          // Back to the queue: the next worker start resumes from the checkpoint.
          await this.ctx.db.query(
            `update job_runs set status = 'queued', worker_id = null, ${RESET_COUNTERS},
                    message = 'Paused by a shutdown; resumes on the next start.'
              where run_id = $1`,
            [run.run_id],
          );
          await this.ctx.db.query('delete from job_run_sources where run_id = $1', [run.run_id]);
          return { runId: run.run_id, status: 'queued' };
        }
        return await this.finish(run, 'stopped', 'Stopped.');
      }
      this.ctx.log.warn({ err, runId: run.run_id }, 'run failed');
      const failure = failureOf(err);
      if (rc.currentSource !== undefined) await this.failedOn(run, rc.currentSource, messageOf(err), failure);
      return await this.finish(run, 'failed', messageOf(err), 0, failure);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Whether a run of another tenant waits that would take the slot `run` gives up: due for at least a
   * poll interval (so no free slot of any worker took it), its tenant not throttled, under its limit
   * and running fewer runs than `run`'s tenant (else the yield would hand the slot straight back).
   */
  private async othersWait(run: RunRow, now: number): Promise<boolean> {
    const rows = await this.ctx.db.query<{ run_id: string }>(
      `select q.run_id from job_runs q
        where q.status = 'queued' and q.run_after <= $2 and q.tenant_id <> $1
          and (select count(*) from job_runs r where r.tenant_id = q.tenant_id and r.status = 'running')
              < least($4, (select count(*) from job_runs r where r.tenant_id = $1 and r.status = 'running'))
          and not exists (select 1 from job_runs r where r.tenant_id = q.tenant_id and r.status = 'running'
                             and r.throttle_next_try > $3)
        limit 1`,
      [run.tenant_id, new Date(now - this.pollMs), new Date(now), this.tenantConcurrency],
    );
    return rows.length > 0;
  }

  /**
   * A run that held its slot for a time slice while others wait goes back to the queue as a shutdown
   * sends it, and resumes from its checkpoint: its counters and per-source counts start afresh, as
   * the executor counts again what the checkpoint covers. It queues behind the waiting runs: due now
   * (behind its tenant's older runs) and served now (behind every tenant served before). A yield is
   * no interruption: the attempt it used is given back, so `maxAttempts` still counts crashes only.
   */
  private async yieldTurn(run: RunRow): Promise<RunOutcome> {
    const now = this.ctx.now();
    const held = Math.max(1, Math.round((now.getTime() - new Date(run.served_at ?? now).getTime()) / 60_000));
    await this.ctx.db.query(
      `update job_runs set status = 'queued', worker_id = null, ${RESET_COUNTERS},
              run_after = $2, served_at = $2, attempt = greatest(attempt - 1, 0), yields = yields + 1, message = $3
        where run_id = $1 and status = 'running'`,
      [
        run.run_id,
        now,
        `Gave its turn to other tenants' waiting runs after ${counted(held, 'minute')}; resumes from its checkpoint.`,
      ],
    );
    await this.ctx.db.query('delete from job_run_sources where run_id = $1', [run.run_id]);
    await this.ctx.db.query(`update jobs set status = 'pending', updated_at = $2 where job_id = $1`, [run.job_id, now]);
    this.ctx.log.info({ runId: run.run_id, jobId: run.job_id, tenantId: run.tenant_id }, 'run yielded its turn');
    return { runId: run.run_id, status: 'queued' };
  }

  /** The account a run failed on: its report names it with the run's error as its own. */
  private async failedOn(run: RunRow, source: string, message: string, failure: RunFailure) {
    await this.ctx.db.query(
      `insert into job_run_errors (run_id, item_key, item_name, code, message, permanent, attempts, at, source_id, status)
       values ($1, $2, $3, $4, $5, false, 1, $6, $3, $7)`,
      [run.run_id, `run:${source}`, source, failure.code ?? 'Error', message, this.ctx.now(), failure.status ?? null],
    );
    await this.ctx.db.query(
      `insert into job_run_sources (run_id, source_id, failed) values ($1, $2, true)
       on conflict (run_id, source_id) do update set failed = true`,
      [run.run_id, source],
    );
  }

  private async finish(
    run: RunRow,
    status: 'finished' | 'failed' | 'stopped',
    message: string,
    warnings = 0,
    failure: RunFailure = {},
  ) {
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      await tx.query(
        `update job_runs set status = $2, finished = $3, message = $4, warnings = $5,
                progress = case when $2 = 'finished' then 100 else progress end,
                error_code = $6, error_status = $7, throttled_since = null, throttle_next_try = null
          where run_id = $1`,
        [run.run_id, status, now, message, warnings, failure.code ?? null, failure.status ?? null],
      );
      if (status === 'failed') {
        // A failed run names every account it was to cover: those it did not reach are in its report too.
        await tx.query(
          `insert into job_run_sources (run_id, source_id, failed)
           select $1, s.source, true
             from jobs j, jsonb_array_elements_text(coalesce(j.definition->'sources', '[]'::jsonb)) as s(source)
            where j.job_id = $2 and s.source <> ''
           on conflict (run_id, source_id) do nothing`,
          [run.run_id, run.job_id],
        );
      }
      await tx.query(
        `update jobs set status = $2, finished = $3, message = $4, updated_at = $3,
                progress = case when $2 = 'finished' then 100 else progress end
          where job_id = $1`,
        [run.job_id, jobStatusOf(status), now, message],
      );
    });
    // The report's accounts get their names now, so the first reader of a long report does not wait.
    await nameRunSources(this.ctx.db, run);
    if (status === 'stopped') await this.queue.settleTasks(run.job_id, 'stop', 'succeeded', 'Stopped.');
    await this.queue.settleTasks(run.job_id, 'start', status === 'failed' ? 'failed' : 'succeeded', message);
    await notifyRunEnded(this.ctx, run, status, message);
    return { runId: run.run_id, status };
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Why a run failed in Microsoft's terms, kept apart from its reason in words. */
interface RunFailure {
  code?: string;
  status?: number;
}

function failureOf(err: unknown): RunFailure {
  if (err instanceof GraphError) return { code: err.code, status: err.status };
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && code) return { code };
  return {};
}
