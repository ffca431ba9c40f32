import type { Migration } from '../migrations.js';

/** Data management: per file of a clean-up run, its versions, those eligible under the rule and what they free. */
export const migration: Migration = {
  id: 5,
  name: 'version clean-up inventory',
  sql: `
create table version_inventory (
  run_id text not null references job_runs(run_id) on delete cascade,
  job_id text not null references jobs(job_id) on delete cascade,
  source_id text not null,
  drive_id text not null,
  item_id text not null,
  path text not null,
  versions integer not null,
  eligible integer not null,
  eligible_bytes bigint not null,
  deleted integer not null,
  freed_bytes bigint not null,
  primary key (run_id, drive_id, item_id)
);
create index version_inventory_job on version_inventory(job_id, run_id);
`,
};
