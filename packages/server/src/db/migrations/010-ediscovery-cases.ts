import type { Migration } from '../migrations.js';

/** eDiscovery cases: saved searches of a tenant's archive. */
export const migration: Migration = {
  id: 10,
  name: 'ediscovery cases',
  sql: `
create table ediscovery_cases (
  case_id text primary key,
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  name text not null,
  search jsonb not null,
  created_by text not null,
  created_at timestamptz not null,
  hits integer not null
);
create unique index ediscovery_cases_name on ediscovery_cases(tenant_id, lower(name));
`,
};
