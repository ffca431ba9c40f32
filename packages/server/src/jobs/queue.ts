/**
 * The queue side of the job engine, used by the API in any process: queue a run, start and stop a
 * job (as tasks that report when they took effect), read a task. Workers execute (engine.ts).
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { findJob, type JobRecord, type RunRow } from './repository.js';
import type { RetryScope } from './retry.js';

export class JobQueue {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Queues a run unless the job has one queued or running; returns its id, or null. A retry names the
   * run it retries and what it covers.
   */
  async enqueue(
    jobId: string,
    trigger: RunRow['trigger'],
    tx: Queryable = this.ctx.db,
    retry?: { of: string; scope: RetryScope },
  ): Promise<string | null> {
    const job = await findJob(tx, jobId);
    if (!job) return null;
    const runId = randomUUID();
    const now = this.ctx.now();
    const rows = await tx.query<{ run_id: string }>(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, retry_of, retry_scope)
       values ($1, $2, $3, $4, 'queued', $5, $5, $6, $7)
       on conflict (job_id) where status in ('queued', 'running') do nothing returning run_id`,
      [runId, jobId, job.tenantId, trigger, now, retry?.of ?? null, retry ? JSON.stringify(retry.scope) : null],
    );
    if (rows.length === 0) return null;
    await tx.query(
      `update jobs set status = 'pending', progress = 0, message = null, updated_at = $2 where job_id = $1`,
      [jobId, now],
    );
    return runId;
  }

  /** Start: enables the schedule and queues a run now; the task reports when it took effect. */
  async requestStart(job: JobRecord) {
    const taskId = randomUUID();
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      await tx.query('update jobs set enabled = true, updated_at = $2 where job_id = $1', [job.jobId, now]);
      const queued = await this.enqueue(job.jobId, 'manual', tx);
      await tx.query(
        `insert into job_tasks (task_id, job_id, action, status, message, created_at, finished_at) values ($1, $2, 'start', $3, $4, $5, $6)`,
        queued
          ? [taskId, job.jobId, 'pending', 'Queued.', now, null]
          : [taskId, job.jobId, 'succeeded', 'The job is already queued or running.', now, now],
      );
    });
    return this.task(taskId);
  }

  /** Stop: disables the schedule and asks the running run to stop; it stops within a heartbeat. */
  async requestStop(job: JobRecord) {
    const taskId = randomUUID();
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      await tx.query('update jobs set enabled = false, updated_at = $2 where job_id = $1', [job.jobId, now]);
      const queued = await tx.query<RunRow>(
        `update job_runs set status = 'stopped', finished = $2, message = 'Stopped before it started.'
          where job_id = $1 and status = 'queued' returning *`,
        [job.jobId, now],
      );
      const running = await tx.query<RunRow>(
        `update job_runs set cancel_requested = true where job_id = $1 and status = 'running' returning *`,
        [job.jobId],
      );
      if (queued.length > 0) {
        await tx.query(`update jobs set status = 'pending', message = 'Stopped.' where job_id = $1`, [job.jobId]);
      }
      const effective = running.length === 0;
      await tx.query(
        `insert into job_tasks (task_id, job_id, action, status, message, created_at, finished_at) values ($1, $2, 'stop', $3, $4, $5, $6)`,
        [
          taskId,
          job.jobId,
          effective ? 'succeeded' : 'pending',
          effective ? 'Stopped; scheduled runs are paused until the job is started.' : 'Stopping.',
          now,
          effective ? now : null,
        ],
      );
    });
    return this.task(taskId);
  }

  async task(taskId: string) {
    const [row] = await this.ctx.db.query<{
      task_id: string;
      job_id: string;
      action: 'start' | 'stop';
      status: 'pending' | 'running' | 'succeeded' | 'failed';
      message: string | null;
    }>('select * from job_tasks where task_id = $1', [taskId]);
    if (!row) return undefined;
    return {
      taskId: row.task_id,
      jobId: row.job_id,
      action: row.action,
      status: row.status,
      ...(row.message ? { message: row.message } : {}),
    };
  }

  async settleTasks(jobId: string, action: 'start' | 'stop', status: 'succeeded' | 'failed', message: string) {
    await this.ctx.db.query(
      `update job_tasks set status = $3, message = $4, finished_at = $5
        where job_id = $1 and action = $2 and status in ('pending', 'running')`,
      [jobId, action, status, message, this.ctx.now()],
    );
  }
}
