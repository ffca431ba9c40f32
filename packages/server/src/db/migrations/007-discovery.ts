import type { Migration } from '../migrations.js';

/**
 * What discovery found in a tenant (accounts, sites, teams, mailboxes with their names, so reports
 * and dashboards show names rather than ids), and the document libraries a backup read per site.
 */
export const migration: Migration = {
  id: 7,
  name: 'discovered sources and backed-up libraries',
  sql: `
create table discovered_sources (
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  application text not null,
  source_id text not null,
  kind text not null,
  display_name text not null,
  email text,
  url text,
  seen_at timestamptz not null,
  primary key (tenant_id, application, source_id)
);
create index discovered_sources_name on discovered_sources(tenant_id, application, lower(display_name));

create table backup_drives (
  job_id text not null references jobs(job_id) on delete cascade,
  source_id text not null,
  drive_id text not null,
  name text not null,
  primary key (job_id, source_id, drive_id)
);
`,
};
