import type { Migration } from '../migrations.js';

/**
 * A run can retry an earlier one (`trigger` 'retry'): `retry_of` names the run it retries and
 * `retry_scope` what it covers, decided when the retry was asked for (jobs/retry.ts): only the failed
 * items, only the sources that had failures, or the whole job.
 */
export const migration: Migration = {
  id: 31,
  name: 'run retries',
  sql: `
alter table job_runs add column retry_of text references job_runs(run_id) on delete set null;
alter table job_runs add column retry_scope jsonb;
alter table job_runs drop constraint job_runs_trigger_check;
alter table job_runs add constraint job_runs_trigger_check check (trigger in ('schedule', 'manual', 'creation', 'retry'));
`,
};
