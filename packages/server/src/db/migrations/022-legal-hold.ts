import type { Migration } from '../migrations.js';

/**
 * Legal hold on eDiscovery cases. A held case keeps the archived items its search found when it was
 * held, and those archived since that match it (evaluated up to `hold_through`, the highest
 * archive_items.id looked at), in the scope frozen at hold time (`hold_scope`). Retention skips held
 * items; each deletion run records what it kept for its report. No foreign key from a hold to the
 * archive: retention never removes a held item, and an organisation's deletion removes the cases too.
 */
export const migration: Migration = {
  id: 22,
  name: 'legal hold',
  sql: `
alter table ediscovery_cases add column held_at timestamptz;
alter table ediscovery_cases add column held_by text;
alter table ediscovery_cases add column hold_scope jsonb;
alter table ediscovery_cases add column hold_through bigint;
create table legal_hold_items (
  case_id text not null references ediscovery_cases(case_id) on delete cascade,
  tenant_id text not null,
  item_id bigint not null,
  primary key (case_id, item_id)
);
create index legal_hold_items_item on legal_hold_items(tenant_id, item_id);
create table run_held_items (
  run_id text not null references job_runs(run_id) on delete cascade,
  item_id bigint not null,
  case_id text not null,
  case_name text not null,
  kind text not null,
  source text not null,
  source_name text not null,
  subject text not null,
  sent_at timestamptz,
  primary key (run_id, item_id, case_id)
);
`,
};
