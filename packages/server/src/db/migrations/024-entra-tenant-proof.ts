import type { Migration } from '../migrations.js';

/**
 * An Entra tenant is bound to an organisation only once it has proved that it controls the directory.
 * A tenant id an organisation sets waits as pending (since, until 7 days later, set by whom); several
 * organisations may have the same one pending, so nobody can claim a directory ahead of its owner. The
 * first member of the organisation who signs in with Microsoft from it binds it (when and by whom
 * recorded), or the operator does (`entra:reassign`); only bound tenants are unique (migration 23's
 * index). A binding made before this migration stays bound only when a member has already signed in
 * with Microsoft from it (a user's `entra_object_id` is set); otherwise it becomes pending from now,
 * with password sign-in on. Sessions record how and when they signed in, for the sign-in settings'
 * confirmation by a recent sign-in with Microsoft.
 */
export const migration: Migration = {
  id: 24,
  name: 'entra tenant proof',
  sql: `
alter table organisations add column entra_tenant_bound_at timestamptz;
alter table organisations add column entra_tenant_bound_by text;
alter table organisations add column entra_tenant_proof text check (entra_tenant_proof in ('microsoftSignIn', 'operator'));
alter table organisations add column entra_pending_tenant_id text;
alter table organisations add column entra_pending_since timestamptz;
alter table organisations add column entra_pending_expires_at timestamptz;
alter table organisations add column entra_pending_set_by text;
create index organisations_entra_pending on organisations(entra_pending_tenant_id) where entra_pending_tenant_id is not null;
update organisations o set
  entra_tenant_proof = 'microsoftSignIn',
  entra_tenant_bound_at = coalesce(
    (select min(a.at) from audit_log a where a.organisation_id = o.id and a.action = 'auth.microsoft' and a.outcome = 'success'),
    now()),
  entra_tenant_bound_by = coalesce(
    (select a.actor_email from audit_log a where a.organisation_id = o.id and a.action = 'auth.microsoft' and a.outcome = 'success' order by a.seq limit 1),
    (select min(u.email) from users u where u.organisation_id = o.id and u.entra_object_id is not null))
  where o.entra_tenant_id is not null
    and exists (select 1 from users u where u.organisation_id = o.id and u.entra_object_id is not null);
update organisations set
  entra_pending_tenant_id = entra_tenant_id,
  entra_pending_since = now(),
  entra_pending_expires_at = now() + interval '7 days',
  entra_tenant_id = null,
  password_sign_in = true
  where entra_tenant_id is not null and entra_tenant_proof is null;
alter table sessions add column sign_in_method text check (sign_in_method in ('password', 'microsoft'));
alter table sessions add column signed_in_at timestamptz;
`,
};
