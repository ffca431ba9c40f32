/**
 * Connecting a tenant by admin consent over HTTP, against the simulator's admin consent endpoint and
 * its consent page: the link the portal makes (its state stored only as a hash, the secret sealed),
 * the answer of a grant (the tenant connected with what the token says, the connection test run at
 * once, audited in the connection's transaction), of a decline and of Microsoft's errors; the state
 * used once, by its own user only, within ten minutes, finished by another API process than the one
 * that began it; a forged answer naming a tenant the app has no token for connects nothing; a
 * connected tenant is consented to again at its own tenant.
 */
import { type MultiTenantApp, type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import type { Tenant, TenantConsentLink, TenantConsentOutcome } from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { sha256 } from '../src/crypto/tokens.js';
import { missingPermissions } from '../src/m365/permissions.js';
import { useConsentPlatform } from '../src/modules/tenant-consent/service.js';
import {
  ADMIN,
  API_KEY,
  organisationId,
  PARTNER,
  sessionToken,
  TENANTS,
  type TestServer,
  testContext,
  useTestServer,
} from './helpers.js';

/** A tenant not connected yet, whose own app registration asks for the portal's permissions, none granted. */
const NEW_TENANT = '4b5c6d7e-8f90-4a1b-8c2d-3e4f5a6b7c01';
const NEW_APP = { clientId: 'e1e2e3e4-f5f6-4a7b-8c9d-0e1f2a3b4c5d', clientSecret: 'new-tenant-app-secret' };
/** Another tenant served, where NEW_APP does not exist, and which never consented to the partner's app. */
const VICTIM_TENANT = '5c6d7e8f-9012-4b3c-8d4e-5f6a7b8c9d02';
const PARTNER_APP: MultiTenantApp = {
  clientId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c02',
  clientSecret: 'partner-app-secret',
  displayName: 'Partner backup',
  redirectUris: ['http://portal.test/configuration/tenant-consent'],
  applicationPermissions: ['User.Read.All'],
};
const REDIRECT = 'http://portal.test/configuration/tenant-consent';
const PASSWORD = 'Simulated-Passw0rd!';

const server: TestServer = useTestServer();
let sim: RunningSimulator;
let contoso: string;
let adminToken: string;
let partnerToken: string;
const permissions = missingPermissions([]).map((p) => p.permission);

beforeAll(async () => {
  sim = await startSimulator({
    tenants: [
      {
        tenantId: NEW_TENANT,
        ...NEW_APP,
        size: { users: 2 },
        consent: [],
        redirectUris: [REDIRECT],
        applicationPermissions: permissions,
        appDisplayName: 'Compliance Portal',
      },
      // With an app registration of its own: the simulator gives any app a token in a tenant without one.
      {
        tenantId: VICTIM_TENANT,
        clientId: 'f0f1f2f3-a4a5-4b6b-8c7c-d8d9e0e1f203',
        clientSecret: 'victim-app-secret',
        size: { users: 2 },
      },
    ],
    multiTenantApps: [PARTNER_APP],
    userPassword: PASSWORD,
  });
  useConsentPlatform(server.ctx, { authority: sim.authorityHost, graphBaseUrl: sim.graphBaseUrl });
  contoso = await organisationId(server, 'Contoso');
  adminToken = await sessionToken(server, ADMIN);
  partnerToken = await sessionToken(server, PARTNER);
});
afterAll(async () => {
  await sim?.close();
});
// Tests run in a random order: each begins with the new tenant not connected and nothing consented.
beforeEach(async () => {
  await removeTenant(NEW_TENANT);
  sim.state.setConsent(NEW_TENANT, []);
});

const api = (method: string, url: string, token: string, body?: unknown) =>
  server.request({ method, url: `/apollo-beta/api${url}`, token, ...(body !== undefined ? { body } : {}) });

async function start(body: Record<string, unknown> = {}, token = adminToken): Promise<TenantConsentLink> {
  const answer = await api('POST', '/tenant-consent', token, {
    organisationId: contoso,
    tenantName: 'New Tenant Ltd',
    applicationId: NEW_APP.clientId,
    clientSecret: NEW_APP.clientSecret,
    ...body,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as TenantConsentLink;
}

/** A page's form posted with these fields (the flow id taken from the page), the answer not followed. */
async function post(url: string, page: string, fields: Record<string, string>) {
  const flow = /name="flow" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ flow, ...fields }),
    redirect: 'manual',
  });
  return { status: answer.status, text: await answer.text(), location: answer.headers.get('location') };
}

/** What the browser brings back to the portal's page after the administrator's decision on the consent page. */
async function decide(link: TenantConsentLink, decision: 'accept' | 'cancel', tenantId = NEW_TENANT) {
  const page = await fetch(link.consentUrl);
  expect(page.status).toBe(200);
  const signedIn = await post(link.consentUrl, await page.text(), {
    login: sim.state.tenant(tenantId).users[0]?.upn ?? '',
    passwd: PASSWORD,
  });
  expect(signedIn.status, signedIn.text).toBe(200);
  const answered = await post(link.consentUrl, signedIn.text, { decision });
  expect(answered.status).toBe(302);
  const back = new URL(answered.location ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  const q = back.searchParams;
  return {
    state: q.get('state') ?? '',
    ...(q.has('admin_consent') ? { adminConsent: q.get('admin_consent') ?? '' } : {}),
    ...(q.has('tenant') ? { tenant: q.get('tenant') ?? '' } : {}),
    ...(q.has('scope') ? { scope: q.get('scope') ?? '' } : {}),
    ...(q.has('error') ? { error: q.get('error') ?? '' } : {}),
    ...(q.has('error_description') ? { errorDescription: q.get('error_description') ?? '' } : {}),
  };
}

/** The new tenant connected by a consent its administrator accepts. */
async function connectNew(): Promise<TenantConsentOutcome> {
  const finished = await finish(await decide(await start(), 'accept'));
  expect(finished.statusCode, finished.body).toBe(200);
  return finished.json() as TenantConsentOutcome;
}

const stateOf = (link: TenantConsentLink) => new URL(link.consentUrl).searchParams.get('state') ?? '';

const finish = (answer: Record<string, string>, token = adminToken) =>
  api('POST', '/tenant-consent/answer', token, answer);

async function audits(action: string) {
  return server.ctx.db.query<{ outcome: string; target: string | null; details: Record<string, unknown> }>(
    'select outcome, target, details from audit_log where action = $1 order by seq',
    [action],
  );
}

async function removeTenant(tenantId: string) {
  await server.ctx.db.query('update workers set stagingtenant_id = null where stagingtenant_id = $1', [tenantId]);
  await server.ctx.db.query('delete from tenants where tenant_id = $1', [tenantId]);
}

describe('what an app registration needs', () => {
  it('names the portal’s redirect URI, the identity platform and every permission with its areas', async () => {
    const answer = await api('GET', '/tenant-consent', adminToken);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      redirectUri: REDIRECT,
      authority: sim.authorityHost,
      permissions: missingPermissions([]),
    });
    expect(permissions).toContain('User.Read.All');
  });
});

describe('connecting a new tenant by admin consent', () => {
  it('makes a link with a fresh state, stored only as its hash, and the secret sealed', async () => {
    const link = await start({ directory: 'Contoso.onmicrosoft.com' });
    const url = new URL(link.consentUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.authorityHost}/contoso.onmicrosoft.com/v2.0/adminconsent`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: NEW_APP.clientId,
      scope: 'https://graph.microsoft.com/.default',
      redirect_uri: REDIRECT,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(Date.parse(link.expiresAt) - server.clock.now).toBe(10 * 60_000);
    const rows = await server.ctx.db.query<{ state_hash: string; client_secret_sealed: string }>(
      'select state_hash, client_secret_sealed from tenant_consents',
    );
    const row = rows.find((r) => r.state_hash === sha256(stateOf(link)));
    expect(row).toBeDefined();
    expect(JSON.stringify(rows)).not.toContain(stateOf(link));
    expect(row?.client_secret_sealed).not.toContain(NEW_APP.clientSecret);
    expect(server.ctx.secrets.open(row?.client_secret_sealed ?? '')).toBe(NEW_APP.clientSecret);
  });

  it('connects the tenant the consent was given in, and answers the connection test run at once', async () => {
    const before = await token(NEW_TENANT, NEW_APP);
    expect(before, JSON.stringify(before)).not.toHaveProperty('roles');
    const link = await start();
    const answer = await decide(link, 'accept');
    expect(answer).toMatchObject({ adminConsent: 'True', tenant: NEW_TENANT, state: stateOf(link) });
    const finished = await finish(answer);
    expect(finished.statusCode, finished.body).toBe(200);
    const outcome = finished.json() as TenantConsentOutcome;
    expect(outcome.outcome).toBe('granted');
    expect(outcome.tenant).toMatchObject({
      tenantId: NEW_TENANT,
      tenantName: 'New Tenant Ltd',
      applicationId: NEW_APP.clientId,
      redirectUri: REDIRECT,
      organisationId: contoso,
      hasClientSecret: true,
      adminConsentBy: ADMIN,
      adminConsentAt: new Date(server.clock.now).toISOString(),
      // Read by the connection test the consent runs: the permissions consented to include Organization.Read.All.
      defaultDomain: sim.state.tenant(NEW_TENANT).domain,
    } satisfies Partial<Tenant>);
    // The object ID is the app's service principal in the tenant, as its token names it.
    expect(outcome.tenant?.objectId).toBe((await token(NEW_TENANT, NEW_APP)).oid);
    expect(outcome.connectionTest).toMatchObject({ ok: true });
    expect(outcome.connectionTest?.missingPermissions).toBeUndefined();
    // Reached where it was consented: the simulator's Graph and identity platform.
    const [row] = await server.ctx.db.query<{ graph_base_url: string; authority_url: string }>(
      'select graph_base_url, authority_url from tenants where tenant_id = $1',
      [NEW_TENANT],
    );
    expect(row).toEqual({ graph_base_url: sim.graphBaseUrl, authority_url: sim.authorityHost });
    expect(
      await server.ctx.db.query('select 1 from tenant_consents where state_hash = $1', [sha256(answer.state)]),
    ).toHaveLength(0);
    const created = (await audits('tenant.create')).filter((a) => a.target === NEW_TENANT).at(-1);
    expect(created?.details).toMatchObject({ tenantName: 'New Tenant Ltd', via: 'adminConsent' });
    expect((await audits('tenant.consent')).at(-1)).toEqual({
      outcome: 'success',
      target: NEW_TENANT,
      details: { applicationId: NEW_APP.clientId, renewal: false, outcome: 'granted' },
    });
    expect((await audits('tenant.connectionTest')).at(-1)).toMatchObject({ outcome: 'success', target: NEW_TENANT });

    // The same answer again: the state was used.
    const replay = await finish(answer);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'consentStateUnknown' });
  });

  it('refuses a second consent for a tenant already connected (409)', async () => {
    expect((await connectNew()).outcome).toBe('granted');
    const link = await start({ tenantName: 'Again' });
    const answer = await decide(link, 'accept');
    const finished = await finish(answer);
    expect(finished.statusCode).toBe(409);
    expect(finished.json()).toMatchObject({ code: 'consentTenantConnected' });
  });

  it('consents again for a connected tenant at its own tenant, and tests it', async () => {
    expect((await connectNew()).outcome).toBe('granted');
    sim.state.setConsent(NEW_TENANT, ['User.Read.All']);
    server.clock.advance(60_000);
    const renewal = await api('POST', `/Tenants/${NEW_TENANT}/consent`, adminToken);
    expect(renewal.statusCode, renewal.body).toBe(200);
    const link = renewal.json() as TenantConsentLink;
    expect(new URL(link.consentUrl).pathname).toBe(`/${NEW_TENANT}/v2.0/adminconsent`);
    const finished = await finish(await decide(link, 'accept'));
    const outcome = finished.json() as TenantConsentOutcome;
    expect(outcome.outcome).toBe('granted');
    expect(outcome.tenant?.adminConsentAt).toBe(new Date(server.clock.now).toISOString());
    expect(outcome.connectionTest).toMatchObject({ ok: true });
    expect(sim.state.consent(NEW_TENANT)).toEqual(permissions);
    expect((await audits('tenant.consent')).at(-1)).toMatchObject({
      outcome: 'success',
      target: NEW_TENANT,
      details: { renewal: true, outcome: 'granted' },
    });

    // An answer naming another tenant than the one asked about connects nothing and changes nothing.
    const other = (await api('POST', `/Tenants/${NEW_TENANT}/consent`, adminToken)).json() as TenantConsentLink;
    const forged = await finish({ state: stateOf(other), adminConsent: 'True', tenant: VICTIM_TENANT });
    expect(forged.json()).toEqual({ outcome: 'failed', error: 'otherTenant' });
  });

  it('tells a decline (AADSTS65004) from other errors, connecting nothing', async () => {
    const link = await start();
    const answer = await decide(link, 'cancel');
    expect(answer.error).toBe('access_denied');
    const outcome = (await finish(answer)).json() as TenantConsentOutcome;
    expect(outcome).toEqual({
      outcome: 'declined',
      error: 'access_denied',
      errorCode: 65004,
      description: 'AADSTS65004: User declined to consent to access the app.',
    });
    expect((await audits('tenant.consent')).at(-1)).toEqual({
      outcome: 'failure',
      target: null,
      details: {
        applicationId: NEW_APP.clientId,
        renewal: false,
        outcome: 'declined',
        stage: 'consent',
        error: 'access_denied',
        errorCode: 65004,
      },
    });

    const scope = await start();
    const invalid = (
      await finish({
        state: stateOf(scope),
        adminConsent: 'True',
        error: 'invalid_scope',
        errorDescription:
          "AADSTS70011: The provided value for the input parameter 'scope' is not valid.\r\nTrace ID: x",
      })
    ).json() as TenantConsentOutcome;
    expect(invalid).toEqual({
      outcome: 'failed',
      error: 'invalid_scope',
      errorCode: 70011,
      description: "AADSTS70011: The provided value for the input parameter 'scope' is not valid.",
    });
    const empty = await start();
    expect((await finish({ state: stateOf(empty), adminConsent: 'True' })).json()).toEqual({
      outcome: 'failed',
      error: 'invalidAnswer',
    });
    expect(await server.ctx.db.query('select 1 from tenants where tenant_id = $1', [NEW_TENANT])).toHaveLength(0);
  });

  it('connects nothing from a forged answer naming a tenant the app gets no token from', async () => {
    // The partner's multi-tenant app, never consented in the victim's tenant (AADSTS7000229).
    const partnerLink = await start({ applicationId: PARTNER_APP.clientId, clientSecret: PARTNER_APP.clientSecret });
    const forged = (
      await finish({ state: stateOf(partnerLink), adminConsent: 'True', tenant: VICTIM_TENANT })
    ).json() as TenantConsentOutcome;
    expect(forged).toMatchObject({ outcome: 'failed', error: 'invalid_client', errorCode: 7000229 });
    // The tenant's own app does not exist in the victim's tenant (AADSTS700016).
    const ownLink = await start();
    const foreign = (
      await finish({ state: stateOf(ownLink), adminConsent: 'True', tenant: VICTIM_TENANT })
    ).json() as TenantConsentOutcome;
    expect(foreign).toMatchObject({ outcome: 'failed', errorCode: 700016 });
    // A real consent with a wrong secret typed: the token is refused (AADSTS7000215).
    const wrongSecret = await start({ clientSecret: 'not-the-secret' });
    const refused = (await finish(await decide(wrongSecret, 'accept'))).json() as TenantConsentOutcome;
    expect(refused).toMatchObject({ outcome: 'failed', error: 'invalid_client', errorCode: 7000215 });
    expect(
      await server.ctx.db.query('select 1 from tenants where tenant_id = any($1)', [[NEW_TENANT, VICTIM_TENANT]]),
    ).toHaveLength(0);
    expect((await audits('tenant.consent')).at(-1)).toMatchObject({
      outcome: 'failure',
      target: NEW_TENANT,
      details: { stage: 'token', errorCode: 7000215 },
    });
  });
});

describe('the state of a consent', () => {
  it('is finished only by the user who started it; another user’s attempt leaves it to its owner', async () => {
    const link = await start();
    const answer = { state: stateOf(link), adminConsent: 'True', error: 'access_denied' };
    const stranger = await finish(answer, partnerToken);
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ code: 'consentStateUnknown' });
    expect((await finish(answer)).statusCode).toBe(200);
  });

  it('expires after ten minutes', async () => {
    const link = await start();
    server.clock.advance(10 * 60_000 + 1000);
    const late = await finish({ state: stateOf(link), adminConsent: 'True', tenant: NEW_TENANT });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'consentExpired' });
    expect((await audits('tenant.consent')).at(-1)).toMatchObject({
      outcome: 'failure',
      details: { reason: 'expired' },
    });
  });

  it('is refused for an organisation the caller does not act for, and for another organisation’s tenant', async () => {
    const foreign = await api('POST', '/tenant-consent', partnerToken, {
      organisationId: contoso,
      tenantName: 'Not theirs',
      applicationId: NEW_APP.clientId,
      clientSecret: NEW_APP.clientSecret,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await api('POST', `/Tenants/${TENANTS.contoso}/consent`, partnerToken)).statusCode).toBe(404);
    expect((await api('POST', `/Tenants/${TENANTS.northwind}/consent`, partnerToken)).statusCode).toBe(200);
  });

  it('is finished by another API process than the one that began it', async () => {
    const link = await start();
    const { ctx } = testContext(server.ctx.db);
    useConsentPlatform(ctx, { authority: sim.authorityHost, graphBaseUrl: sim.graphBaseUrl });
    const other = await buildApp(ctx);
    try {
      const answer = await decide(link, 'accept');
      const finished = await other.inject({
        method: 'POST',
        url: '/apollo-beta/api/tenant-consent/answer',
        headers: { 'x-api-key': API_KEY, authorization: `Bearer ${adminToken}` },
        payload: answer,
      });
      expect(finished.statusCode, finished.body).toBe(200);
      expect((finished.json() as TenantConsentOutcome).outcome).toBe('granted');
    } finally {
      await other.close();
    }
  });
});

/** The claims of a token the simulator issues to `app` in `tenantId` now. */
async function token(tenantId: string, app: { clientId: string; clientSecret: string }) {
  const answer = await fetch(`${sim.authorityHost}/${tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scope: 'https://graph.microsoft.com/.default',
    }),
  });
  const { access_token } = (await answer.json()) as { access_token: string };
  return JSON.parse(Buffer.from(access_token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    roles?: string[];
    oid: string;
  };
}
