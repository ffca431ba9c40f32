/** The jobs module's reads of jobs and runs that src/jobs/repository.ts (the engine's) does not have. */
import type { JobType } from '@compliance-portal/sdk';
import { notHeld } from '../../archive-data/legal-hold-repository.js';
import type { Queryable, SqlValue } from '../../db/database.js';
import { type JobRecord, type JobRow, type RunRow, toJobRecord } from '../../jobs/repository.js';
import { RUN_SELECT, type RunViewRow, withAccounts } from './runs.js';

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
