/**
 * Entra ID's admin consent endpoint as a portal uses it: the consent page an administrator clicks
 * through, the answers sent back to the redirect URI (granted, declined, with the state passed
 * through), the refusals shown on the identity platform's own page (an unknown client, a redirect
 * URI the app did not register, an unknown tenant), and what the token endpoint grants before and
 * after: the tenant's own app registration gets its permissions, a multi-tenant app gets a token at
 * all only once consented (MSAL Node, as an integrator calls it, reads the refusal).
 */
import { ConfidentialClientApplication } from '@azure/msal-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { claimsOf, TENANT } from './helpers.js';

/** A second tenant, not yet consented anywhere, whose own app asks for three permissions. */
const OWN_TENANT = '22222222-3333-4444-8555-666666666666';
const OWN_APP = { clientId: '77777777-8888-4999-8aaa-bbbbbbbbbbbb', clientSecret: 'own-secret' };
const PARTNER_APP = {
  clientId: 'cccccccc-dddd-4eee-8fff-000000000001',
  clientSecret: 'partner-secret',
  displayName: 'Partner backup',
  redirectUris: ['https://portal.example/configuration/tenant-consent'],
  applicationPermissions: ['User.Read.All', 'Mail.Read'],
};
const REDIRECT = 'https://portal.example/configuration/tenant-consent';
const PERMISSIONS = ['User.Read.All', 'Sites.Read.All', 'Mail.ReadWrite'];
const PASSWORD = 'Simulated-Passw0rd!';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    tenants: [
      { tenantId: TENANT, size: { users: 2 } },
      {
        tenantId: OWN_TENANT,
        ...OWN_APP,
        size: { users: 3 },
        consent: [],
        redirectUris: [REDIRECT],
        applicationPermissions: PERMISSIONS,
        appDisplayName: 'Compliance Portal',
      },
    ],
    multiTenantApps: [PARTNER_APP],
    userPassword: PASSWORD,
  });
});
afterAll(async () => {
  await sim?.close();
});
// Each test begins with the tenant's own app registration granted nothing.
beforeEach(() => {
  sim.state.setConsent(OWN_TENANT, []);
});

const admin = (tenantId: string) => sim.state.tenant(tenantId).users[0]?.upn ?? '';

function consentUrl(
  tenant: string,
  params: { clientId?: string; redirectUri?: string; state?: string; scope?: string | null } = {},
) {
  const url = new URL(`${sim.authorityHost}/${tenant}/v2.0/adminconsent`);
  url.searchParams.set('client_id', params.clientId ?? OWN_APP.clientId);
  if (params.scope !== null) url.searchParams.set('scope', params.scope ?? 'https://graph.microsoft.com/.default');
  url.searchParams.set('redirect_uri', params.redirectUri ?? REDIRECT);
  if (params.state !== undefined) url.searchParams.set('state', params.state);
  return url.toString();
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

/** Opens the consent URL, signs in as `login` and answers the consent page with `decision`. */
async function consent(url: string, login: string, decision: 'accept' | 'cancel') {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const signedIn = await post(url, await page.text(), { login, passwd: PASSWORD });
  expect(signedIn.status, signedIn.text).toBe(200);
  expect(signedIn.text).toContain('Permissions requested');
  const answered = await post(url, signedIn.text, { decision });
  expect(answered.status).toBe(302);
  return { consentPage: signedIn.text, location: new URL(answered.location ?? '') };
}

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
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

const users = (accessToken: string) =>
  fetch(`${sim.graphBaseUrl}/users`, { headers: { authorization: `Bearer ${accessToken}` } });

describe('admin consent to a tenant’s own app registration', () => {
  it('grants the app’s permissions once its administrator accepts, answering the redirect URI as Entra ID does', async () => {
    // Before consent: a token without roles, which Graph refuses.
    const before = await token(OWN_TENANT, OWN_APP);
    expect(before.status).toBe(200);
    expect(claimsOf(String(before.body.access_token)).roles).toBeUndefined();
    expect((await users(String(before.body.access_token))).status).toBe(403);

    const state = 'a state/with spaces & symbols=1';
    const { consentPage, location } = await consent(
      consentUrl('organizations', { state }),
      admin(OWN_TENANT),
      'accept',
    );
    expect(consentPage).toContain('Compliance Portal');
    for (const permission of PERMISSIONS) expect(consentPage).toContain(permission);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect([...location.searchParams.keys()]).toEqual(['admin_consent', 'tenant', 'scope', 'state']);
    expect(location.searchParams.get('admin_consent')).toBe('True');
    expect(location.searchParams.get('tenant')).toBe(OWN_TENANT);
    expect(location.searchParams.get('scope')).toBe(
      PERMISSIONS.map((p) => `https://graph.microsoft.com/${p}`).join(' '),
    );
    expect(location.searchParams.get('state')).toBe(state);

    const after = await token(OWN_TENANT, OWN_APP);
    expect(claimsOf(String(after.body.access_token)).roles).toEqual(PERMISSIONS);
    expect((await users(String(after.body.access_token))).status).toBe(200);
  });

  it('sends a decline back as access_denied with AADSTS65004, the state passed through and nothing granted', async () => {
    const { location } = await consent(
      consentUrl(sim.state.tenant(OWN_TENANT).domain, { state: 'declined-1' }),
      admin(OWN_TENANT),
      'cancel',
    );
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('admin_consent')).toBe('True');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toMatch(
      /^AADSTS65004: User declined to consent to access the app\.\r\nTrace ID: /,
    );
    expect(location.searchParams.get('state')).toBe('declined-1');
    expect(location.searchParams.has('tenant')).toBe(false);
    expect(sim.state.consent(OWN_TENANT)).toEqual([]);
  });

  it('answers without a state when the request had none', async () => {
    const { location } = await consent(consentUrl(OWN_TENANT), admin(OWN_TENANT), 'cancel');
    expect(location.searchParams.has('state')).toBe(false);
  });

  it('refuses an unknown client and an unregistered redirect URI on its own page, without redirecting', async () => {
    for (const [url, code] of [
      [consentUrl(OWN_TENANT, { clientId: '00000000-1111-4222-8333-444444444444', state: 's' }), 'AADSTS700016'],
      [consentUrl(OWN_TENANT, { redirectUri: 'https://evil.example/steal', state: 's' }), 'AADSTS50011'],
      [consentUrl('33333333-4444-4555-8666-777777777777', { state: 's' }), 'AADSTS90002'],
      // A single-tenant app is known only in its own tenant.
      [consentUrl(TENANT, { state: 's' }), 'AADSTS700016'],
    ] as const) {
      const page = await fetch(url, { redirect: 'manual' });
      expect(page.status, url).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(await page.text()).toContain(code);
    }
  });

  it('sends an invalid scope back to the trusted redirect URI', async () => {
    const answer = await fetch(consentUrl(OWN_TENANT, { scope: 'openid profile', state: 'x' }), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('error_description')).toMatch(/^AADSTS70011:/);
    expect(location.searchParams.get('state')).toBe('x');
  });

  it('lets only an administrator consent, and only an account of the tenant sign in', async () => {
    const url = consentUrl(OWN_TENANT);
    const page = await (await fetch(url)).text();
    const member = sim.state.tenant(OWN_TENANT).users[1]?.upn ?? '';
    const refused = await post(url, page, { login: member, passwd: PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('AADSTS90094');
    const stranger = await post(url, refused.text, { login: admin(TENANT), passwd: PASSWORD });
    expect(stranger.text).toContain('AADSTS50034');
    const wrongPassword = await post(url, stranger.text, { login: admin(OWN_TENANT), passwd: 'wrong' });
    expect(wrongPassword.text).toContain('AADSTS50126');
    // A decision without a signed-in administrator shows the sign-in page again and grants nothing.
    const skipped = await post(url, wrongPassword.text, { decision: 'accept' });
    expect(skipped.status).toBe(200);
    expect(skipped.text).toContain('id="login"');
    expect(sim.state.consent(OWN_TENANT)).toEqual([]);
  });
});

describe('admin consent to a multi-tenant app', () => {
  const msal = (tenantId: string) =>
    new ConfidentialClientApplication({
      auth: {
        clientId: PARTNER_APP.clientId,
        clientSecret: PARTNER_APP.clientSecret,
        authority: `${sim.authorityHost}/${tenantId}`,
        knownAuthorities: [new URL(sim.url).host],
      },
    });

  it('issues no token before the tenant consents (AADSTS7000229), and one with the consented roles after', async () => {
    await expect(
      msal(TENANT).acquireTokenByClientCredential({ scopes: ['https://graph.microsoft.com/.default'] }),
    ).rejects.toMatchObject({ errorCode: 'invalid_client', errorMessage: expect.stringContaining('AADSTS7000229') });

    const { location } = await consent(
      consentUrl('organizations', { clientId: PARTNER_APP.clientId, state: 'partner' }),
      admin(TENANT),
      'accept',
    );
    expect(location.searchParams.get('tenant')).toBe(TENANT);
    const result = await msal(TENANT).acquireTokenByClientCredential({
      scopes: ['https://graph.microsoft.com/.default'],
    });
    expect(claimsOf(result?.accessToken ?? '').roles).toEqual(PARTNER_APP.applicationPermissions);
    expect(claimsOf(result?.accessToken ?? '').tid).toBe(TENANT);
    // Consent in one tenant is not consent in another.
    expect((await token(OWN_TENANT, PARTNER_APP)).body.error_codes).toEqual([7000229]);
    // A wrong secret is refused as such, consent or not.
    expect((await token(TENANT, { ...PARTNER_APP, clientSecret: 'wrong' })).body.error_codes).toEqual([7000215]);
  });
});
