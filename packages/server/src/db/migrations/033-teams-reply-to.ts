import type { Migration } from '../migrations.js';

/**
 * The post an archived Teams message replies to, so that a channel's or chat's archive reads as
 * threads (replies under their post) without opening every message: `reply_to` is the post's Graph
 * id, '' for a post. Null: not known yet (archived before this column); the archive's reader fills
 * it from the message it keeps, once, when its channel or chat is first read.
 */
export const migration: Migration = {
  id: 33,
  name: 'teams reply-to',
  sql: `
alter table archive_items add column reply_to text;
create index archive_items_thread on archive_items (tenant_id, kind, source, container, reply_to)
  where kind in ('teams', 'chat');
`,
};
