import type { Migration } from '../migrations.js';

/** Proxy rights: an account or a distribution group may read another mailbox's archive. */
export const migration: Migration = {
  id: 9,
  name: 'proxy rights',
  sql: `
create table proxy_rights (
  right_id text primary key,
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  mailbox_id text not null,
  mailbox_name text not null,
  principal_id text not null,
  principal_kind text not null check (principal_kind in ('account', 'distributionGroup')),
  principal_name text not null,
  principal_email text not null,
  granted_by text not null,
  granted_at timestamptz not null,
  unique (tenant_id, mailbox_id, principal_id)
);
create index proxy_rights_principal on proxy_rights(tenant_id, principal_id);
`,
};
