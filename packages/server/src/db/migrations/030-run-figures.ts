import type { Migration } from '../migrations.js';

/**
 * What a run says about itself beyond its counters: why a failed run failed in Microsoft's terms
 * (`error_code`, Graph's error code or the error's name; `error_status`, the HTTP status) beside its
 * reason in words (`message`); an item failure's HTTP status beside its code; and Microsoft 365's
 * throttling while the run waits for it: since when (`throttled_since`, null while it is not
 * waiting), the next try (`throttle_next_try`), the status that made it wait (429, 503 …), the
 * retries over the whole run and the time waited in all (`throttled_ms`, closed waits only).
 */
export const migration: Migration = {
  id: 30,
  name: 'run failures and throttling',
  sql: `
alter table job_runs add column error_code text;
alter table job_runs add column error_status integer;
alter table job_runs add column throttled_since timestamptz;
alter table job_runs add column throttle_next_try timestamptz;
alter table job_runs add column throttle_status integer;
alter table job_runs add column throttle_retries integer not null default 0;
alter table job_runs add column throttled_ms bigint not null default 0;
alter table job_run_errors add column status integer;
`,
};
