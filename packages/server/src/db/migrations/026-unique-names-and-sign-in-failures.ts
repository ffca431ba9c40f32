import type { Migration } from '../migrations.js';

/**
 * Uniqueness the database enforces, so that concurrent creates meet an index rather than slip past a
 * check, and failed sign-ins of unknown addresses:
 * - A location's name is unique within its tenant, case-insensitively (the service checked it only in
 *   code). Names that already repeat keep the oldest as it is; the others get their id's first eight
 *   characters in brackets.
 * - A short name (`abbr`) is no longer unique platform-wide: a partner's short names are unique among
 *   its own organisation and its clients (the family of `coalesce(partner_id, id)`), so choosing one
 *   tells a partner nothing of other partners' or customers' short names. Organisations without a
 *   partner (partners, operators and self-registered customers, whose short names nobody chooses)
 *   stay unique among themselves.
 * - `sign_in_failures` counts failed sign-ins of addresses that are no account's, by an HMAC of the
 *   normalised address, under the same lockout rule as accounts: an unknown address then answers as a
 *   real one does.
 */
export const migration: Migration = {
  id: 26,
  name: 'unique names and sign-in failures',
  sql: `
update locations l set name = l.name || ' (' || left(l.location_id, 8) || ')'
  from (select location_id,
               row_number() over (partition by tenant_id, lower(name) order by created_at, location_id) as n
          from locations) d
 where d.location_id = l.location_id and d.n > 1;
create unique index locations_name on locations(tenant_id, lower(name));
alter table organisations drop constraint organisations_abbr_key;
create unique index organisations_abbr_family on organisations(coalesce(partner_id, id), lower(abbr));
create unique index organisations_abbr_top on organisations(lower(abbr)) where partner_id is null;
create index organisations_abbr on organisations(lower(abbr));
create table sign_in_failures (
  address_hash text primary key,
  failed_attempts integer not null,
  lockout_until timestamptz,
  updated_at timestamptz not null
);
create index sign_in_failures_updated on sign_in_failures(updated_at);
`,
};
