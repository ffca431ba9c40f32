import type { Migration } from '../migrations.js';

/**
 * An organisation's active tenant and its workers' agree again, and a location keeps the last test
 * of its object store.
 *
 * Before, removing an organisation's active tenant left it with none active while others remained, its
 * workers acting for none; a tenant connected then was not made active either, so the workers stayed
 * without one until somebody switched tenants. Such an organisation's first tenant by name becomes
 * active, and every worker acting for no tenant, or for one that is gone, acts for its organisation's
 * active tenant (none while it has no tenant).
 *
 * `probed_at` is when the location's object store was last tested (a test object written, read back
 * and deleted), `probe_code` why that test failed (null: it worked), `probe_reason` the storage
 * service's own words; all null: never tested (the server's own store, or saved before this).
 */
export const migration: Migration = {
  id: 28,
  name: 'active tenants and location probes',
  sql: `
update tenants set is_active = true
 where tenant_id in (
   select distinct on (t.organisation_id) t.tenant_id from tenants t
    where not exists (select 1 from tenants a where a.organisation_id = t.organisation_id and a.is_active)
    order by t.organisation_id, lower(t.tenant_name), t.tenant_id);
update workers w set stagingtenant_id = (
   select t.tenant_id from tenants t where t.organisation_id = w.organisation_id and t.is_active
    order by t.tenant_id limit 1)
 where w.stagingtenant_id is null
    or not exists (select 1 from tenants t where lower(t.tenant_id) = lower(w.stagingtenant_id));
alter table locations add column probed_at timestamptz;
alter table locations add column probe_code text;
alter table locations add column probe_reason text;
`,
};
