import type { Migration } from '../migrations.js';

/**
 * A mailbox's calendars, contacts and To Do tasks, archived beside its mail by the Exchange archive.
 * Each item is kept as Graph gave it (its JSON, a task with its checklist items) in the blob store, as
 * mail's MIME is, and an event's file attachments each as a blob of their bytes. Rows are versions:
 * an item Graph reports changed gets a new version when its JSON differs, the earlier ones stay; an
 * item Graph reports deleted keeps its versions and its latest is marked `deleted_at`. The columns
 * beside the blob are what a list or a search shows without reading it. Delta links stay in
 * job_delta_links, per calendar, contact folder and To Do list, as mail's are per folder.
 * `job_runs.mailbox_items` holds what an Exchange archive run archived of them (events, contacts,
 * tasks, attachments, deletions) beside the run's own counters, which stay the mail's.
 */
export const migration: Migration = {
  id: 39,
  name: 'archived calendars, contacts and tasks',
  sql: `
create table archived_events (
  tenant_id text not null,
  mailbox text not null,
  external_id text not null,
  version integer not null,
  calendar_id text not null,
  calendar_name text not null,
  -- singleInstance, occurrence, exception or seriesMaster, as Graph's event type.
  event_type text not null,
  series_master_id text,
  subject text not null default '',
  starts_at timestamptz,
  ends_at timestamptz,
  blob_hash text not null,
  size bigint not null,
  location_id text,
  job_id text,
  archived_at timestamptz not null,
  deleted_at timestamptz,
  primary key (tenant_id, mailbox, external_id, version)
);
create index archived_events_blob on archived_events (blob_hash);
create table archived_event_attachments (
  tenant_id text not null,
  mailbox text not null,
  event_id text not null,
  version integer not null,
  attachment_id text not null,
  name text not null,
  content_type text not null default '',
  is_inline boolean not null default false,
  size bigint not null,
  blob_hash text not null,
  location_id text,
  primary key (tenant_id, mailbox, event_id, version, attachment_id)
);
create index archived_event_attachments_blob on archived_event_attachments (blob_hash);
create table archived_contacts (
  tenant_id text not null,
  mailbox text not null,
  external_id text not null,
  version integer not null,
  folder_id text not null,
  folder_path text not null,
  display_name text not null default '',
  email text not null default '',
  blob_hash text not null,
  size bigint not null,
  location_id text,
  job_id text,
  archived_at timestamptz not null,
  deleted_at timestamptz,
  primary key (tenant_id, mailbox, external_id, version)
);
create index archived_contacts_blob on archived_contacts (blob_hash);
create table archived_tasks (
  tenant_id text not null,
  mailbox text not null,
  external_id text not null,
  version integer not null,
  list_id text not null,
  list_name text not null,
  title text not null default '',
  status text not null default '',
  due_at timestamptz,
  blob_hash text not null,
  size bigint not null,
  location_id text,
  job_id text,
  archived_at timestamptz not null,
  deleted_at timestamptz,
  primary key (tenant_id, mailbox, external_id, version)
);
create index archived_tasks_blob on archived_tasks (blob_hash);
alter table job_runs add column mailbox_items jsonb;
`,
};
