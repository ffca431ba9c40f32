import type { Migration } from '../migrations.js';

/**
 * Sign-in with Microsoft Entra ID: per organisation whether it is on, the Entra tenant it is bound to
 * (one organisation per tenant) and whether password sign-in stays on; per user the Entra object id
 * linked at the first sign-in; and the sign-ins under way (state, PKCE verifier, nonce), kept in the
 * database so that any API process can finish what another began.
 */
export const migration: Migration = {
  id: 23,
  name: 'entra sign-in',
  sql: `
alter table organisations add column entra_sign_in boolean not null default false;
alter table organisations add column entra_tenant_id text;
alter table organisations add column password_sign_in boolean not null default true;
create unique index organisations_entra_tenant on organisations(entra_tenant_id) where entra_tenant_id is not null;
alter table users add column entra_object_id text;
create unique index users_entra_object on users(organisation_id, entra_object_id) where entra_object_id is not null;
create table entra_sign_ins (
  state_hash text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  tenant_id text not null,
  code_verifier_sealed text not null,
  nonce text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index entra_sign_ins_expiry on entra_sign_ins(expires_at);
`,
};
