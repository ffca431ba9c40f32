/**
 * User sign-in against the simulator as Microsoft's own library does it: MSAL Node's confidential
 * client builds the authorization URL (PKCE, state, nonce) and redeems the code; jose checks the ID
 * token against the JWKS the OpenID configuration names. Then the refusals, and the faults a relying
 * party's tests use.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ConfidentialClientApplication } from '@azure/msal-node';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTROL_HEADER, FOREIGN_TENANT_ID, type RunningSimulator, startSimulator } from '../src/index.js';
import { claimsOf, TENANT } from './helpers.js';

const APP = { clientId: 'aaaaaaaa-1111-4222-8333-444444444444', clientSecret: 'sign-in-secret' };
const REDIRECT = 'https://portal.example/signin/microsoft';
const PASSWORD = 'Simulated-Passw0rd!';

let sim: RunningSimulator;
let msal: ConfidentialClientApplication;

beforeAll(async () => {
  sim = await startSimulator({
    tenants: [{ tenantId: TENANT, size: { users: 3 } }],
    signInApps: [{ ...APP, redirectUris: [REDIRECT] }],
    userPassword: PASSWORD,
  });
  msal = new ConfidentialClientApplication({
    auth: {
      clientId: APP.clientId,
      clientSecret: APP.clientSecret,
      authority: `${sim.authorityHost}/${TENANT}`,
      knownAuthorities: [new URL(sim.url).host],
    },
  });
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(() => {
  sim.state.idTokenFault = 'none';
});

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** The sign-in page's flow id (its hidden field). */
const flowOf = (page: string) => /name="flow" value="([^"]+)"/.exec(page)?.[1] ?? '';

/** Opens `url` (the authorization URL), enters the account and password, and answers the redirect. */
async function signInAt(url: string, login: string, password = PASSWORD) {
  const page = await fetch(url);
  const text = await page.text();
  if (page.status !== 200) return { page: page.status, text };
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ flow: flowOf(text), login, passwd: password }),
    redirect: 'manual',
  });
  return { page: answer.status, text: await answer.text(), location: answer.headers.get('location') };
}

const user = () => sim.state.tenant(TENANT).users[0];

async function authorizationUrl(extra: { loginHint?: string } = {}) {
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const nonce = randomBytes(8).toString('hex');
  const url = await msal.getAuthCodeUrl({
    scopes: ['openid', 'profile', 'email'],
    redirectUri: REDIRECT,
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
    state,
    nonce,
    ...(extra.loginHint ? { loginHint: extra.loginHint } : {}),
  });
  return { url, verifier, state, nonce };
}

async function codeFor(login = user()?.upn ?? '') {
  const request = await authorizationUrl({ loginHint: login });
  const result = await signInAt(request.url, login);
  expect(result.page).toBe(302);
  const location = new URL(result.location ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe(request.state);
  return { ...request, code: location.searchParams.get('code') ?? '' };
}

describe('user sign-in (authorization code with PKCE)', () => {
  it('signs a user in with MSAL Node, and jose verifies the ID token against the JWKS', async () => {
    const { code, verifier, nonce } = await codeFor();
    // MSAL checks the ID token's nonce against the one its authorization URL carried.
    const result = await msal.acquireTokenByCode({
      code,
      codeVerifier: verifier,
      redirectUri: REDIRECT,
      scopes: ['openid', 'profile', 'email'],
      nonce,
    });
    const expected = user();
    expect(result.idTokenClaims).toMatchObject({
      tid: TENANT,
      oid: expected?.id,
      email: expected?.upn,
      preferred_username: expected?.upn,
      name: expected?.displayName,
      nonce,
      aud: APP.clientId,
      ver: '2.0',
    });
    expect(result.account?.tenantId).toBe(TENANT);
    const config = (await (
      await fetch(`${sim.authorityHost}/${TENANT}/v2.0/.well-known/openid-configuration`)
    ).json()) as {
      issuer: string;
      jwks_uri: string;
      authorization_endpoint: string;
    };
    expect(config.authorization_endpoint).toBe(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/authorize`);
    const { payload } = await jwtVerify(result.idToken, createRemoteJWKSet(new URL(config.jwks_uri)), {
      issuer: config.issuer,
      audience: APP.clientId,
    });
    expect(payload.tid).toBe(TENANT);
  });

  it('is refused by MSAL Node when the ID token carries the nonce of an earlier sign-in', async () => {
    await codeFor();
    sim.state.idTokenFault = 'replayedNonce';
    const { code, verifier, nonce } = await codeFor();
    await expect(
      msal.acquireTokenByCode({
        code,
        codeVerifier: verifier,
        redirectUri: REDIRECT,
        scopes: ['openid', 'profile', 'email'],
        nonce,
      }),
    ).rejects.toThrow(/nonce_mismatch/);
  });

  it('prefills the login hint and shows the password field', async () => {
    const { url } = await authorizationUrl({ loginHint: 'adele@example' });
    const page = await (await fetch(url)).text();
    expect(page).toContain('value="adele@example"');
    expect(page).toContain('type="password"');
  });

  it('refuses an unknown application and an unregistered redirect URI on its own page', async () => {
    const good = new URL((await authorizationUrl()).url);
    const otherClient = new URL(good);
    otherClient.searchParams.set('client_id', 'bbbbbbbb-1111-4222-8333-444444444444');
    const unknown = await fetch(otherClient);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('AADSTS700016');
    const otherRedirect = new URL(good);
    otherRedirect.searchParams.set('redirect_uri', 'https://attacker.example/callback');
    const refused = await fetch(otherRedirect, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('AADSTS50011');
  });

  it('sends an unknown tenant and a missing openid scope back to the application as errors', async () => {
    const good = new URL((await authorizationUrl()).url);
    const tenant = new URL(good.toString().replace(TENANT, '99999999-2222-4333-8444-555555555555'));
    const unknown = await fetch(tenant, { redirect: 'manual' });
    expect(unknown.status).toBe(302);
    expect(new URL(unknown.headers.get('location') ?? '').searchParams.get('error_description')).toMatch(
      /^AADSTS90002/,
    );
    const scope = new URL(good);
    scope.searchParams.set('scope', 'profile');
    const answer = await fetch(scope, { redirect: 'manual' });
    expect(new URL(answer.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_scope');
  });

  it('refuses an account not in the directory and a wrong password on the page', async () => {
    const { url } = await authorizationUrl();
    const missing = await signInAt(url, 'nobody@elsewhere.example');
    expect(missing.page).toBe(400);
    expect(missing.text).toContain('AADSTS50034');
    const wrong = await signInAt((await authorizationUrl()).url, user()?.upn ?? '', 'not-the-password');
    expect(wrong.page).toBe(400);
    expect(wrong.text).toContain('AADSTS50126');
  });

  it('refuses a wrong PKCE verifier, a reused code and a wrong client secret', async () => {
    const redeem = (code: string, verifier: string, secret = APP.clientSecret) =>
      fetch(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: APP.clientId,
          client_secret: secret,
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
          scope: 'openid profile email',
        }),
      });
    const first = await codeFor();
    expect((await (await redeem(first.code, pkce().verifier)).json()) as object).toMatchObject({
      error: 'invalid_grant',
      error_codes: [501481],
    });
    const second = await codeFor();
    expect((await redeem(second.code, second.verifier, 'wrong')).status).toBe(401);
    expect((await redeem(second.code, second.verifier)).status).toBe(200);
    expect((await (await redeem(second.code, second.verifier)).json()) as object).toMatchObject({
      error: 'invalid_grant',
      error_codes: [54005],
    });
  });
});

describe('ID token faults for a relying party', () => {
  async function idTokenWith(fault: (typeof sim.state)['idTokenFault']) {
    const control = await fetch(`${sim.url}/_simulator/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CONTROL_HEADER]: sim.controlKey },
      body: JSON.stringify({ fault }),
    });
    expect(control.status).toBe(200);
    const { code, verifier, nonce } = await codeFor();
    const answer = await fetch(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: APP.clientId,
        client_secret: APP.clientSecret,
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    });
    const { id_token } = (await answer.json()) as { id_token: string };
    return { token: id_token, claims: claimsOf(id_token), nonce };
  }
  const jwks = () => createRemoteJWKSet(new URL(`${sim.authorityHost}/${TENANT}/discovery/v2.0/keys`));
  const now = () => Math.floor(Date.now() / 1000);

  it('makes each fault, and only it', async () => {
    const other = await idTokenWith('otherTenant');
    expect(other.claims).toMatchObject({ tid: FOREIGN_TENANT_ID, iss: `${sim.url}/${FOREIGN_TENANT_ID}/v2.0` });
    const audience = await idTokenWith('wrongAudience');
    expect(audience.claims.aud).not.toBe(APP.clientId);
    expect(audience.claims.tid).toBe(TENANT);
    const expired = await idTokenWith('expired');
    expect(Number(expired.claims.exp)).toBeLessThan(now());
    const earlier = await idTokenWith('none');
    const replayed = await idTokenWith('replayedNonce');
    expect(replayed.claims.nonce).toBe(earlier.nonce);
    expect(replayed.claims.nonce).not.toBe(replayed.nonce);
    const tampered = await idTokenWith('tamperedSignature');
    await expect(jwtVerify(tampered.token, jwks())).rejects.toThrow(/signature/i);
    await expect(jwtVerify(earlier.token, jwks(), { audience: APP.clientId })).resolves.toBeDefined();
  });

  it('refuses an unknown fault and a request without the control key', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${sim.url}/_simulator/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ fault: 'everything' }),
      });
    expect((await post({ [CONTROL_HEADER]: sim.controlKey })).status).toBe(400);
    expect((await post({})).status).toBe(403);
  });
});
