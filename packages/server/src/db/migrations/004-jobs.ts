import type { Migration } from '../migrations.js';

/**
 * The job engine: runs (the queue), per-item errors, permanent failures that later runs skip, delta
 * links for incremental runs, start/stop tasks; backed-up items as temporal rows (a snapshot is the
 * rows alive at a run's sequence number); the organisation's time zone for schedules.
 */
export const migration: Migration = {
  id: 4,
  name: 'job engine, runs, backup items',
  sql: `
alter table organisations add column time_zone text not null default 'UTC';
alter table jobs add column message text;
alter table jobs add column created_by text;

create table job_runs (
  run_id text primary key,
  seq bigserial not null unique,
  job_id text not null references jobs(job_id) on delete cascade,
  tenant_id text not null,
  trigger text not null check (trigger in ('schedule', 'manual', 'creation')),
  status text not null check (status in ('queued', 'running', 'finished', 'failed', 'stopped')),
  run_after timestamptz not null,
  attempt integer not null default 0,
  worker_id text,
  heartbeat_at timestamptz,
  cancel_requested boolean not null default false,
  progress integer not null default 0,
  items_total integer not null default 0,
  items_done integer not null default 0,
  items_failed integer not null default 0,
  bytes bigint not null default 0,
  warnings integer not null default 0,
  message text,
  checkpoint jsonb not null default '{}',
  created_at timestamptz not null,
  started timestamptz,
  finished timestamptz
);
create unique index job_runs_one_active on job_runs(job_id) where status in ('queued', 'running');
create index job_runs_queue on job_runs(run_after) where status = 'queued';
create index job_runs_job on job_runs(job_id, seq desc);

create table job_run_errors (
  id bigserial primary key,
  run_id text not null references job_runs(run_id) on delete cascade,
  item_key text not null,
  item_name text not null,
  code text not null,
  message text not null,
  permanent boolean not null,
  attempts integer not null,
  at timestamptz not null
);
create index job_run_errors_run on job_run_errors(run_id, id);

create table job_item_failures (
  job_id text not null references jobs(job_id) on delete cascade,
  item_key text not null,
  item_name text not null,
  code text not null,
  reason text not null,
  first_seen timestamptz not null,
  last_seen timestamptz not null,
  primary key (job_id, item_key)
);

create table job_delta_links (
  job_id text not null references jobs(job_id) on delete cascade,
  source_key text not null,
  delta_link text not null,
  updated_at timestamptz not null,
  primary key (job_id, source_key)
);

create table job_tasks (
  task_id text primary key,
  job_id text not null references jobs(job_id) on delete cascade,
  action text not null check (action in ('start', 'stop')),
  status text not null check (status in ('pending', 'running', 'succeeded', 'failed')),
  message text,
  created_at timestamptz not null,
  finished_at timestamptz
);
create index job_tasks_job on job_tasks(job_id, created_at desc);

create table backup_items (
  job_id text not null references jobs(job_id) on delete cascade,
  source_id text not null,
  item_id text not null,
  version_id text not null,
  drive_id text,
  kind text not null,
  name text not null,
  path text not null,
  parent_id text,
  size bigint not null default 0,
  hash text,
  modified_at timestamptz,
  is_latest boolean not null,
  first_seq bigint not null,
  deleted_seq bigint,
  metadata jsonb not null default '{}',
  primary key (job_id, source_id, item_id, version_id)
);
create index backup_items_live on backup_items(job_id, source_id, item_id) where deleted_seq is null;
create index backup_items_hash on backup_items(hash);
`,
};
