/** Jobs as stored (one row, the definition in jsonb) and as the API shows them. */
import type {
  Application,
  CleanupRule,
  Job,
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
}

export interface JobRow {
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
  };
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
    status: j.status,
    enabled: j.enabled,
    progress: j.progress,
    started: iso(j.started),
    finished: iso(j.finished),
    nextRun: iso(j.nextRun),
    createdAt: j.createdAt.toISOString(),
    updatedAt: j.updatedAt.toISOString(),
  };
}

export async function findJob(db: Queryable, jobId: string): Promise<JobRecord | undefined> {
  const [row] = await db.query<JobRow>('select * from jobs where job_id = $1', [jobId]);
  return row ? toJobRecord(row) : undefined;
}

export async function listJobs(db: Queryable, tenantId: string): Promise<JobRecord[]> {
  const rows = await db.query<JobRow>('select * from jobs where tenant_id = $1 order by created_at desc, job_id', [
    tenantId,
  ]);
  return rows.map(toJobRecord);
}

export interface RunRow {
  run_id: string;
  seq: number;
  job_id: string;
  tenant_id: string;
  trigger: 'schedule' | 'manual' | 'creation';
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
