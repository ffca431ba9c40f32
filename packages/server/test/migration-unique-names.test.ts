/**
 * Migration 27 on a database that was in use before it: locations whose names repeat within a tenant
 * (allowed until then) keep the oldest name and give the others a suffix, so that the new unique index
 * can be made; short names stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { openTestDatabase } from './helpers.js';

describe('migration 26 on a database in use', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db);
    // The database as it was before migration 26.
    await db.exec(`
      drop table sign_in_failures;
      drop index organisations_abbr;
      drop index organisations_abbr_top;
      drop index organisations_abbr_family;
      alter table organisations add constraint organisations_abbr_key unique (abbr);
      drop index locations_name;
      delete from schema_migrations where id = 26;
      insert into organisations (id, name, kind, license, abbr) values ('o1', 'One', 'customer', 'full', 'one');
      insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri)
        values ('t1', 'o1', 'one', 'a', 'b', 'https://x.example'), ('t2', 'o1', 'two', 'a', 'b', 'https://x.example');
      insert into locations (location_id, tenant_id, name, site_address, created_at) values
        ('aaaaaaaa-1', 't1', 'Vault', 's', '2026-01-01'),
        ('bbbbbbbb-2', 't1', 'VAULT', 's', '2026-01-02'),
        ('cccccccc-3', 't1', 'vault', 's', '2026-01-03'),
        ('dddddddd-4', 't2', 'Vault', 's', '2026-01-04');`);
  });
  afterAll(() => drop());

  it('keeps the oldest of repeated names, suffixes the others, and makes names unique per tenant', async () => {
    expect(await migrate(db)).toEqual([26]);
    const names = await db.query<{ location_id: string; name: string }>(
      'select location_id, name from locations order by location_id',
    );
    expect(names).toEqual([
      { location_id: 'aaaaaaaa-1', name: 'Vault' },
      { location_id: 'bbbbbbbb-2', name: 'VAULT (bbbbbbbb)' },
      { location_id: 'cccccccc-3', name: 'vault (cccccccc)' },
      // Another tenant's location of the same name is no repetition.
      { location_id: 'dddddddd-4', name: 'Vault' },
    ]);
    const again = await db
      .query(`insert into locations (location_id, tenant_id, name, site_address) values ('e', 't1', 'vAuLt', 's')`)
      .then(
        () => undefined,
        (error: { constraint?: string }) => error.constraint,
      );
    expect(again).toBe('locations_name');
    expect((await db.query('select abbr from organisations')).length).toBe(1);
  });
});
