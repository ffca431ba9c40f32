import type { Migration } from '../migrations.js';

/**
 * A SharePoint site's lists and pages, backed up with its document libraries, as temporal rows like
 * `backup_items` (a row per version with the run that first stored it, `first_seq`, and the one that
 * saw it deleted, `deleted_seq`), so that a restore point means the same for a list item as for a
 * file: the rows alive at that run, each item at its newest version stored by then.
 *
 * - `backup_lists`: a list's definition (name, template, columns, content types) as Graph described
 *   it, a new row whenever it changed (keyed by the run that stored it: a definition may change back).
 * - `backup_list_items`: every version of every item with its fields as Graph's fieldValueSet; a
 *   deleted item is marked, never dropped.
 * - `backup_pages`: a site page with its canvas (sections, columns, web parts) per version seen.
 *
 * The items' delta link per list is kept with the job's others (job_delta_links). `tenant_id` beside
 * the job lets the browsing to come find a tenant's sites without joining the jobs. The run's new
 * counters sit beside its files count (`items_done`), whose meaning does not change.
 */
export const migration: Migration = {
  id: 38,
  name: 'site lists and pages',
  sql: `
create table backup_lists (
  job_id text not null references jobs(job_id) on delete cascade,
  tenant_id text not null,
  site_id text not null,
  list_id text not null,
  first_seq bigint not null,
  deleted_seq bigint,
  name text not null,
  display_name text not null,
  template text not null,
  definition jsonb not null,
  primary key (job_id, site_id, list_id, first_seq)
);
create index backup_lists_tenant_site on backup_lists(tenant_id, site_id);
create table backup_list_items (
  job_id text not null references jobs(job_id) on delete cascade,
  tenant_id text not null,
  site_id text not null,
  list_id text not null,
  item_id text not null,
  version_id text not null,
  fields jsonb not null,
  modified_at timestamptz,
  is_latest boolean not null,
  first_seq bigint not null,
  deleted_seq bigint,
  primary key (job_id, site_id, list_id, item_id, version_id)
);
create index backup_list_items_live on backup_list_items(job_id, site_id, list_id, item_id) where deleted_seq is null;
create table backup_pages (
  job_id text not null references jobs(job_id) on delete cascade,
  tenant_id text not null,
  site_id text not null,
  page_id text not null,
  version_id text not null,
  name text not null,
  title text not null,
  page jsonb not null,
  modified_at timestamptz,
  first_seq bigint not null,
  deleted_seq bigint,
  primary key (job_id, site_id, page_id, version_id)
);
create index backup_pages_live on backup_pages(job_id, site_id, page_id) where deleted_seq is null;
alter table job_runs add column list_items_done integer not null default 0;
alter table job_runs add column pages_done integer not null default 0;
`,
};
