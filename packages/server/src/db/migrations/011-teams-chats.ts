import type { Migration } from '../migrations.js';

/**
 * Teams chats in the archive: their messages are archive items of kind 'chat' (the chat's id as
 * source), and each chat's type, topic and members are kept so that eDiscovery shows a chat only to
 * people who may read one of its members' mailboxes.
 */
export const migration: Migration = {
  id: 11,
  name: 'teams chats',
  sql: `
alter table archive_items drop constraint archive_items_kind_check;
alter table archive_items add constraint archive_items_kind_check check (kind in ('mail', 'teams', 'chat'));
create table archived_chats (
  tenant_id text not null,
  chat_id text not null,
  chat_type text not null,
  topic text,
  name text not null,
  member_ids text[] not null,
  member_names text[] not null,
  updated_at timestamptz not null,
  primary key (tenant_id, chat_id)
);
create index archived_chats_members on archived_chats using gin (member_ids);
`,
};
