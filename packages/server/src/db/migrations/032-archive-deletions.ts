import type { Migration } from '../migrations.js';

/**
 * What retention deleted from the archive, per deletion run, mailbox, team or chat and the day the
 * items had been archived: the archive's per-day figures keep what was archived on each day after
 * its items are deleted (a deletion appears on its own day, as a deletion, and never rewrites the
 * days before it), and a deletion run's report lists each source with what it removed there.
 * Like archive_usage, its rows go with the organisation's deletion (deletion.ts), not by a key: a
 * deletion outside a run (run_id '') may concern any tenant id.
 */
export const migration: Migration = {
  id: 32,
  name: 'archive deletions',
  sql: `
create table archive_deletions (
  tenant_id text not null,
  run_id text not null,
  kind text not null,
  source text not null,
  archived_day date not null,
  deleted_at timestamptz not null,
  items integer not null,
  bytes bigint not null,
  primary key (run_id, kind, source, archived_day)
);
create index archive_deletions_tenant on archive_deletions(tenant_id, kind, deleted_at);
`,
};
