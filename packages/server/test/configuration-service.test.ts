import { randomUUID } from 'node:crypto';
import { TRIAL_LIMITS } from '@compliance-portal/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../src/access/actor.js';
import type { AppContext } from '../src/context.js';
import { HttpError } from '../src/errors.js';
import { backupConfig, licenceOf, switchTenant, updateBackupConfig } from '../src/modules/configuration/service.js';
import { listLocations } from '../src/modules/locations/repository.js';
import { findWorkerByOrganisation } from '../src/modules/organisations/repository.js';
import { findTenant, insertTenant, type TenantRecord } from '../src/modules/tenants/repository.js';
import { ADMIN, seededTenant, seededUser, TENANTS, useTestServer } from './helpers.js';

/** The configuration service's rules, called directly: no HTTP, no session. */
describe('configuration service', () => {
  const server = useTestServer();
  let actor: Actor;
  let contoso: TenantRecord;
  let northwind: TenantRecord;

  beforeAll(async () => {
    actor = { user: await seededUser(server, ADMIN), ip: '192.0.2.11' };
    contoso = await seededTenant(server, TENANTS.contoso);
    northwind = await seededTenant(server, TENANTS.northwind);
  });

  async function auditOf(action: string, target: string) {
    return server.ctx.db.query<{ actor_email: string; ip: string; details: Record<string, unknown> }>(
      'select actor_email, ip, details from audit_log where action = $1 and target = $2 order by seq',
      [action, target],
    );
  }

  async function insertJob(tenantId: string, type: string, application: string) {
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, status, enabled)
       values ($1, $2, 'A job', $3, $4, 'pending', true)`,
      [randomUUID(), tenantId, type, application],
    );
  }

  it('changes only the fields given, keeps the currency in capitals, and audits which fields changed', async () => {
    const before = await backupConfig(server.ctx, contoso);
    // Other tests change Contoso's settings too: this change's entry is the one after theirs.
    const earlier = (await auditOf('config.backup.update', contoso.tenantId)).length;
    const updated = await updateBackupConfig(server.ctx, actor, contoso, {
      tenantId: contoso.tenantId,
      currency: 'chf',
      maxConcurrency: 3,
    });
    expect(updated).toEqual({ ...before, currency: 'CHF', maxConcurrency: 3 });
    expect(await backupConfig(server.ctx, contoso)).toEqual(updated);
    expect((await auditOf('config.backup.update', contoso.tenantId)).slice(earlier)).toEqual([
      { actor_email: ADMIN, ip: '192.0.2.11', details: { changed: ['currency', 'maxConcurrency'] } },
    ]);
  });

  it("clears the default location with null, and refuses another tenant's location as not found", async () => {
    const [own] = await listLocations(server.ctx.db, contoso.tenantId);
    const [foreign] = await listLocations(server.ctx.db, northwind.tenantId);
    if (!own || !foreign) throw new Error('seed locations missing');
    const set = await updateBackupConfig(server.ctx, actor, contoso, {
      tenantId: contoso.tenantId,
      defaultLocationId: own.locationId,
    });
    expect(set.defaultLocationId).toBe(own.locationId);
    const audited = (await auditOf('config.backup.update', contoso.tenantId)).length;
    const refused = await updateBackupConfig(server.ctx, actor, contoso, {
      tenantId: contoso.tenantId,
      defaultLocationId: foreign.locationId,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 404, message: 'Location not found' });
    expect((await backupConfig(server.ctx, contoso)).defaultLocationId).toBe(own.locationId);
    expect((await auditOf('config.backup.update', contoso.tenantId)).length).toBe(audited);
    const cleared = await updateBackupConfig(server.ctx, actor, contoso, {
      tenantId: contoso.tenantId,
      defaultLocationId: null,
    });
    expect(cleared.defaultLocationId).toBeNull();
  });

  it('creates the default settings of a tenant that has none', async () => {
    const tenant = await insertTenant(
      server.ctx.db,
      {
        tenantId: randomUUID(),
        organisationId: contoso.organisationId,
        tenantName: 'fresh.onmicrosoft.com',
        applicationId: randomUUID(),
        objectId: randomUUID(),
        redirectUri: 'https://portal.example/auth/callback',
        clientSecretSealed: null,
        isActive: false,
        graphBaseUrl: null,
        authorityUrl: null,
      },
      server.ctx.now(),
    );
    expect(await backupConfig(server.ctx, tenant)).toMatchObject({
      tenantId: tenant.tenantId,
      defaultLocationId: null,
      pricePerGbMonth: 0.02,
    });

    // Switching to it makes it the only active tenant of its organisation and its worker's.
    await switchTenant(server.ctx, actor, tenant);
    const active = await server.ctx.db.query<{ tenant_id: string }>(
      'select tenant_id from tenants where organisation_id = $1 and is_active',
      [contoso.organisationId],
    );
    expect(active.map((r) => r.tenant_id)).toEqual([tenant.tenantId]);
    expect((await findWorkerByOrganisation(server.ctx.db, contoso.organisationId))?.stagingtenantId).toBe(
      tenant.tenantId,
    );
    expect(await auditOf('tenant.switch', tenant.tenantId)).toEqual([
      { actor_email: ADMIN, ip: '192.0.2.11', details: {} },
    ]);
    // Other organisations keep theirs.
    expect((await findTenant(server.ctx.db, northwind.tenantId))?.isActive).toBe(true);

    // A switch whose audit entry fails changes nothing.
    const failingAudit: AppContext = {
      ...server.ctx,
      audit: async (event, tx) => {
        expect(tx).toBeDefined();
        await server.ctx.audit(event, tx);
        throw new Error('audit log unavailable');
      },
    };
    await expect(switchTenant(failingAudit, actor, contoso)).rejects.toThrow('audit log unavailable');
    expect((await findWorkerByOrganisation(server.ctx.db, contoso.organisationId))?.stagingtenantId).toBe(
      tenant.tenantId,
    );
    expect((await findTenant(server.ctx.db, contoso.tenantId))?.isActive).toBe(false);
    await switchTenant(server.ctx, actor, contoso);
  });

  it("gives a trial its limits and counts an organisation's backup jobs and restores per application", async () => {
    const full = await licenceOf(server.ctx, contoso.organisationId);
    expect(full).toMatchObject({ organisationId: contoso.organisationId, kind: 'full', limits: null });
    await insertJob(contoso.tenantId, 'backup', 'onedrive');
    await insertJob(contoso.tenantId, 'backup', 'onedrive');
    await insertJob(contoso.tenantId, 'restore', 'teams');
    const after = await licenceOf(server.ctx, contoso.organisationId);
    expect(after.used).toEqual({
      backupJobs: { ...full.used.backupJobs, onedrive: full.used.backupJobs.onedrive + 2 },
      restores: { ...full.used.restores, teams: full.used.restores.teams + 1 },
    });

    const tailspin = await findTenant(server.ctx.db, TENANTS.tailspin);
    if (!tailspin) throw new Error('seed data missing');
    expect(await licenceOf(server.ctx, tailspin.organisationId)).toMatchObject({
      kind: 'trial',
      limits: { ...TRIAL_LIMITS },
    });
    const unknown = await licenceOf(server.ctx, randomUUID()).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 404, message: 'Organisation not found' });
  });
});
