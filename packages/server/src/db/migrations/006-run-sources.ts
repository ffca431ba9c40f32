import type { Migration } from '../migrations.js';

/** Per-source counters of a run (the accounts, sites, mailboxes or teams of its report). */
export const migration: Migration = {
  id: 6,
  name: 'run sources',
  sql: `
create table job_run_sources (
  run_id text not null references job_runs(run_id) on delete cascade,
  source_id text not null,
  items integer not null default 0,
  failed_items integer not null default 0,
  bytes bigint not null default 0,
  failed boolean not null default false,
  primary key (run_id, source_id)
);
alter table job_run_errors add column source_id text;
create index job_run_errors_source on job_run_errors(run_id, source_id);
`,
};
