/** Jobs as stored (one row, the definition in jsonb) and as the API shows them. */
import type {
  Application,
  CleanupRule,
  Job,
  JobInclude,
  JobStatus,
  JobType,
  Recurrence,
  RestoreSpec,
  Retention,
} from '@compliance-portal/sdk';
import type { Queryable } from '../db/database.js';

export interface JobDefinition {
  sources: string[];
  folders?: string[];
  /** Teams archive and deletion: the accounts whose chats are covered. */
  chats?: string[];
  /** Clean-up: `{driveId}:{path}` of the files and folders covered (all when none). */
  paths?: string[];
  recurrence: Recurrence | null;
  retention: Retention | null;
  restore?: RestoreSpec;
  cleanupRule?: CleanupRule;
  /** Exchange archive and SharePoint backup: what of each source it covers; everything when absent. */
  include?: JobInclude;
}

export interface JobRecord extends JobDefinition {
  jobId: string;
  tenantId: string;
  name: string;
  type: JobType;
  application: Application;
  locationId: string | null;
  status: JobStatus;
  enabled: boolean;
  progress: number;
  started: Date | null;
  finished: Date | null;
  nextRun: Date | null;
  message: string | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The job's last run that ended, where the list read it (listJobs). */
  lastRun?: LastRun;
}

/** A job's last run that ended: how, when, and how long it took. */
export interface LastRun {
  runId: string;
  status: 'finished' | 'failed' | 'stopped';
  started: Date | null;
  finished: Date;
  itemsFailed: number;
}

/** The columns of a job's last ended run beside the job's own (`lr_`), as listJobs reads them. */
interface LastRunColumns {
  lr_run_id?: string | null;
  lr_status?: LastRun['status'] | null;
  lr_started?: Date | string | null;
  lr_finished?: Date | string | null;
  lr_items_failed?: number | null;
}

export interface JobRow extends LastRunColumns {
  job_id: string;
  tenant_id: string;
  name: string;
  type: JobType;
  application: Application;
  location_id: string | null;
  definition: JobDefinition | string;
  status: JobStatus;
  enabled: boolean;
  progress: number;
  started: Date | null;
  finished: Date | null;
  next_run: Date | null;
  message: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

export function toJobRecord(r: JobRow): JobRecord {
  const definition = (typeof r.definition === 'string' ? JSON.parse(r.definition) : r.definition) as JobDefinition;
  return {
    jobId: r.job_id,
    tenantId: r.tenant_id,
    name: r.name,
    type: r.type,
    application: r.application,
    locationId: r.location_id,
    sources: definition.sources ?? [],
    ...(definition.folders ? { folders: definition.folders } : {}),
    ...(definition.chats?.length ? { chats: definition.chats } : {}),
    ...(definition.paths?.length ? { paths: definition.paths } : {}),
    recurrence: definition.recurrence ?? null,
    retention: definition.retention ?? null,
    ...(definition.restore ? { restore: definition.restore } : {}),
    ...(definition.cleanupRule ? { cleanupRule: definition.cleanupRule } : {}),
    ...(definition.include ? { include: definition.include } : {}),
    status: r.status,
    enabled: r.enabled,
    progress: Number(r.progress),
    started: date(r.started),
    finished: date(r.finished),
    nextRun: date(r.next_run),
    message: r.message,
    createdBy: r.created_by,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    ...(r.lr_run_id && r.lr_status && r.lr_finished
      ? {
          lastRun: {
            runId: r.lr_run_id,
            status: r.lr_status,
            started: date(r.lr_started ?? null),
            finished: new Date(r.lr_finished),
            itemsFailed: Number(r.lr_items_failed ?? 0),
          },
        }
      : {}),
  };
}

/**
 * Whether the job covers `part` of its sources: an Exchange archive's mail, calendars, contacts and
 * tasks, a SharePoint backup's libraries, lists and pages. A job that names none covers them all.
 */
export function includes(job: Pick<JobDefinition, 'include'>, part: JobInclude[number]): boolean {
  return !job.include || job.include.includes(part);
}

/** How long a run took, in whole seconds; unknown for one stopped before it started. */
export function durationOf(run: Pick<LastRun, 'started' | 'finished'>): number | null {
  return run.started ? Math.max(0, Math.round((run.finished.getTime() - run.started.getTime()) / 1000)) : null;
}

export function definitionOf(job: JobDefinition): JobDefinition {
  return {
    sources: job.sources,
    ...(job.folders ? { folders: job.folders } : {}),
    ...(job.chats?.length ? { chats: job.chats } : {}),
    ...(job.paths?.length ? { paths: job.paths } : {}),
    recurrence: job.recurrence,
    retention: job.retention,
    ...(job.restore ? { restore: job.restore } : {}),
    ...(job.cleanupRule ? { cleanupRule: job.cleanupRule } : {}),
    ...(job.include ? { include: job.include } : {}),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function jobView(j: JobRecord): Job {
  return {
    jobId: j.jobId,
    name: j.name,
    type: j.type,
    application: j.application,
    sources: j.sources,
    ...(j.folders ? { folders: j.folders } : {}),
    ...(j.chats ? { chats: j.chats } : {}),
    ...(j.paths ? { paths: j.paths } : {}),
    locationId: j.locationId,
    recurrence: j.recurrence,
    retention: j.retention,
    ...(j.restore ? { restore: j.restore } : {}),
    ...(j.cleanupRule ? { cleanupRule: j.cleanupRule } : {}),
    ...(j.include ? { include: j.include } : {}),
    status: j.status,
    enabled: j.enabled,
    progress: j.progress,
    started: iso(j.started),
    finished: iso(j.finished),
    nextRun: iso(j.nextRun),
    createdAt: j.createdAt.toISOString(),
    updatedAt: j.updatedAt.toISOString(),
    ...(j.lastRun
      ? {
          lastRun: {
            reportId: j.lastRun.runId,
            status: j.lastRun.status,
            started: iso(j.lastRun.started),
            finished: j.lastRun.finished.toISOString(),
            durationSeconds: durationOf(j.lastRun),
            itemsFailed: j.lastRun.itemsFailed,
          },
        }
      : {}),
  };
}

export async function findJob(db: Queryable, jobId: string): Promise<JobRecord | undefined> {
  const [row] = await db.query<JobRow>('select * from jobs where job_id = $1', [jobId]);
  return row ? toJobRecord(row) : undefined;
}

/** The tenant's jobs, newest first, each with its last ended run (read by the job's index of runs). */
export async function listJobs(db: Queryable, tenantId: string): Promise<JobRecord[]> {
  const rows = await db.query<JobRow>(
    `select j.*, lr.run_id as lr_run_id, lr.status as lr_status, lr.started as lr_started,
            lr.finished as lr_finished, lr.items_failed as lr_items_failed
       from jobs j
       left join lateral (select r.run_id, r.status, r.started, r.finished, r.items_failed from job_runs r
                           where r.job_id = j.job_id and r.status in ('finished', 'failed', 'stopped')
                           order by r.seq desc limit 1) lr on true
      where j.tenant_id = $1 order by j.created_at desc, j.job_id`,
    [tenantId],
  );
  return rows.map(toJobRecord);
}

export interface RunRow {
  run_id: string;
  seq: number;
  job_id: string;
  tenant_id: string;
  trigger: 'schedule' | 'manual' | 'creation' | 'retry';
  status: 'queued' | 'running' | 'finished' | 'failed' | 'stopped';
  run_after: Date;
  attempt: number;
  worker_id: string | null;
  heartbeat_at: Date | null;
  cancel_requested: boolean;
  progress: number;
  items_total: number;
  items_done: number;
  items_failed: number;
  bytes: number;
  warnings: number;
  message: string | null;
  checkpoint: Record<string, unknown> | string;
  created_at: Date;
  started: Date | null;
  finished: Date | null;
  /** A failed run's cause in Microsoft's terms (migration 30). */
  error_code: string | null;
  error_status: number | null;
  /** Microsoft 365's throttling (throttling.ts): set while the run waits. */
  throttled_since: Date | null;
  throttle_next_try: Date | null;
  throttle_status: number | null;
  throttle_retries: number;
  throttled_ms: number | string;
  /** When the run last got a slot or gave it up to other tenants (migration 35; the claim's fair turns). */
  served_at?: Date | null;
  /** Times the run gave its slot to other tenants' waiting runs after a time slice. */
  yields?: number;
  /** A retry: the run it retries, and what it covers (jobs/retry.ts). */
  retry_of?: string | null;
  retry_scope?: unknown;
  /** A SharePoint backup's list items and pages (migration 38), beside its files in `items_done`. */
  list_items_done?: number;
  pages_done?: number;
  /** An Exchange archive's events, contacts and tasks (migration 39), beside its mails in `items_done`. */
  mailbox_items?: Record<string, number> | string | null;
}

export function checkpointOf(run: RunRow): Record<string, unknown> {
  return typeof run.checkpoint === 'string' ? JSON.parse(run.checkpoint) : (run.checkpoint ?? {});
}

/** A run's status as the job shows it. */
export function jobStatusOf(run: RunRow['status']): JobStatus {
  switch (run) {
    case 'queued':
      return 'pending';
    case 'running':
      return 'running';
    case 'finished':
      return 'finished';
    case 'failed':
      return 'failed';
    case 'stopped':
      return 'pending';
  }
}

/**
 * Gives the run's accounts that have none the name discovery knows them by (else their id), in one
 * statement: a report is named once, when it is first read, and sorts by name on an index after.
 */
export async function nameRunSources(db: Queryable, run: Pick<RunRow, 'run_id' | 'tenant_id'>) {
  await db.query(
    `update job_run_sources s
        set display_name = coalesce((select d.display_name from discovered_sources d
                                      where d.tenant_id = $2 and d.source_id = s.source_id limit 1),
                                    (select c.name from archived_chats c where c.tenant_id = $2 and c.chat_id = s.source_id),
                                    s.source_id)
      where s.run_id = $1 and s.display_name is null`,
    [run.run_id, run.tenant_id],
  );
}
