/** The jobs module's SQL of jobs and runs beyond src/jobs/repository.ts (the engine's); the run views' in runs-repository.ts. */
import type { Application, JobType } from '@compliance-portal/sdk';
import { notHeld } from '../../archive-data/legal-hold-repository.js';
import type { Queryable, SqlValue } from '../../db/database.js';
import { type JobDefinition, type JobRecord, type JobRow, type RunRow, toJobRecord } from '../../jobs/repository.js';
import { RUN_SELECT, type RunViewRow, withAccounts } from './runs-repository.js';

/** The tenant's jobs of one type, newest first. */
export async function listJobsOfType(db: Queryable, tenantId: string, type: JobType): Promise<JobRecord[]> {
  // The jobs themselves in the one query, not their ids and then a query per job.
  const rows = await db.query<JobRow>(
    'select * from jobs where tenant_id = $1 and type = $2 order by created_at desc',
    [tenantId, type],
  );
  return rows.map(toJobRecord);
}

export async function findRun(db: Queryable, runId: string): Promise<RunRow | undefined> {
  const [run] = await db.query<RunRow>('select * from job_runs where run_id = $1', [runId]);
  return run;
}

export async function findTenantRun(db: Queryable, tenantId: string, runId: string): Promise<RunRow | undefined> {
  const [run] = await db.query<RunRow>('select * from job_runs where run_id = $1 and tenant_id = $2', [
    runId,
    tenantId,
  ]);
  return run;
}

/** The job's latest run, with its job's name, type and application. */
export async function latestRunWithJob(db: Queryable, jobId: string): Promise<RunViewRow | undefined> {
  const [row] = await withAccounts(
    db,
    await db.query<RunViewRow>(`${RUN_SELECT} where r.job_id = $1 order by r.seq desc limit 1`, [jobId]),
  );
  return row;
}

/** The id of the job's latest run. */
export async function latestRunId(db: Queryable, jobId: string): Promise<string | undefined> {
  const [run] = await db.query<{ run_id: string }>(
    'select run_id from job_runs where job_id = $1 order by seq desc limit 1',
    [jobId],
  );
  return run?.run_id;
}

export async function latestFinishedRun(db: Queryable, jobId: string): Promise<RunRow | undefined> {
  const [run] = await db.query<RunRow>(
    `select * from job_runs where job_id = $1 and status = 'finished' order by seq desc limit 1`,
    [jobId],
  );
  return run;
}

/** The tenant's queued and running runs, oldest first. */
export async function activeRuns(db: Queryable, tenantId: string): Promise<RunViewRow[]> {
  return withAccounts(
    db,
    await db.query<RunViewRow>(
      `${RUN_SELECT} where r.tenant_id = $1 and r.status in ('queued', 'running') order by r.seq`,
      [tenantId],
    ),
  );
}

/**
 * What a retention would delete: the archived items in `scope` (see retentionScope, its parameters from
 * $3) sent (or else archived) before `before` that no legal hold keeps, their bytes and their sources;
 * and apart the items as old that holds keep (`held`).
 */
export async function countArchivedBefore(
  db: Queryable,
  tenantId: string,
  before: Date,
  scope: { sql: string; params: SqlValue[] },
): Promise<{ items: number; bytes: number; sources: number; held: number }> {
  const [row] = await db.query<{ items: number; bytes: string; sources: number; held: number }>(
    `select count(*) filter (where free)::int as items, coalesce(sum(size) filter (where free), 0)::bigint as bytes,
            count(distinct source) filter (where free)::int as sources, count(*) filter (where not free)::int as held
       from (select size, source, ${notHeld()} as free from archive_items
              where tenant_id = $1 and coalesce(sent_at, archived_at) < $2 and ${scope.sql}) x`,
    [tenantId, before, ...scope.params],
  );
  return {
    items: Number(row?.items ?? 0),
    bytes: Number(row?.bytes ?? 0),
    sources: Number(row?.sources ?? 0),
    held: Number(row?.held ?? 0),
  };
}

/** Of `ids`, the sources the tenant has archived items of, as mail (`exchange`) or Teams messages. */
export async function archivedSourcesAmong(
  db: Queryable,
  tenantId: string,
  application: Application,
  ids: readonly string[],
): Promise<Set<string>> {
  const rows = await db.query<{ source: string }>(
    'select distinct source from archive_items where tenant_id = $1 and kind = $2 and source = any($3)',
    [tenantId, application === 'exchange' ? 'mail' : 'teams', [...ids]],
  );
  return new Set(rows.map((r) => r.source));
}

/** Whether the job holds backed-up or archived data of `sourceId`. */
export async function jobHoldsDataOf(db: Queryable, jobId: string, sourceId: string): Promise<boolean> {
  const rows = await db.query(
    `select 1 from backup_items where job_id = $1 and source_id = $2
     union all select 1 from archive_items where job_id = $1 and source = $2 limit 1`,
    [jobId, sourceId],
  );
  return rows.length > 0;
}

/** How many jobs of `type` and `application` the organisation's tenants have, the job `except` aside. */
export async function countOrganisationJobs(
  db: Queryable,
  organisationId: string,
  type: JobType,
  application: Application,
  except: string,
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from jobs j join tenants t on t.tenant_id = j.tenant_id
      where t.organisation_id = $1 and j.type = $2 and j.application = $3 and j.job_id <> $4`,
    [organisationId, type, application, except],
  );
  return Number(row?.n ?? 0);
}

/** The organisation's time zone (undefined: no such organisation). */
export async function organisationTimeZone(db: Queryable, organisationId: string): Promise<string | undefined> {
  const [row] = await db.query<{ time_zone: string }>('select time_zone from organisations where id = $1', [
    organisationId,
  ]);
  return row?.time_zone;
}

/** The location the tenant's backup settings name as its default, if any. */
export async function defaultLocationId(db: Queryable, tenantId: string): Promise<string | null> {
  const [row] = await db.query<{ default_location_id: string | null }>(
    'select default_location_id from backup_config where tenant_id = $1',
    [tenantId],
  );
  return row?.default_location_id ?? null;
}

/** Locks the organisation's row until the transaction `tx` ends: its job creations take turns. */
export async function lockOrganisation(tx: Queryable, organisationId: string): Promise<void> {
  await tx.query('select id from organisations where id = $1 for update', [organisationId]);
}

export async function insertJob(
  db: Queryable,
  job: {
    jobId: string;
    tenantId: string;
    name: string;
    type: JobType;
    application: Application;
    locationId: string | null;
    definition: JobDefinition;
    nextRun: Date | null;
    createdBy: string;
    createdAt: Date;
  },
): Promise<void> {
  await db.query(
    `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, next_run, created_by, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [
      job.jobId,
      job.tenantId,
      job.name,
      job.type,
      job.application,
      job.locationId,
      JSON.stringify(job.definition),
      job.nextRun,
      job.createdBy,
      job.createdAt,
    ],
  );
}

export async function updateJobRow(
  db: Queryable,
  job: {
    jobId: string;
    name: string;
    locationId: string | null;
    definition: JobDefinition;
    nextRun: Date | null;
    updatedAt: Date;
  },
): Promise<void> {
  await db.query(
    `update jobs set name = $2, location_id = $3, definition = $4, next_run = $5, updated_at = $6 where job_id = $1`,
    [job.jobId, job.name, job.locationId, JSON.stringify(job.definition), job.nextRun, job.updatedAt],
  );
}

/**
 * Whether the job has a run queued or running; such runs are locked until the transaction `tx` ends,
 * so none ends or starts unseen meanwhile.
 */
export async function lockActiveRuns(tx: Queryable, jobId: string): Promise<boolean> {
  const active = await tx.query(
    `select 1 from job_runs where job_id = $1 and status in ('queued', 'running') for update`,
    [jobId],
  );
  return active.length > 0;
}

export async function deleteJob(db: Queryable, jobId: string): Promise<void> {
  await db.query('delete from jobs where job_id = $1', [jobId]);
}

/** Whether the backup job has stored any version. */
export async function jobHasBackupItems(db: Queryable, jobId: string): Promise<boolean> {
  return (await db.query('select 1 from backup_items where job_id = $1 limit 1', [jobId])).length > 0;
}

/**
 * The archive items' filter of a retention's preview (retentionScope's clause, its parameters from $3)
 * over those sent (or else archived) before `$2`, as ediscovery's keptCustodians takes it.
 */
export function archivedBeforeFilter(
  before: Date,
  scope: { sql: string; params: SqlValue[] },
): { sql: string; params: SqlValue[] } {
  return { sql: `coalesce(sent_at, archived_at) < $2 and ${scope.sql}`, params: [before, ...scope.params] };
}
