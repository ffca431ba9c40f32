import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../src/access/actor.js';
import type { AppContext } from '../src/context.js';
import {
  activeTenantLocations,
  changeLocation,
  createLocation,
  LOCATION_IN_USE,
  removeLocation,
  requireLocation,
  tenantLocations,
} from '../src/modules/locations/service.js';
import { findWorkerByOrganisation } from '../src/modules/organisations/repository.js';
import type { TenantRecord } from '../src/modules/tenants/repository.js';
import { ADMIN, refusal, seededTenant, seededUser, TENANTS, useTestServer } from './helpers.js';

/** The locations service's rules, called directly: no HTTP, no session. */
describe('locations service', () => {
  const server = useTestServer();
  let actor: Actor;
  let contoso: TenantRecord;
  let northwind: TenantRecord;

  beforeAll(async () => {
    actor = { user: await seededUser(server, ADMIN), ip: '192.0.2.7' };
    contoso = await seededTenant(server, TENANTS.contoso);
    northwind = await seededTenant(server, TENANTS.northwind);
  });

  const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

  async function auditOf(action: string, target: string) {
    return server.ctx.db.query<{ outcome: string; actor_email: string; ip: string; details: Record<string, unknown> }>(
      'select outcome, actor_email, ip, details from audit_log where action = $1 and target = $2 order by seq',
      [action, target],
    );
  }

  async function insertJob(tenantId: string, locationId: string) {
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, location_id, status, enabled)
       values ($1, $2, 'Nightly OneDrive', 'backup', 'onedrive', $3, 'pending', true)`,
      [randomUUID(), tenantId, locationId],
    );
  }

  it('stores names and addresses trimmed and audits the creation with the name as given', async () => {
    const name = unique('Vault');
    const created = await createLocation(server.ctx, actor, contoso, {
      name: `  ${name} `,
      siteAddress: ' https://contoso.example/sites/vault ',
    });
    expect(created).toMatchObject({
      tenantId: contoso.tenantId,
      name,
      siteAddress: 'https://contoso.example/sites/vault',
      usedByJobs: 0,
    });
    expect(created.createdAt.getTime()).toBe(server.clock.now);
    expect((await tenantLocations(server.ctx, contoso)).map((l) => l.locationId)).toContain(created.locationId);
    expect(await auditOf('location.create', created.locationId)).toEqual([
      { outcome: 'success', actor_email: ADMIN, ip: '192.0.2.7', details: { name: `  ${name} ` } },
    ]);
  });

  it("keeps a location's name unique in its tenant, without regard to case or surrounding spaces", async () => {
    const name = unique('Archive');
    const first = await createLocation(server.ctx, actor, contoso, { name, siteAddress: 'https://x.example/a' });
    expect(
      await refusal(
        createLocation(server.ctx, actor, contoso, {
          name: ` ${name.toUpperCase()} `,
          siteAddress: 'https://x.example/b',
        }),
      ),
    ).toEqual({ status: 409, message: 'A location with this name already exists.' });
    // Another tenant may use the same name.
    const elsewhere = await createLocation(server.ctx, actor, northwind, { name, siteAddress: 'https://x.example/c' });
    expect(elsewhere.name).toBe(name);
    // Its own name is no conflict on an update; another location's is.
    const renamed = await changeLocation(server.ctx, actor, contoso, first.locationId, {
      name: name.toLowerCase(),
      siteAddress: 'https://x.example/a2',
    });
    expect(renamed).toMatchObject({ name: name.toLowerCase(), siteAddress: 'https://x.example/a2' });
    const second = await createLocation(server.ctx, actor, contoso, {
      name: unique('Second'),
      siteAddress: 'https://x.example/d',
    });
    expect(
      await refusal(
        changeLocation(server.ctx, actor, contoso, second.locationId, { name, siteAddress: 'https://x.example/d' }),
      ),
    ).toEqual({ status: 409, message: 'A location with this name already exists.' });
    expect(await auditOf('location.update', second.locationId)).toEqual([]);
  });

  it('refuses a blank name as a field error and writes nothing', async () => {
    const before = (await tenantLocations(server.ctx, contoso)).length;
    expect(
      await refusal(createLocation(server.ctx, actor, contoso, { name: '   ', siteAddress: 'https://x.example' }), {
        withErrors: true,
      }),
    ).toEqual({
      status: 400,
      message: 'One or more validation errors occurred.',
      errors: { 'body/name': ['must not be blank'] },
    });
    expect((await tenantLocations(server.ctx, contoso)).length).toBe(before);
  });

  it("reaches a location through its own tenant only: another tenant's is not found", async () => {
    const location = await createLocation(server.ctx, actor, contoso, {
      name: unique('Own'),
      siteAddress: 'https://x.example/own',
    });
    expect((await requireLocation(server.ctx.db, contoso, location.locationId)).locationId).toBe(location.locationId);
    // Each call made only when its refusal is awaited: none rejects unobserved.
    for (const work of [
      () => requireLocation(server.ctx.db, northwind, location.locationId),
      () =>
        changeLocation(server.ctx, actor, northwind, location.locationId, {
          name: 'x',
          siteAddress: 'https://x.example',
        }),
      () => removeLocation(server.ctx, actor, northwind, location.locationId),
    ]) {
      expect(await refusal(work())).toEqual({ status: 404, message: 'Location not found' });
    }
    expect(await auditOf('location.update', location.locationId)).toEqual([]);
    expect(await auditOf('location.delete', location.locationId)).toEqual([]);
  });

  it('refuses to delete a location used by a job, and audits the refusal as a failure', async () => {
    const location = await createLocation(server.ctx, actor, contoso, {
      name: unique('Used'),
      siteAddress: 'https://x.example/used',
    });
    await insertJob(contoso.tenantId, location.locationId);
    expect((await requireLocation(server.ctx.db, contoso, location.locationId)).usedByJobs).toBe(1);
    expect(await refusal(removeLocation(server.ctx, actor, contoso, location.locationId))).toEqual({
      status: 409,
      message: LOCATION_IN_USE,
    });
    expect((await requireLocation(server.ctx.db, contoso, location.locationId)).locationId).toBe(location.locationId);
    expect(await auditOf('location.delete', location.locationId)).toEqual([
      { outcome: 'failure', actor_email: ADMIN, ip: '192.0.2.7', details: { reason: 'in use' } },
    ]);
    // Without the job it goes.
    await server.ctx.db.query('delete from jobs where location_id = $1', [location.locationId]);
    await removeLocation(server.ctx, actor, contoso, location.locationId);
    expect(await refusal(requireLocation(server.ctx.db, contoso, location.locationId))).toMatchObject({ status: 404 });
    expect((await auditOf('location.delete', location.locationId)).map((e) => e.outcome)).toEqual([
      'failure',
      'success',
    ]);
  });

  it('writes a change and its audit entry in one transaction: when the entry fails, the change is undone', async () => {
    const failingAudit: AppContext = {
      ...server.ctx,
      audit: async (event, tx) => {
        // The entry is written inside the change's transaction, then the audit log refuses.
        expect(tx).toBeDefined();
        await server.ctx.audit(event, tx);
        throw new Error('audit log unavailable');
      },
    };
    const name = unique('Rolled back');
    await expect(
      createLocation(failingAudit, actor, contoso, { name, siteAddress: 'https://x.example/r' }),
    ).rejects.toThrow('audit log unavailable');
    expect((await tenantLocations(server.ctx, contoso)).map((l) => l.name)).not.toContain(name);
    expect(
      await server.ctx.db.query("select 1 from audit_log where action = 'location.create' and details->>'name' = $1", [
        name,
      ]),
    ).toEqual([]);

    const kept = await createLocation(server.ctx, actor, contoso, {
      name: unique('Kept'),
      siteAddress: 'https://x.example/k',
    });
    await expect(
      changeLocation(failingAudit, actor, contoso, kept.locationId, {
        name: unique('Renamed'),
        siteAddress: 'https://y.example',
      }),
    ).rejects.toThrow('audit log unavailable');
    await expect(removeLocation(failingAudit, actor, contoso, kept.locationId)).rejects.toThrow(
      'audit log unavailable',
    );
    expect(await requireLocation(server.ctx.db, contoso, kept.locationId)).toEqual(kept);
    expect(await auditOf('location.update', kept.locationId)).toEqual([]);
    expect(await auditOf('location.delete', kept.locationId)).toEqual([]);
  });

  it("gives a worker its active tenant's locations, and none while it has no active tenant", async () => {
    const worker = await findWorkerByOrganisation(server.ctx.db, contoso.organisationId);
    if (!worker) throw new Error('no worker');
    const own = await createLocation(server.ctx, actor, contoso, {
      name: unique('Worker'),
      siteAddress: 'https://w.example',
    });
    await createLocation(server.ctx, actor, northwind, { name: unique('Other'), siteAddress: 'https://w.example' });
    const active = await activeTenantLocations(server.ctx, { ...worker, stagingtenantId: contoso.tenantId });
    expect(active.map((l) => l.locationId)).toContain(own.locationId);
    expect(new Set(active.map((l) => l.tenantId))).toEqual(new Set([contoso.tenantId]));
    expect(await activeTenantLocations(server.ctx, { ...worker, stagingtenantId: null })).toEqual([]);
  });
});
