import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../src/access/actor.js';
import type { AppContext } from '../src/context.js';
import type { User } from '../src/modules/identity/users.js';
import { createOrganisation, findWorkerByOrganisation } from '../src/modules/organisations/repository.js';
import { findTenant, type TenantRecord } from '../src/modules/tenants/repository.js';
import {
  changeTenant,
  connectTenant,
  DELETE_WHILE_JOBS_RUN,
  DELETE_WHILE_PROVISIONING,
  PROVISIONING_RUNS,
  removeTenant,
  requireTask,
  startProvisioning,
  TENANT_EXISTS,
  visibleTenants,
} from '../src/modules/tenants/service.js';
import { ADMIN, PARTNER, refusal, seededTenant, seededUser, TENANTS, useTestServer } from './helpers.js';

/** The tenants service's rules, called directly: no HTTP, no session. */
describe('tenants service', () => {
  const server = useTestServer();
  let admin: User;
  let partner: User;
  let asPartner: Actor;

  beforeAll(async () => {
    admin = await seededUser(server, ADMIN);
    partner = await seededUser(server, PARTNER);
    asPartner = { user: partner, ip: '192.0.2.11' };
  });

  /** A client organisation of the partner of its own, with its worker and no tenant yet. */
  async function newClient() {
    const name = `Client ${randomUUID().slice(0, 8)}`;
    return server.ctx.db.transaction((tx) =>
      createOrganisation(tx, { name, kind: 'customer', license: 'full', partnerId: partner.organisationId }),
    );
  }

  const input = (organisationId: string, overrides: Partial<Parameters<typeof connectTenant>[2]> = {}) => ({
    tenantName: `tenant-${randomUUID().slice(0, 8)}.onmicrosoft.com`,
    applicationId: randomUUID().toUpperCase(),
    clientSecret: 'a client secret',
    tenantId: randomUUID().toUpperCase(),
    objectId: randomUUID().toUpperCase(),
    redirectUri: 'https://portal.test/auth/callback',
    organisationId,
    ...overrides,
  });

  async function auditOf(action: string, target: string) {
    return server.ctx.db.query<{ outcome: string; actor_email: string; ip: string; details: Record<string, unknown> }>(
      'select outcome, actor_email, ip, details from audit_log where action = $1 and target = $2 order by seq',
      [action, target],
    );
  }

  it("connects an organisation's first tenant as active and its worker's active tenant, a second as neither", async () => {
    const { organisation, worker } = await newClient();
    const first = input(organisation.id);
    const created = await connectTenant(server.ctx, asPartner, first);
    expect(created).toMatchObject({
      tenantId: first.tenantId.toLowerCase(),
      organisationId: organisation.id,
      tenantName: first.tenantName,
      applicationId: first.applicationId.toLowerCase(),
      objectId: first.objectId.toLowerCase(),
      isActive: true,
      provisioning: 'notProvisioned',
    });
    // The secret is stored sealed, never as given.
    expect(created.clientSecretSealed).not.toContain('a client secret');
    expect(server.ctx.secrets.open(created.clientSecretSealed ?? '')).toBe('a client secret');
    expect((await findWorkerByOrganisation(server.ctx.db, organisation.id))?.stagingtenantId).toBe(created.tenantId);
    expect(await auditOf('tenant.create', created.tenantId)).toEqual([
      { outcome: 'success', actor_email: PARTNER, ip: '192.0.2.11', details: { tenantName: first.tenantName } },
    ]);

    const second = await connectTenant(server.ctx, asPartner, input(organisation.id));
    expect(second.isActive).toBe(false);
    expect((await findWorkerByOrganisation(server.ctx.db, organisation.id))?.workerId).toBe(worker.workerId);
    expect((await findWorkerByOrganisation(server.ctx.db, organisation.id))?.stagingtenantId).toBe(created.tenantId);
  });

  it('hands the active tenant over when it is removed, so the worker never acts for none while a tenant is left', async () => {
    const { organisation } = await newClient();
    const worker = async () => (await findWorkerByOrganisation(server.ctx.db, organisation.id))?.stagingtenantId;
    const active = async () =>
      (await visibleTenants(server.ctx, partner))
        .filter((t) => t.organisationId === organisation.id && t.isActive)
        .map((t) => t.tenantId);
    const b = await connectTenant(server.ctx, asPartner, input(organisation.id, { tenantName: 'b.onmicrosoft.com' }));
    const c = await connectTenant(server.ctx, asPartner, input(organisation.id, { tenantName: 'c.onmicrosoft.com' }));
    const a = await connectTenant(server.ctx, asPartner, input(organisation.id, { tenantName: 'a.onmicrosoft.com' }));
    expect([b.isActive, c.isActive, a.isActive]).toEqual([true, false, false]);

    // A tenant that is not the active one goes without changing which is.
    await removeTenant(server.ctx, asPartner, c);
    expect(await worker()).toBe(b.tenantId);
    expect(await active()).toEqual([b.tenantId]);
    expect((await auditOf('tenant.delete', c.tenantId))[0]?.details).toEqual({ activeTenant: b.tenantId });

    // The active one hands over to the first left by name; the audit says to which.
    await removeTenant(server.ctx, asPartner, b);
    expect(await worker()).toBe(a.tenantId);
    expect(await active()).toEqual([a.tenantId]);
    expect((await auditOf('tenant.delete', b.tenantId))[0]?.details).toEqual({ activeTenant: a.tenantId });

    // The last one leaves the worker without a tenant; the next connected is active and the worker's.
    await removeTenant(server.ctx, asPartner, { ...a, isActive: true });
    expect(await worker()).toBeNull();
    expect((await auditOf('tenant.delete', a.tenantId))[0]?.details).toEqual({ activeTenant: null });
    const next = await connectTenant(server.ctx, asPartner, input(organisation.id));
    expect(next.isActive).toBe(true);
    expect(await worker()).toBe(next.tenantId);
  });

  it('makes a tenant connected while the organisation has none active its active one (data from before the hand-over)', async () => {
    const { organisation } = await newClient();
    const old = await connectTenant(server.ctx, asPartner, input(organisation.id));
    // As a removal left it before tenants were handed over: a tenant, none active, the worker on none.
    await server.ctx.db.query('update tenants set is_active = false where tenant_id = $1', [old.tenantId]);
    await server.ctx.db.query('update workers set stagingtenant_id = null where organisation_id = $1', [
      organisation.id,
    ]);
    const added = await connectTenant(server.ctx, asPartner, input(organisation.id));
    expect(added.isActive).toBe(true);
    expect((await findWorkerByOrganisation(server.ctx.db, organisation.id))?.stagingtenantId).toBe(added.tenantId);
  });

  it('refuses a tenant ID already connected, and an organisation the user may not act for, writing nothing', async () => {
    const { organisation } = await newClient();
    const taken = input(organisation.id, { tenantId: TENANTS.northwind.toUpperCase() });
    expect(await refusal(connectTenant(server.ctx, asPartner, taken))).toEqual({
      status: 409,
      message: TENANT_EXISTS,
    });
    // Contoso's administrator does not act for the partner's client: it is not found.
    const elsewhere = input(organisation.id);
    expect(await refusal(connectTenant(server.ctx, { user: admin, ip: '192.0.2.12' }, elsewhere))).toEqual({
      status: 404,
      message: 'Organisation not found',
    });
    expect(await findTenant(server.ctx.db, elsewhere.tenantId)).toBeUndefined();
    expect(await visibleTenants(server.ctx, partner)).not.toContainEqual(
      expect.objectContaining({ organisationId: organisation.id }),
    );
    expect(await auditOf('tenant.create', elsewhere.tenantId.toLowerCase())).toEqual([]);
  });

  it('lists the tenants of the organisations the user acts for only', async () => {
    const own = (await visibleTenants(server.ctx, admin)).map((t) => t.tenantId);
    expect(own).toEqual([TENANTS.contoso]);
    const partners = (await visibleTenants(server.ctx, partner)).map((t) => t.tenantId);
    expect(partners).toEqual(expect.arrayContaining([TENANTS.northwind, TENANTS.tailspin, TENANTS.woodgrove]));
    expect(partners).not.toContain(TENANTS.contoso);
  });

  it('changes only the fields given and audits which, saying that the secret was replaced but not what it is', async () => {
    const { organisation } = await newClient();
    const tenant = await connectTenant(server.ctx, asPartner, input(organisation.id));
    server.clock.advance(60_000);
    const applicationId = randomUUID().toUpperCase();
    const changed = await changeTenant(server.ctx, asPartner, tenant, {
      tenantName: 'renamed.onmicrosoft.com',
      applicationId,
      clientSecret: 'another secret',
    });
    expect(changed).toMatchObject({
      tenantName: 'renamed.onmicrosoft.com',
      applicationId: applicationId.toLowerCase(),
      objectId: tenant.objectId,
      redirectUri: tenant.redirectUri,
    });
    expect(changed.updatedAt.getTime()).toBe(server.clock.now);
    expect(server.ctx.secrets.open(changed.clientSecretSealed ?? '')).toBe('another secret');
    const [entry] = await auditOf('tenant.update', tenant.tenantId);
    expect(entry?.details).toEqual({ changed: ['tenantName', 'applicationId'], clientSecretReplaced: true });
    expect(JSON.stringify(entry)).not.toContain('another secret');
  });

  it('refuses to delete a tenant while a provisioning task or one of its jobs runs, then deletes it', async () => {
    const { organisation } = await newClient();
    const tenant = await connectTenant(server.ctx, asPartner, input(organisation.id));
    const provisioning: TenantRecord = { ...tenant, provisioning: 'deprovisioning' };
    expect(await refusal(removeTenant(server.ctx, asPartner, provisioning))).toEqual({
      status: 409,
      message: DELETE_WHILE_PROVISIONING,
    });
    const jobId = randomUUID();
    await server.ctx.db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, status, enabled)
       values ($1, $2, 'Nightly OneDrive', 'backup', 'onedrive', 'running', true)`,
      [jobId, tenant.tenantId],
    );
    expect(await refusal(removeTenant(server.ctx, asPartner, tenant))).toEqual({
      status: 409,
      message: DELETE_WHILE_JOBS_RUN,
    });
    expect(await findTenant(server.ctx.db, tenant.tenantId)).toBeDefined();
    expect(await auditOf('tenant.delete', tenant.tenantId)).toEqual([]);

    await server.ctx.db.query(`update jobs set status = 'finished' where job_id = $1`, [jobId]);
    await removeTenant(server.ctx, asPartner, tenant);
    expect(await findTenant(server.ctx.db, tenant.tenantId)).toBeUndefined();
    // Its worker has no active tenant any more.
    expect((await findWorkerByOrganisation(server.ctx.db, organisation.id))?.stagingtenantId).toBeNull();
    expect((await auditOf('tenant.delete', tenant.tenantId)).map((e) => e.outcome)).toEqual(['success']);
  });

  it('runs one provisioning task at a time, and finds a task through its own tenant only', async () => {
    const { organisation } = await newClient();
    const tenant = await connectTenant(server.ctx, asPartner, input(organisation.id));
    const task = await startProvisioning(server.ctx, asPartner, tenant, 'provision');
    expect(task).toMatchObject({ tenantId: tenant.tenantId, kind: 'provision', status: 'pending', progress: 0 });
    const locked = await findTenant(server.ctx.db, tenant.tenantId);
    expect(locked?.provisioning).toBe('provisioning');
    expect(await refusal(startProvisioning(server.ctx, asPartner, locked as TenantRecord, 'deprovision'))).toEqual({
      status: 409,
      message: PROVISIONING_RUNS,
    });
    // The task runs after the answer; it ends on its own.
    for (let i = 0; i < 100 && (await requireTask(server.ctx, tenant, task.taskId)).status !== 'succeeded'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await requireTask(server.ctx, tenant, task.taskId)).toMatchObject({ status: 'succeeded', progress: 100 });
    expect((await findTenant(server.ctx.db, tenant.tenantId))?.provisioning).toBe('provisioned');
    const contoso = await seededTenant(server, TENANTS.contoso);
    expect(await refusal(requireTask(server.ctx, contoso, task.taskId))).toEqual({
      status: 404,
      message: 'Task not found',
    });
  });

  it('writes a connection and its audit entry in one transaction: when the entry fails, nothing is connected', async () => {
    const failingAudit: AppContext = {
      ...server.ctx,
      audit: async (event, tx) => {
        expect(tx).toBeDefined();
        await server.ctx.audit(event, tx);
        throw new Error('audit log unavailable');
      },
    };
    const { organisation } = await newClient();
    const body = input(organisation.id);
    await expect(connectTenant(failingAudit, asPartner, body)).rejects.toThrow('audit log unavailable');
    expect(await findTenant(server.ctx.db, body.tenantId)).toBeUndefined();
    expect((await findWorkerByOrganisation(server.ctx.db, organisation.id))?.stagingtenantId).toBeNull();
    expect(await auditOf('tenant.create', body.tenantId.toLowerCase())).toEqual([]);
  });
});
