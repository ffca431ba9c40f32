import type { Migration } from '../migrations.js';

/** Support requests sent from /account/support: kept, and mailed to the support address. */
export const migration: Migration = {
  id: 13,
  name: 'support requests',
  sql: `
create table support_requests (
  request_id text primary key,
  reference text not null unique,
  user_id text not null references users(id) on delete cascade,
  organisation_id text not null,
  area text not null,
  subject text not null,
  message text not null,
  phone text,
  created_at timestamptz not null
);
create index support_requests_user on support_requests(user_id, created_at);
`,
};
