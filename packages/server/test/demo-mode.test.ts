/**
 * PORTAL_DEMO decides both the demo world and the built-in Microsoft 365: on by default only on the
 * embedded database. The demo simulator runs on an https port of its own with a CA of the data
 * directory, which the portal's process trusts; it serves only the demo tenants, points them at
 * itself at each start, and issues tokens only to their app registrations with their stored secrets,
 * as the identity platform does.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstUserAddress } from '@compliance-portal/m365-simulator';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createGraphApi } from '../src/m365/graph-client.js';
import { createTestServer, TENANTS, type TestServer } from './helpers.js';
import { exited, freePort, startProcess } from './process.js';

const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

async function demoTenant(server: TestServer) {
  const [tenant] = await server.ctx.db.query<{
    application_id: string;
    client_secret_enc: string;
    graph_base_url: string;
    authority_url: string;
  }>('select application_id, client_secret_enc, graph_base_url, authority_url from tenants where tenant_id = $1', [
    TENANTS.contoso,
  ]);
  if (!tenant) throw new Error('no demo tenant');
  return { ...tenant, secret: server.ctx.secrets.open(tenant.client_secret_enc) };
}

describe('the demo switch', () => {
  it('is on by default on the embedded database and off when DATABASE_URL is set, unless PORTAL_DEMO says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-demo-config-'));
    expect(loadConfig({ PORTAL_DATA_DIR: dir }).demo).toBe(true);
    const key = 'ab'.repeat(32);
    expect(
      loadConfig({ PORTAL_DATA_DIR: dir, DATABASE_URL: 'postgres://u:p@db/portal', PORTAL_SECRET_KEY: key }).demo,
    ).toBe(false);
    expect(loadConfig({ PORTAL_DATA_DIR: dir, DATABASE_URL: 'postgres://u:p@db/p', PORTAL_DEMO: 'on' }).demo).toBe(
      true,
    );
    expect(loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_DEMO: 'off', PORTAL_SECRET_KEY: key }).demo).toBe(false);
    expect(() => loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_DEMO: 'maybe' })).toThrow(/PORTAL_DEMO/);
    expect(loadConfig({ PORTAL_DATA_DIR: dir }).m365SimulatorPort).toBe(8444);
    expect(loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_M365_SIMULATOR_PORT: '0' }).m365SimulatorPort).toBe(0);
    expect(() => loadConfig({ PORTAL_DATA_DIR: dir, PORTAL_M365_SIMULATOR_PORT: 'https' })).toThrow(
      /PORTAL_M365_SIMULATOR_PORT is not a port/,
    );
  });

  it('without demo mode, an empty database gets no accounts, no password is printed and no simulator is served', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-no-demo-'));
    const port = await freePort();
    const simulatorPort = await freePort();
    const started = await startProcess(dataDir, port, {
      PORTAL_DEMO: 'off',
      PORTAL_SECRET_KEY: 'cd'.repeat(32),
      PORTAL_M365_SIMULATOR_PORT: String(simulatorPort),
    });
    try {
      expect(started.output()).not.toMatch(/password/i);
      const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@contoso.example', password: 'anything-1A!' }),
      });
      expect(signin.status).toBe(401);
      expect(await refusesConnections(simulatorPort)).toBe(true);
      expect(existsSync(join(dataDir, 'm365-simulator'))).toBe(false);
    } finally {
      const done = exited(started.child);
      started.child.kill('SIGTERM');
      await done;
    }
  }, 90_000);
});

describe('the demo simulator', () => {
  it('serves the demo tenants over https on its own port, pointed at by them and trusted by the portal', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-demo-simulator-'));
    const server = await createTestServer({ demo: true, dataDir });
    let origin = '';
    try {
      const tenant = await demoTenant(server);
      origin = tenant.authority_url;
      expect(origin).toMatch(/^https:\/\/localhost:\d+$/);
      expect(tenant.graph_base_url).toBe(`${origin}/v1.0`);
      const [other] = await server.ctx.db.query<{ n: number }>(
        'select count(*)::int as n from tenants where graph_base_url <> $1 or authority_url <> $2',
        [tenant.graph_base_url, origin],
      );
      expect(other?.n).toBe(0);
      expect(existsSync(join(dataDir, 'm365-simulator', 'tls', 'ca.pem'))).toBe(true);
      // Each demo tenant's default domain, read from its organization in the simulator: that of its accounts.
      const domains = await server.ctx.db.query<{ tenant_id: string; default_domain: string | null }>(
        'select tenant_id, default_domain from tenants order by tenant_id',
      );
      expect(domains).toEqual(
        Object.values(TENANTS)
          .sort()
          .map((id) => ({ tenant_id: id, default_domain: firstUserAddress(id).split('@')[1] })),
      );

      // This process's NODE_EXTRA_CA_CERTS names another CA: the portal's trust of its own simulator
      // (m365/trust.ts) is what lets MSAL and the Graph client through.
      const graph = createGraphApi({
        directoryId: TENANTS.contoso,
        clientId: tenant.application_id,
        clientSecret: tenant.secret,
        authorityHost: origin,
        graphBaseUrl: tenant.graph_base_url,
      });
      const users = [];
      for await (const user of graph.users()) users.push(user);
      expect(users.length).toBeGreaterThan(0);
      // Whole mailboxes and whole sites: the demo's people have calendars, contacts and To Do lists,
      // its sites lists and pages, for its archive and backups to keep.
      const all = async <T>(list: AsyncIterable<T>) => {
        const items: T[] = [];
        for await (const item of list) items.push(item);
        return items;
      };
      const person = users.find((u) => !u.userPrincipalName?.includes('#EXT#'))?.id ?? '';
      expect((await all(graph.calendars(person))).length).toBeGreaterThan(0);
      expect((await all(graph.contactFolders(person))).length).toBeGreaterThan(0);
      expect((await all(graph.todoLists(person))).length).toBeGreaterThan(0);
      const [site] = await all(graph.sites());
      const lists = await all(graph.siteLists(site?.id ?? ''));
      expect(lists.filter((l) => l.list?.template !== 'documentLibrary').length).toBeGreaterThan(0);
      expect((await all(graph.sitePages(site?.id ?? ''))).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
    expect(await refusesConnections(Number(new URL(origin).port))).toBe(true);

    // Started again on the same data directory: the same CA, the tenants pointed at the new port.
    const ca = readFileSync(join(dataDir, 'm365-simulator', 'tls', 'ca.pem'), 'utf8');
    const again = await createTestServer({ demo: true, dataDir });
    try {
      const tenant = await demoTenant(again);
      expect(tenant.authority_url).not.toBe(origin);
      expect(readFileSync(join(dataDir, 'm365-simulator', 'tls', 'ca.pem'), 'utf8')).toBe(ca);
      expect(
        (await fetch(`${tenant.authority_url}/${TENANTS.contoso}/v2.0/.well-known/openid-configuration`)).status,
      ).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('issues tokens only to the demo tenant app with its stored secret, refusing others as Entra ID does', async () => {
    const server = await createTestServer({ demo: true, dataDir: mkdtempSync(join(tmpdir(), 'portal-demo-tokens-')) });
    try {
      const tenant = await demoTenant(server);
      const ask = (tenantId: string, clientId: string, clientSecret: string) =>
        fetch(`${tenant.authority_url}/${tenantId}/oauth2/v2.0/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: clientSecret,
            scope: 'https://graph.microsoft.com/.default',
          }),
        });

      const right = await ask(TENANTS.contoso, tenant.application_id, tenant.secret);
      expect(right.status).toBe(200);
      const issued = (await right.json()) as { token_type: string; access_token: string };
      expect(issued.token_type).toBe('Bearer');

      const wrongSecret = await ask(TENANTS.contoso, tenant.application_id, 'any-other-secret');
      expect(wrongSecret.status).toBe(401);
      expect(await wrongSecret.json()).toMatchObject({
        error: 'invalid_client',
        error_description: expect.stringMatching(/^AADSTS7000215: Invalid client secret provided\./),
        error_codes: [7000215],
        trace_id: expect.any(String),
        correlation_id: expect.any(String),
      });

      const otherApp = await ask(TENANTS.contoso, '00000000-0000-0000-0000-000000000001', tenant.secret);
      expect(otherApp.status).toBe(400);
      expect(await otherApp.json()).toMatchObject({ error: 'unauthorized_client', error_codes: [700016] });

      const unknownTenant = await ask('11111111-2222-3333-4444-555555555555', tenant.application_id, tenant.secret);
      expect(unknownTenant.status).toBe(400);
      expect(await unknownTenant.json()).toMatchObject({ error: 'invalid_tenant', error_codes: [90002] });

      // A token issued to the demo tenant reads that tenant.
      const users = await fetch(`${tenant.graph_base_url}/users`, {
        headers: { authorization: `Bearer ${issued.access_token}` },
      });
      expect(users.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
