import type { Migration } from '../migrations.js';

/**
 * The archive of Exchange mail and Teams messages: metadata here, content in the blob store, and a
 * search vector in English and German (stemming in both) for eDiscovery.
 */
export const migration: Migration = {
  id: 3,
  name: 'archive with full-text search',
  sql: `
create table archive_items (
  id bigserial primary key,
  tenant_id text not null,
  kind text not null check (kind in ('mail', 'teams')),
  source text not null,
  container text not null,
  external_id text not null,
  subject text not null default '',
  sender text not null default '',
  recipients text not null default '',
  sent_at timestamptz,
  size bigint not null default 0,
  has_attachments boolean not null default false,
  blob_hash text not null,
  preview text not null default '',
  job_id text,
  archived_at timestamptz not null,
  search tsvector not null,
  unique (tenant_id, kind, source, external_id)
);
create index archive_items_search on archive_items using gin (search);
create index archive_items_browse on archive_items (tenant_id, kind, source, sent_at desc);
create index archive_items_blob on archive_items (blob_hash);
`,
};
