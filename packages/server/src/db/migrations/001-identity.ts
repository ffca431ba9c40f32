import type { Migration } from '../migrations.js';

/** Identity, organisations, tenants, locations, jobs, audit. */
export const migration: Migration = {
  id: 1,
  name: 'identity, organisations, tenants, locations, jobs, audit',
  sql: `
create table organisations (
  id text primary key,
  name text not null,
  kind text not null check (kind in ('customer', 'partner', 'operator')),
  partner_id text references organisations(id),
  license text not null check (license in ('trial', 'full')),
  license_valid_until timestamptz,
  abbr text not null unique,
  created_at timestamptz not null default now()
);

create table users (
  id text primary key,
  email text not null unique,
  display_name text not null,
  password_hash text not null,
  role text not null check (role in ('admin', 'partner', 'operator')),
  organisation_id text not null references organisations(id),
  email_confirmed boolean not null default false,
  totp_secret text,
  totp_enabled boolean not null default false,
  totp_last_step bigint not null default 0,
  failed_attempts integer not null default 0,
  lockout_until timestamptz,
  created_at timestamptz not null default now()
);

create table recovery_codes (
  user_id text not null references users(id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  primary key (user_id, code_hash)
);

create table sessions (
  token_hash text primary key,
  user_id text not null references users(id) on delete cascade,
  kind text not null check (kind in ('signin', 'access', 'refresh', 'session')),
  family text not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  created_at timestamptz not null default now(),
  ip text
);
create index sessions_user on sessions(user_id);
create index sessions_family on sessions(family);

create table one_time_codes (
  code_hash text primary key,
  user_id text not null references users(id) on delete cascade,
  purpose text not null check (purpose in ('reset', 'confirm')),
  expires_at timestamptz not null,
  used_at timestamptz
);

create table workers (
  id text primary key,
  organisation_id text not null unique references organisations(id),
  worker_ip text not null unique,
  index_ip text not null,
  stagingtenant_id text
);

create table tenants (
  tenant_id text primary key,
  organisation_id text not null references organisations(id),
  tenant_name text not null,
  application_id text not null,
  object_id text not null,
  redirect_uri text not null,
  client_secret_enc text,
  is_active boolean not null default false,
  provisioning text not null default 'notProvisioned',
  graph_base_url text,
  authority_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index tenants_org on tenants(organisation_id);

create table provisioning_tasks (
  task_id text primary key,
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  kind text not null,
  status text not null,
  progress integer not null default 0,
  message text,
  started timestamptz not null default now(),
  finished timestamptz
);

create table locations (
  location_id text primary key,
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  name text not null,
  site_address text not null,
  created_at timestamptz not null default now()
);

create table jobs (
  job_id text primary key,
  tenant_id text not null references tenants(tenant_id) on delete cascade,
  name text not null,
  type text not null,
  application text not null,
  location_id text references locations(location_id),
  definition jsonb not null default '{}',
  status text not null default 'pending',
  enabled boolean not null default true,
  progress integer not null default 0,
  started timestamptz,
  finished timestamptz,
  next_run timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index jobs_location on jobs(location_id);

create table backup_config (
  tenant_id text primary key references tenants(tenant_id) on delete cascade,
  default_location_id text references locations(location_id) on delete set null,
  price_per_gb_month numeric not null default 0.02,
  currency text not null default 'EUR',
  teams_configured boolean not null default false,
  exchange_configured boolean not null default false,
  max_concurrency integer not null default 4
);

create table notification_settings (
  user_id text primary key references users(id) on delete cascade,
  settings jsonb not null
);

create table audit_log (
  seq bigint primary key,
  at timestamptz not null,
  actor_user_id text,
  actor_email text,
  organisation_id text,
  action text not null,
  target text,
  outcome text not null check (outcome in ('success', 'failure')),
  ip text,
  details jsonb not null default '{}',
  prev_hash text not null,
  hash text not null
);
create index audit_org on audit_log(organisation_id, seq);
`,
};
