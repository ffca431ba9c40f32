/**
 * The Microsoft cloud a portal serves (PORTAL_M365_AUTHORITY, PORTAL_M365_GRAPH): parsed as https
 * origins, Microsoft's global cloud by default; admin consent links lead to its identity platform, and
 * a tenant connected while it is set, by consent or by the tenant form, keeps its endpoints (null for
 * Microsoft's own, as before). Here the cloud is a standalone simulator.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import type { TenantConsentLink, TenantConsentOutcome } from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, MICROSOFT_CLOUD } from '../src/config.js';
import { missingPermissions } from '../src/m365/permissions.js';
import { connectTenant } from '../src/modules/tenants/service.js';
import { ADMIN, organisationId, seededUser, sessionToken, type TestServer, useTestServer } from './helpers.js';

const TENANT = '6d7e8f90-1a2b-4c3d-8e4f-5a6b7c8d9e03';
const APP = { clientId: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d03', clientSecret: 'cloud-app-secret' };
const REDIRECT = 'http://portal.test/configuration/tenant-consent';
const PASSWORD = 'Simulated-Passw0rd!';

describe('PORTAL_M365_AUTHORITY and PORTAL_M365_GRAPH', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-cloud-'));

  it('default to Microsoft’s global cloud', () => {
    expect(loadConfig({ PORTAL_DATA_DIR: dataDir }).m365Cloud).toEqual({
      authority: 'https://login.microsoftonline.com',
      graph: 'https://graph.microsoft.com',
    });
  });

  it('take another cloud’s https origins, without a trailing slash', () => {
    const config = loadConfig({
      PORTAL_DATA_DIR: dataDir,
      PORTAL_M365_AUTHORITY: 'https://login.microsoftonline.us/',
      PORTAL_M365_GRAPH: 'https://graph.microsoft.us',
    });
    expect(config.m365Cloud).toEqual({
      authority: 'https://login.microsoftonline.us',
      graph: 'https://graph.microsoft.us',
    });
  });

  it('refuse to start with anything but an https origin, naming the setting', () => {
    for (const [name, value] of [
      ['PORTAL_M365_AUTHORITY', 'http://login.microsoftonline.com'],
      ['PORTAL_M365_AUTHORITY', 'login.chinacloudapi.cn'],
      ['PORTAL_M365_GRAPH', 'https://graph.microsoft.com/v1.0'],
      ['PORTAL_M365_GRAPH', 'https://user:pw@graph.example'],
      ['PORTAL_M365_GRAPH', 'https://graph.example?x=1'],
    ] as const) {
      const load = () => loadConfig({ PORTAL_DATA_DIR: dataDir, [name]: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(`${name} must be an https origin such as`);
    }
  });
});

describe('tenants connected while another cloud is configured', () => {
  const server: TestServer = useTestServer();
  let sim: RunningSimulator;
  let adminToken: string;
  let contoso: string;

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        {
          tenantId: TENANT,
          ...APP,
          size: { users: 2 },
          consent: [],
          redirectUris: [REDIRECT],
          applicationPermissions: missingPermissions([]).map((p) => p.permission),
        },
      ],
      userPassword: PASSWORD,
    });
    adminToken = await sessionToken(server, ADMIN);
    contoso = await organisationId(server, 'Contoso');
  });
  // Tests run in a random order: each starts in the simulator's cloud.
  beforeEach(() => {
    server.ctx.config.m365Cloud = { authority: sim.authorityHost, graph: sim.url };
  });
  afterAll(async () => {
    server.ctx.config.m365Cloud = MICROSOFT_CLOUD;
    await sim?.close();
  });

  const api = (method: string, url: string, body?: unknown) =>
    server.request({ method, url: `/apollo-beta/api${url}`, token: adminToken, ...(body ? { body } : {}) });
  const endpointsOf = async (tenantId: string) =>
    (
      await server.ctx.db.query<{ authority_url: string | null; graph_base_url: string | null }>(
        'select authority_url, graph_base_url from tenants where tenant_id = $1',
        [tenantId.toLowerCase()],
      )
    )[0];

  /** A page's form posted with these fields (the flow id taken from the page), the answer not followed. */
  async function post(url: string, page: string, fields: Record<string, string>) {
    const flow = /name="flow" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ flow, ...fields }),
      redirect: 'manual',
    });
    return { text: await answer.text(), location: answer.headers.get('location') };
  }

  it('sends admin consent to the configured identity platform, and the tenant keeps its endpoints', async () => {
    expect(((await api('GET', '/tenant-consent')).json() as { authority: string }).authority).toBe(sim.authorityHost);
    const started = await api('POST', '/tenant-consent', {
      organisationId: contoso,
      tenantName: 'Cloud Tenant Ltd',
      applicationId: APP.clientId,
      clientSecret: APP.clientSecret,
    });
    expect(started.statusCode, started.body).toBe(200);
    const { consentUrl } = started.json() as TenantConsentLink;
    expect(consentUrl.startsWith(`${sim.authorityHost}/organizations/v2.0/adminconsent?`)).toBe(true);

    const page = await (await fetch(consentUrl)).text();
    const signedIn = await post(consentUrl, page, {
      login: sim.state.tenant(TENANT).users[0]?.upn ?? '',
      passwd: PASSWORD,
    });
    const answered = await post(consentUrl, signedIn.text, { decision: 'accept' });
    const back = new URL(answered.location ?? '');
    const finished = await api('POST', '/tenant-consent/answer', {
      adminConsent: back.searchParams.get('admin_consent'),
      tenant: back.searchParams.get('tenant'),
      scope: back.searchParams.get('scope'),
      state: back.searchParams.get('state'),
    });
    expect(finished.statusCode, finished.body).toBe(200);
    const outcome = finished.json() as TenantConsentOutcome;
    expect(outcome.outcome).toBe('granted');
    expect(outcome.connectionTest).toMatchObject({ ok: true });
    expect(await endpointsOf(TENANT)).toEqual({ authority_url: sim.authorityHost, graph_base_url: `${sim.url}/v1.0` });
  });

  it('stores them for a tenant typed into the form too, and null for Microsoft’s own cloud', async () => {
    const admin = await seededUser(server, ADMIN);
    const input = () => ({
      tenantName: `tenant-${randomUUID().slice(0, 8)}.onmicrosoft.com`,
      applicationId: randomUUID(),
      clientSecret: 'a client secret',
      tenantId: randomUUID(),
      objectId: randomUUID(),
      redirectUri: 'https://portal.test/auth/callback',
      organisationId: contoso,
    });
    const typed = await connectTenant(server.ctx, { user: admin, ip: '192.0.2.1' }, input());
    expect(await endpointsOf(typed.tenantId)).toEqual({
      authority_url: sim.authorityHost,
      graph_base_url: `${sim.url}/v1.0`,
    });

    server.ctx.config.m365Cloud = MICROSOFT_CLOUD;
    const global = await connectTenant(server.ctx, { user: admin, ip: '192.0.2.1' }, input());
    expect(await endpointsOf(global.tenantId)).toEqual({ authority_url: null, graph_base_url: null });
  });
});
