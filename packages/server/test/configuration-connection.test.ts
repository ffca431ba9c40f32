import { ALL_APPLICATION_PERMISSIONS, type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { type Client, errorTexts, type Tenant } from '@compliance-portal/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, PARTNER, sessionToken, TENANTS, useTestServer } from './helpers.js';

/** The connection test and user synchronisation against the Microsoft 365 simulator. */
describe('the tenant connection', () => {
  const server = useTestServer();
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let stranger: RunningSimulator;
  let locked: RunningSimulator;
  let admin = '';
  const point = (at: RunningSimulator) =>
    server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      at.graphBaseUrl,
      at.authorityHost,
    ]);

  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId, size: { users: 3, sites: 0, teams: 0 } }] });
    // A Microsoft 365 that does not know the tenant: its sign-in is refused.
    stranger = await startSimulator({ tenants: [] });
    // A Microsoft 365 that knows the tenant but expects another client secret.
    locked = await startSimulator({
      tenants: [{ tenantId, clientSecret: 'not-the-stored-secret', size: { users: 1 } }],
    });
    admin = await sessionToken(server, ADMIN);
  });
  afterAll(async () => {
    await sim.close();
    await stranger.close();
    await locked.close();
  });

  it('tests the connection with a token and a Graph call, and says what failed', async () => {
    await point(sim);
    const ok = await server.request({
      method: 'POST',
      url: '/apollo-beta/test-onedrive-connection',
      token: admin,
      body: { tenantId },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true });
    expect(ok.json().message).toBeUndefined();

    await point(stranger);
    const refused = await server.request({
      method: 'POST',
      url: '/apollo-beta/test-onedrive-connection',
      token: admin,
      body: { tenantId },
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({
      ok: false,
      message: errorTexts.m365TenantUnknown(),
      failure: { code: 'm365TenantUnknown', aadsts: 'AADSTS90002' },
    });
    await point(locked);
    const badSecret = await server.request({
      method: 'POST',
      url: '/apollo-beta/test-onedrive-connection',
      token: admin,
      body: { tenantId },
    });
    expect(badSecret.statusCode).toBe(200);
    expect(badSecret.json()).toMatchObject({
      ok: false,
      message: errorTexts.m365SecretWrong(),
      failure: { code: 'm365SecretWrong', aadsts: 'AADSTS7000215' },
    });
    const [audit] = await server.ctx.db.query<{ outcome: string }>(
      "select outcome from audit_log where action = 'tenant.connectionTest' order by seq desc limit 1",
    );
    expect(audit?.outcome).toBe('failure');
  });

  it('reads the tenant’s default domain when the connection works, for the tenant and its worker; a refusal leaves it as it was', async () => {
    await point(sim);
    await server.ctx.db.query('update tenants set default_domain = null where tenant_id = $1', [tenantId]);
    const test = async () => {
      const response = await server.request({
        method: 'POST',
        url: '/apollo-beta/test-onedrive-connection',
        token: admin,
        body: { tenantId },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    /** The domain as the tenants list and the worker of the tenant's organisation answer it. */
    const answered = async () => {
      const tenants = (
        await server.request({ method: 'GET', url: '/apollo-beta/api/Tenants', token: admin })
      ).json() as Tenant[];
      const client = (await server.request({ method: 'GET', url: '/api/client', token: admin })).json() as Client;
      expect(client.worker.stagingtenant_id).toBe(tenantId);
      return {
        tenant: tenants.find((t) => t.tenantId === tenantId)?.defaultDomain,
        worker: client.worker.tenantDomain,
      };
    };

    // Graph refuses the organization without Organization.Read.All: the test passes, names it missing, stores nothing.
    sim.state.setConsent(
      tenantId,
      ALL_APPLICATION_PERMISSIONS.filter((p) => p !== 'Organization.Read.All'),
    );
    expect(await test()).toMatchObject({
      ok: true,
      missingPermissions: [{ permission: 'Organization.Read.All', areas: ['connectionTest'] }],
    });
    expect(await answered()).toEqual({ tenant: undefined, worker: undefined });

    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
    expect((await test()).ok).toBe(true);
    const domain = sim.state.tenant(tenantId).domain;
    expect(domain).toMatch(/\.onmicrosoft\.com$/);
    expect(await answered()).toEqual({ tenant: domain, worker: domain });

    // A connection that fails later keeps the domain read before.
    await point(stranger);
    expect((await test()).ok).toBe(false);
    sim.state.setConsent(tenantId, ['User.Read.All']);
    await point(sim);
    expect((await test()).ok).toBe(true);
    expect(await answered()).toEqual({ tenant: domain, worker: domain });
    sim.state.setConsent(tenantId, ALL_APPLICATION_PERMISSIONS);
  });

  it('synchronises the tenant’s users, counting who came and went, and fails with the catalogue message', async () => {
    await point(sim);
    const sync = () =>
      server.request({ method: 'POST', url: '/apollo-beta/sync-user-config', token: admin, body: { tenantId } });
    const first = await sync();
    expect(first.statusCode, first.body).toBe(200);
    const users = sim.state.tenant(tenantId).users.length;
    expect(first.json()).toMatchObject({ tenantId, synchronized: users, added: users, removed: 0 });
    const [stored] = await server.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from discovered_sources where tenant_id = $1 and application = 'onedrive'",
      [tenantId],
    );
    expect(stored?.n).toBe(users);

    sim.state.tenant(tenantId).users.pop();
    const second = await sync();
    expect(second.json()).toMatchObject({ synchronized: users - 1, added: 0, removed: 1 });

    await point(stranger);
    const failed = await sync();
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({
      message: 'Failures to synchronize users',
      detail: errorTexts.m365TenantUnknown(),
      code: 'm365TenantUnknown',
    });
  });

  it('checks the body: a tenant is required and must exist', async () => {
    for (const url of ['/apollo-beta/sync-user-config', '/apollo-beta/test-onedrive-connection']) {
      const missing = await server.request({ method: 'POST', url, token: admin, body: {} });
      expect(missing.statusCode, url).toBe(400);
      const unknown = await server.request({
        method: 'POST',
        url,
        token: admin,
        body: { tenantId: '00000000-0000-4000-8000-000000000000' },
      });
      expect(unknown.statusCode, url).toBe(404);
    }
  });

  it('is refused for a tenant of another organisation', async () => {
    const partner = await sessionToken(server, PARTNER);
    for (const url of ['/apollo-beta/sync-user-config', '/apollo-beta/test-onedrive-connection']) {
      const response = await server.request({ method: 'POST', url, token: partner, body: { tenantId } });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
