import type { Migration } from '../migrations.js';

/**
 * Tenants connected by admin consent: the admin consents under way (the state's hash, who started
 * it for which organisation, the tenant asked about or the name of the one to connect, the app
 * registration with its secret sealed until the answer comes; ten minutes), kept in the database so
 * that any API process can finish what another began; and per tenant when an administrator last
 * consented through the portal, and who started it.
 */
export const migration: Migration = {
  id: 27,
  name: 'tenant admin consent',
  sql: `
create table tenant_consents (
  state_hash text primary key,
  user_id text not null references users(id) on delete cascade,
  organisation_id text not null references organisations(id) on delete cascade,
  tenant_id text,
  tenant_name text,
  application_id text not null,
  client_secret_sealed text,
  directory text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  check ((tenant_id is null) = (client_secret_sealed is not null))
);
create index tenant_consents_expiry on tenant_consents(expires_at);
alter table tenants add column admin_consent_at timestamptz;
alter table tenants add column admin_consent_by text;
`,
};
