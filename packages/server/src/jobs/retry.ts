/**
 * What a retry of an ended run covers. Only the failed items where the job's executor can pick them
 * out again: a restore into an account or site restores only the files, list items and pages that
 * failed (a list that could not be made, with its items); a OneDrive,
 * SharePoint or mail archive run reads again only the accounts, sites or mailboxes that had failures
 * (a drive's or folder's changes are read from where its last complete read ended, so what failed
 * there is read again, and nothing is stored twice). Everything else runs the whole job: a run that
 * failed as a whole or was stopped did not reach every item, a restore as a download makes one ZIP of
 * everything, and Teams, deletion and clean-up runs have no failed items to pick.
 */
import type { Queryable } from '../db/database.js';
import type { JobRecord, RunRow } from './repository.js';

export type RetryScope =
  /** Only these items (their keys in the run's errors). */
  | { kind: 'items'; keys: string[] }
  /** Only these sources of the job, and the failed items' keys among them (tried again even when known to fail). */
  | { kind: 'sources'; sources: string[]; keys: string[] }
  | { kind: 'job' };

/** A run a person may retry: it failed, was stopped, or finished with items that failed. */
export function isRetryable(run: Pick<RunRow, 'status' | 'items_failed' | 'warnings'>): boolean {
  return (
    run.status === 'failed' ||
    run.status === 'stopped' ||
    (run.status === 'finished' && (Number(run.items_failed) > 0 || Number(run.warnings) > 0))
  );
}

export async function retryScopeOf(db: Queryable, job: JobRecord, run: RunRow): Promise<RetryScope> {
  if (run.status !== 'finished') return { kind: 'job' };
  const errors = await db.query<{ item_key: string; source_id: string | null }>(
    'select distinct item_key, source_id from job_run_errors where run_id = $1 order by item_key',
    [run.run_id],
  );
  if (errors.length === 0) return { kind: 'job' };
  const keys = errors.map((e) => e.item_key);
  if (job.type === 'restore' && job.restore?.target !== 'download' && keys.every((k) => k.startsWith('restore:'))) {
    return { kind: 'items', keys };
  }
  const bySource =
    (job.type === 'backup' && job.application !== 'teams') ||
    (job.type === 'exchangeArchive' && job.application === 'exchange');
  const sources = [...new Set(errors.map((e) => e.source_id))];
  if (bySource && sources.every((s): s is string => s !== null && job.sources.includes(s))) {
    return { kind: 'sources', sources, keys };
  }
  return { kind: 'job' };
}

/** A stored scope as it was written (jsonb, or its text on some drivers); none for a run that is no retry. */
export function retryScopeFrom(value: unknown): RetryScope | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as RetryScope;
}
