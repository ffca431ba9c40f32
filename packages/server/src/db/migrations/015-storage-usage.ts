import type { Migration } from '../migrations.js';

/**
 * Data management's storage analysis: per SharePoint site, the bytes its files take with all their
 * versions and the old (not current) versions among them, and per day the tenant's total, so the
 * dashboard shows storage used over 30 days and the sites worth a clean-up.
 */
export const migration: Migration = {
  id: 15,
  name: 'storage usage',
  sql: `
create table storage_usage (
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  source_id text not null,
  kind text not null check (kind in ('site', 'team')),
  display_name text not null,
  files integer not null,
  used_bytes bigint not null,
  old_versions integer not null,
  old_version_bytes bigint not null,
  analysed_at timestamptz not null,
  primary key (tenant_id, source_id)
);
create table storage_daily (
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  day date not null,
  used_bytes bigint not null,
  primary key (tenant_id, day)
);
`,
};
