/**
 * Sign-in with Microsoft Entra ID end to end over HTTP: the portal (openid-client as relying party)
 * against the Graph simulator as the identity platform (its sign-in page, code grant with PKCE,
 * signed ID tokens and JWKS). The ID tokens the simulator makes wrong on purpose (another tenant's,
 * another audience, expired, an earlier sign-in's nonce, a broken signature) are each refused with
 * their own code and a message in English and German; a replayed callback, an account of another
 * organisation and a user linked to another Entra account are refused too.
 */

import { firstUserAddress, type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { type ErrorCode, errorMessage } from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN,
  DEMO_PASSWORD,
  organisationId,
  PARTNER,
  sessionToken,
  type TestServer,
  useTestServer,
} from './helpers.js';

const CONTOSO_TENANT = '3c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const OTHER_TENANT = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const APP = { clientId: '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a', clientSecret: 'portal-sign-in-secret' };
const ADELE = firstUserAddress(CONTOSO_TENANT);
const ALEX = ADELE.replace('adele@', 'alex@');

const server: TestServer = useTestServer();
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    tenants: [
      { tenantId: CONTOSO_TENANT, size: { users: 3 } },
      { tenantId: OTHER_TENANT, size: { users: 2 } },
    ],
    signInApps: [{ ...APP, redirectUris: [`${server.ctx.config.publicUrl}/signin/microsoft`] }],
  });
  server.ctx.config.entra = { ...APP, authority: sim.authorityHost };
  const db = server.ctx.db;
  const contoso = await organisationId(server, 'Contoso');
  const fabrikam = await organisationId(server, 'Fabrikam Partners');
  await db.query('update organisations set entra_sign_in = true, entra_tenant_id = $2 where id = $1', [
    contoso,
    CONTOSO_TENANT,
  ]);
  const [admin] = await db.query<{ password_hash: string }>('select password_hash from users where email = $1', [
    ADMIN,
  ]);
  // Adele is Contoso's; Alex, of the same Entra tenant, has a portal account in another organisation.
  for (const [email, organisation] of [
    [ADELE, contoso],
    [ALEX, fabrikam],
  ] as const) {
    await db.query(
      `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
       values (gen_random_uuid()::text, $1, $1, $2, 'admin', $3, true)`,
      [email, admin?.password_hash, organisation],
    );
  }
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(async () => {
  sim.state.idTokenFault = 'none';
  await server.ctx.db.query('update users set entra_object_id = null');
  await server.ctx.db.query(`update organisations set password_sign_in = true`);
});

const post = (url: string, body: unknown, token?: string) =>
  server.request({ method: 'POST', url, body, ...(token ? { token } : {}) });

/** Starts a sign-in for `email`; answers the authorization URL. */
async function start(email: string): Promise<URL> {
  const answer = await post('/api/auth/microsoft/start', { email });
  expect(answer.statusCode, answer.body).toBe(200);
  return new URL((answer.json() as { authorizationUrl: string }).authorizationUrl);
}

/** Signs in on the simulator's page as `login`; answers the code and state it returns. */
async function signInAt(url: URL, login: string): Promise<{ code: string; state: string }> {
  const page = await (await fetch(url)).text();
  const flow = /name="flow" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ flow, login }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(`${server.ctx.config.publicUrl}/signin/microsoft`);
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
}

const complete = (callback: { code: string; state: string }) => post('/api/auth/microsoft/complete', callback);

/** The refusal's code, and its messages in both languages (the SDK's catalogue). */
function refusedWith(answer: { statusCode: number; json(): unknown }, code: ErrorCode) {
  expect(answer.statusCode).toBe(400);
  const body = answer.json() as { code?: string; message?: string };
  expect(body.code).toBe(code);
  const english = errorMessage(body, 'en').message;
  const german = errorMessage(body, 'de').message;
  expect(english).not.toBe(german);
  expect(english.length).toBeGreaterThan(20);
  return { english, german };
}

describe('sign-in with Microsoft', () => {
  it("signs a user in through the organisation's tenant and links the Entra account", async () => {
    const started = Date.now();
    const url = await start(ADELE);
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.authorityHost}/${CONTOSO_TENANT}/oauth2/v2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: APP.clientId,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge_method: 'S256',
      login_hint: ADELE,
      redirect_uri: `${server.ctx.config.publicUrl}/signin/microsoft`,
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const answer = await complete(await signInAt(url, ADELE));
    expect(answer.statusCode, answer.body).toBe(200);
    const { token, user } = answer.json() as { token: string; user: { email: string } };
    expect(user.email).toBe(ADELE);
    console.log(`sign-in with Microsoft through the simulator: ${Date.now() - started} ms`);
    const me = await server.request({ method: 'GET', url: '/api/auth/verify-user', token });
    expect(me.statusCode).toBe(200);
    const tenantUser = sim.state.tenant(CONTOSO_TENANT).users.find((u) => u.upn === ADELE);
    const [linked] = await server.ctx.db.query<{ entra_object_id: string }>(
      'select entra_object_id from users where email = $1',
      [ADELE],
    );
    expect(linked?.entra_object_id).toBe(tenantUser?.id);
    const activity = await server.request({ method: 'GET', url: '/api/auth/sessions/activity', token });
    expect((activity.json() as { items: { kind: string; method?: string }[] }).items[0]).toMatchObject({
      kind: 'signedIn',
      method: 'microsoft',
    });
  });

  it.each([
    ['otherTenant', 'entraOtherTenant'],
    ['wrongAudience', 'entraWrongAudience'],
    ['expired', 'entraExpired'],
    ['replayedNonce', 'entraReplayed'],
    ['tamperedSignature', 'entraBadSignature'],
  ] as const)('refuses an ID token made wrong by %s with %s, in English and German', async (fault, code) => {
    // An earlier, good sign-in, so that a replayed nonce has one to come from.
    await complete(await signInAt(await start(ADELE), ADELE));
    sim.state.idTokenFault = fault;
    const answer = await complete(await signInAt(await start(ADELE), ADELE));
    refusedWith(answer, code);
    const [audit] = await server.ctx.db.query<{ outcome: string; details: { code: string } }>(
      `select outcome, details from audit_log where action = 'auth.microsoft' order by seq desc limit 1`,
    );
    expect(audit).toMatchObject({ outcome: 'failure', details: { code } });
  });

  it('refuses a replayed callback: its state is used', async () => {
    const callback = await signInAt(await start(ADELE), ADELE);
    expect((await complete(callback)).statusCode).toBe(200);
    refusedWith(await complete(callback), 'entraReplayed');
    refusedWith(await complete({ code: callback.code, state: 'made-up-state' }), 'entraReplayed');
  });

  it('matches only within the organisation: an account of the same tenant in another organisation is refused', async () => {
    // Alex signs in at Contoso's tenant, where his portal account is Fabrikam's.
    refusedWith(await complete(await signInAt(await start(ADELE), ALEX)), 'entraNoAccount');
    const [alex] = await server.ctx.db.query<{ entra_object_id: string | null }>(
      'select entra_object_id from users where email = $1',
      [ALEX],
    );
    expect(alex?.entra_object_id).toBeNull();
  });

  it('refuses a user linked to another Entra account', async () => {
    await server.ctx.db.query(`update users set entra_object_id = 'another-object-id' where email = $1`, [ADELE]);
    refusedWith(await complete(await signInAt(await start(ADELE), ADELE)), 'entraNoAccount');
  });

  it('does not start for an organisation without it, nor tell an unknown address apart', async () => {
    const other = await post('/api/auth/microsoft/start', { email: PARTNER });
    const unknown = await post('/api/auth/microsoft/start', { email: 'nobody@nowhere.example' });
    refusedWith(other, 'entraNotAvailable');
    expect(unknown.json()).toMatchObject({
      code: 'entraNotAvailable',
      message: (other.json() as { message: string }).message,
    });
  });

  it('says whether the server offers it', async () => {
    const answer = await server.request({ method: 'GET', url: '/api/auth/sign-in-options' });
    expect(answer.json()).toEqual({ microsoft: true });
  });
});

describe("the organisation's sign-in settings", () => {
  it('turns password sign-in off only after the person has signed in with Microsoft, then refuses passwords', async () => {
    const adminToken = await sessionToken(server, ADMIN);
    const put = (body: unknown, token = adminToken) =>
      server.request({ method: 'PUT', url: '/api/auth/sign-in-settings', token, body });
    const read = await server.request({ method: 'GET', url: '/api/auth/sign-in-settings', token: adminToken });
    expect(read.json()).toEqual({ microsoft: true, entraTenantId: CONTOSO_TENANT, password: true });
    const off = { microsoft: true, entraTenantId: CONTOSO_TENANT, password: false };
    expect((await put(off)).json()).toMatchObject({ code: 'passwordOffNeedsMicrosoft' });
    expect((await put({ microsoft: true, entraTenantId: null, password: true })).json()).toMatchObject({
      code: 'entraTenantRequired',
    });
    expect((await put({ microsoft: false, entraTenantId: null, password: false })).json()).toMatchObject({
      code: 'passwordOffNeedsMicrosoft',
    });
    const signedIn = await complete(await signInAt(await start(ADELE), ADELE));
    const adeleToken = (signedIn.json() as { token: string }).token;
    const changed = await put(off, adeleToken);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual(off);

    const legacy = await post('/api/auth/signin', { email: ADMIN, password: DEMO_PASSWORD });
    expect(legacy.statusCode).toBe(403);
    expect(legacy.json()).toMatchObject({ code: 'passwordSignInOff' });
    const apollo = await server.request({
      method: 'POST',
      url: '/apollo/login',
      body: { email: ADMIN, password: DEMO_PASSWORD },
    });
    expect(apollo.statusCode).toBe(401);
    expect(apollo.json()).toMatchObject({ detail: 'NotAllowed' });
    const [audit] = await server.ctx.db.query<{
      details: { before: { password: boolean }; after: { password: boolean } };
    }>(`select details from audit_log where action = 'organisation.signIn.update' order by seq desc limit 1`);
    expect(audit?.details).toMatchObject({ before: { password: true }, after: { password: false } });
  });

  it('binds a tenant to one organisation only', async () => {
    const partnerToken = await sessionToken(server, PARTNER);
    const answer = await server.request({
      method: 'PUT',
      url: '/api/auth/sign-in-settings',
      token: partnerToken,
      body: { microsoft: true, entraTenantId: CONTOSO_TENANT.toUpperCase(), password: true },
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ code: 'entraTenantTaken' });
  });
});
