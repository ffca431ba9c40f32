/**
 * Migration 28 on a database that was in use before it: an organisation whose active tenant was
 * removed (none active, its worker on no tenant) gets its first tenant by name as its active one and
 * its worker acts for it; a worker pointing at a tenant that is gone follows too; an organisation in
 * order is left as it was; locations gain the columns of their store's last test, empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { openTestDatabase } from './helpers.js';

describe('migration 28 on a database in use', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
    await migrate(db, { through: 27 });
    await db.exec(`
      insert into organisations (id, name, kind, license, abbr) values
        ('o1', 'One', 'customer', 'full', 'one'),
        ('o2', 'Two', 'customer', 'full', 'two'),
        ('o3', 'Three', 'customer', 'full', 'three'),
        ('o4', 'Four', 'customer', 'full', 'four');
      insert into tenants (tenant_id, organisation_id, tenant_name, application_id, object_id, redirect_uri, is_active) values
        ('t1b', 'o1', 'Beta', 'a', 'b', 'https://x.example', false),
        ('t1a', 'o1', 'alpha', 'a', 'b', 'https://x.example', false),
        ('t2a', 'o2', 'alpha', 'a', 'b', 'https://x.example', false),
        ('t2b', 'o2', 'beta', 'a', 'b', 'https://x.example', true),
        ('t3a', 'o3', 'alpha', 'a', 'b', 'https://x.example', true);
      insert into workers (id, organisation_id, worker_ip, index_ip, stagingtenant_id) values
        ('w1', 'o1', '10.64.0.1', '10.65.0.1', null),
        ('w2', 'o2', '10.64.0.2', '10.65.0.2', 't2b'),
        ('w3', 'o3', '10.64.0.3', '10.65.0.3', 'gone'),
        ('w4', 'o4', '10.64.0.4', '10.65.0.4', null);
      insert into locations (location_id, tenant_id, name, site_address, created_at) values
        ('l1', 't1a', 'Vault', 'https://one.sharepoint.com/sites/vault', '2026-01-01');`);
  });
  afterAll(() => drop());

  it('makes the tenants and workers of every organisation agree, and leaves locations untested', async () => {
    // Migration 28 and every one after it, in order, whatever later releases add.
    const applied = await migrate(db);
    expect(applied.slice(0, 10)).toEqual([28, 29, 30, 31, 32, 33, 34, 35, 36, 37]);
    expect(applied).toEqual(applied.map((_, n) => 28 + n));
    const tenants = await db.query<{ tenant_id: string; is_active: boolean }>(
      'select tenant_id, is_active from tenants order by tenant_id',
    );
    expect(tenants).toEqual([
      { tenant_id: 't1a', is_active: true },
      { tenant_id: 't1b', is_active: false },
      { tenant_id: 't2a', is_active: false },
      { tenant_id: 't2b', is_active: true },
      { tenant_id: 't3a', is_active: true },
    ]);
    const workers = await db.query<{ id: string; stagingtenant_id: string | null }>(
      'select id, stagingtenant_id from workers order by id',
    );
    expect(workers).toEqual([
      { id: 'w1', stagingtenant_id: 't1a' },
      { id: 'w2', stagingtenant_id: 't2b' },
      { id: 'w3', stagingtenant_id: 't3a' },
      // No tenant at all: still none.
      { id: 'w4', stagingtenant_id: null },
    ]);
    expect(await db.query('select probed_at, probe_code, probe_reason from locations')).toEqual([
      { probed_at: null, probe_code: null, probe_reason: null },
    ]);
  });
});
