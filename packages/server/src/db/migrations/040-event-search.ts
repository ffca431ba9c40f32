import type { Migration } from '../migrations.js';

/**
 * What eDiscovery searches of an archived event without reading its blob: its organiser and its
 * attendees (each "name <address>", as mail's sender and recipients are), its location and whether
 * it has file attachments, beside the subject and start that migration 39 keeps. The archive writes
 * them with each new version; versions archived before this migration keep them empty until the
 * event changes (their JSON is in the blob store, encrypted, out of SQL's reach).
 */
export const migration: Migration = {
  id: 40,
  name: 'searchable archived events',
  sql: `
alter table archived_events add column organizer text not null default '';
alter table archived_events add column attendees text not null default '';
alter table archived_events add column location text not null default '';
alter table archived_events add column has_attachments boolean not null default false;
create index archived_events_search on archived_events (tenant_id, mailbox, starts_at);
`,
};
