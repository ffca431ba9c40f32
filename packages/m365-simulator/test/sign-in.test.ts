/**
 * User sign-in against the simulator as Microsoft's own library does it: MSAL Node's confidential
 * client builds the authorization URL (PKCE, state, nonce) and redeems the code; jose checks the ID
 * token against the JWKS the OpenID configuration names. Then the refusals, and the faults a relying
 * party's tests use; then the delegated tokens: Graph's scopes in Entra ID's short form, the user's
 * consent kept per app, refresh tokens with `offline_access`, the refresh_token grant and its
 * refusals, and MSAL's silent and forced refresh.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ConfidentialClientApplication } from '@azure/msal-node';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTROL_HEADER, FOREIGN_TENANT_ID, type RunningSimulator, startSimulator } from '../src/index.js';
import { claimsOf, SIGN_IN_APP, signInTokens, TENANT, tokenRequest, type UserTokenAnswer } from './helpers.js';

const APP = { clientId: SIGN_IN_APP.clientId, clientSecret: SIGN_IN_APP.clientSecret };
const REDIRECT = 'https://portal.example/signin/microsoft';
const PASSWORD = 'Simulated-Passw0rd!';
/** Another web app registered for sign-in, whose registration configures two Graph permissions. */
const OTHER_APP = {
  clientId: 'cccccccc-1111-4222-8333-444444444444',
  clientSecret: 'other-secret',
  redirectUris: [REDIRECT],
  delegatedPermissions: ['User.Read', 'Files.Read'],
};

let sim: RunningSimulator;
let msal: ConfidentialClientApplication;

beforeAll(async () => {
  sim = await startSimulator({
    tenants: [{ tenantId: TENANT, size: { users: 3 } }],
    signInApps: [{ ...APP, redirectUris: [REDIRECT] }, OTHER_APP],
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

describe('delegated tokens: scopes, refresh tokens and the refresh_token grant', () => {
  const login = () => user()?.upn ?? '';
  const signIn = (scope: string, upn = login()) => signInTokens(sim, upn, scope, PASSWORD);
  const refresh = (refreshToken: string, more: Record<string, string> = {}) =>
    tokenRequest(sim, { grant_type: 'refresh_token', refresh_token: refreshToken, ...more });
  const refreshed = async (refreshToken: string, more: Record<string, string> = {}) => {
    const answer = await refresh(refreshToken, more);
    expect(answer.status, await answer.clone().text()).toBe(200);
    return (await answer.json()) as UserTokenAnswer;
  };

  it("answers Graph's scopes short, as Entra ID does, with an access token for Graph whose scp they are", async () => {
    const answer = await signIn(
      'openid profile email offline_access https://graph.microsoft.com/User.Read https://graph.microsoft.com/mail.read',
    );
    expect(answer).toMatchObject({
      token_type: 'Bearer',
      scope: 'User.Read Mail.Read openid profile email',
      expires_in: 3599,
      ext_expires_in: 3599,
      refresh_token: expect.stringMatching(/^1\.[\w-]+$/),
    });
    const config = `${sim.authorityHost}/${TENANT}/discovery/v2.0/keys`;
    const { payload } = await jwtVerify(answer.access_token, createRemoteJWKSet(new URL(config)), {
      audience: 'https://graph.microsoft.com',
      issuer: `https://sts.windows.net/${TENANT}/`,
    });
    expect(payload).toMatchObject({
      scp: 'User.Read Mail.Read openid profile email',
      idtyp: 'user',
      oid: user()?.id,
      upn: user()?.upn,
      name: user()?.displayName,
      appid: APP.clientId,
      tid: TENANT,
    });
    expect(payload).not.toHaveProperty('roles');
    expect(claimsOf(answer.id_token ?? '')).toMatchObject({ oid: user()?.id, aud: APP.clientId });
  });

  it('issues a refresh token only with offline_access, and an ID token only with openid', async () => {
    const without = await signIn('openid profile User.Read');
    expect(without).not.toHaveProperty('refresh_token');
    expect(without.id_token).toBeDefined();
    const once = await signIn('openid offline_access User.Read');
    const noOpenId = await refreshed(once.refresh_token ?? '', { scope: 'User.Read offline_access' });
    expect(noOpenId).not.toHaveProperty('id_token');
    expect(noOpenId.scope).toBe('User.Read');
  });

  it('keeps what a user consented to for the app: a later sign-in without it, and .default, are granted it', async () => {
    const other = sim.state.tenant(TENANT).users[1]?.upn ?? '';
    await signIn('openid Mail.Read', other);
    // Naming no Graph permission at the token endpoint: every one consented to, User.Read with the sign-in.
    const later = await signInTokens(sim, other, 'openid profile', PASSWORD);
    expect(later.scope).toBe('User.Read Mail.Read openid profile');
    const registration = await signInWith(OTHER_APP, 'openid https://graph.microsoft.com/.default offline_access');
    expect(registration.scope).toBe('User.Read Files.Read openid');
  });

  it('redeems a refresh token for new tokens and a new refresh token; the old one stays good; scopes narrow', async () => {
    const first = await signIn('openid profile offline_access User.Read Mail.Read');
    const before = sim.state.grants.refresh_token;
    const second = await refreshed(first.refresh_token ?? '', {
      scope: 'openid profile offline_access User.Read Mail.Read',
    });
    expect(second.refresh_token).toMatch(/^1\./);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.scope).toBe('User.Read Mail.Read openid profile');
    expect(claimsOf(second.id_token ?? '')).toMatchObject({ oid: user()?.id, tid: TENANT });
    expect(claimsOf(second.id_token ?? '')).not.toHaveProperty('nonce');
    // Entra ID does not revoke a refresh token when it is used.
    const again = await refreshed(first.refresh_token ?? '', { scope: 'User.Read openid' });
    expect(again.scope).toBe('User.Read openid');
    expect(claimsOf(again.access_token).scp).toBe('User.Read openid');
    // Without a scope: what was consented to, with the OpenID scopes of the sign-in.
    expect((await refreshed(second.refresh_token ?? '')).scope).toBe('User.Read Mail.Read openid profile');
    expect(sim.state.grants.refresh_token - before).toBe(3);
  });

  it('refuses a permission the user did not consent to with AADSTS65001 consent_required, another resource with AADSTS500011', async () => {
    const { refresh_token = '' } = await signIn('openid offline_access User.Read');
    const more = await refresh(refresh_token, { scope: 'User.Read Sites.Read.All offline_access' });
    expect(more.status).toBe(400);
    expect(await more.json()).toMatchObject({
      error: 'invalid_grant',
      error_codes: [65001],
      suberror: 'consent_required',
    });
    const elsewhere = await refresh(refresh_token, { scope: 'api://some-api/Read offline_access' });
    expect(await elsewhere.json()).toMatchObject({ error: 'invalid_resource', error_codes: [500011] });
    const malformedScope = await refresh(refresh_token, { scope: 'User Read' });
    expect(await malformedScope.json()).toMatchObject({ error: 'invalid_scope', error_codes: [70011] });
  });

  it('refuses a malformed, an unknown, another app’s and an expired refresh token with Entra ID’s codes', async () => {
    const { refresh_token = '' } = await signIn('openid offline_access User.Read');
    const refusal = async (answer: Response) => ({ status: answer.status, ...((await answer.json()) as object) });
    expect(await refusal(await refresh('not-a-refresh-token'))).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      error_codes: [9002313],
    });
    const unknown = `1.${randomBytes(64).toString('base64url')}`;
    expect(await refusal(await refresh(unknown))).toMatchObject({ error: 'invalid_grant', error_codes: [70000] });
    const asOther = await tokenRequest(sim, {
      grant_type: 'refresh_token',
      refresh_token,
      client_id: OTHER_APP.clientId,
      client_secret: OTHER_APP.clientSecret,
    });
    expect(await refusal(asOther)).toMatchObject({ status: 400, error: 'invalid_grant', error_codes: [70000] });
    expect(await refusal(await refresh(refresh_token, { client_secret: 'wrong' }))).toMatchObject({
      status: 401,
      error: 'invalid_client',
      error_codes: [7000215],
    });
    expect(await refusal(await tokenRequest(sim, { grant_type: 'refresh_token' }))).toMatchObject({
      error: 'invalid_request',
      error_codes: [900144],
    });
    // Good until it ends; then Entra ID's answer for a token unused too long.
    expect((await refresh(refresh_token)).status).toBe(200);
    expect(sim.state.expireRefreshTokens()).toBeGreaterThan(0);
    const expired = await refusal(await refresh(refresh_token));
    expect(expired).toMatchObject({ status: 400, error: 'invalid_grant', error_codes: [700082] });
    expect((expired as unknown as { error_description: string }).error_description).toMatch(
      /^AADSTS700082: The refresh token has expired due to inactivity\. The token was issued on \d{4}-\d\d-\d\dT[\d:.]+Z and was inactive for 0\.00:00:\d\d\./,
    );
  });

  it('sends a scope of another resource or of no permission’s form back to the app from the authorization endpoint', async () => {
    const good = new URL((await authorizationUrl()).url);
    for (const [scope, error, code] of [
      ['openid api://some-api/Read', 'invalid_resource', 'AADSTS500011'],
      ['openid Read', 'invalid_scope', 'AADSTS70011'],
    ] as const) {
      const url = new URL(good);
      url.searchParams.set('scope', scope);
      const answer = await fetch(url, { redirect: 'manual' });
      const back = new URL(answer.headers.get('location') ?? 'about:blank').searchParams;
      expect(back.get('error'), scope).toBe(error);
      expect(back.get('error_description'), scope).toMatch(new RegExp(`^${code}:`));
    }
  });

  it('MSAL Node: acquireTokenSilent answers from its cache (the short scopes match), and forceRefresh redeems the refresh token', async () => {
    const scopes = ['User.Read', 'Mail.Read'];
    const { verifier, challenge } = pkce();
    const url = await msal.getAuthCodeUrl({
      scopes,
      redirectUri: REDIRECT,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      loginHint: login(),
    });
    const location = new URL((await signInAt(url, login())).location ?? 'about:blank');
    const signedIn = await msal.acquireTokenByCode({
      code: location.searchParams.get('code') ?? '',
      codeVerifier: verifier,
      redirectUri: REDIRECT,
      scopes,
    });
    expect(signedIn.scopes).toEqual(['User.Read', 'Mail.Read', 'openid', 'profile']);
    const account = signedIn.account ?? expect.unreachable('an account');
    expect(account.homeAccountId).toBe(`${user()?.id}.${TENANT}`);
    const before = sim.state.grants.refresh_token;
    const cached = await msal.acquireTokenSilent({ account, scopes });
    expect(cached).toMatchObject({ fromCache: true, accessToken: signedIn.accessToken });
    expect(sim.state.grants.refresh_token).toBe(before);
    const forced = await msal.acquireTokenSilent({ account, scopes, forceRefresh: true });
    expect(forced.fromCache).toBe(false);
    expect(forced.accessToken).not.toBe(signedIn.accessToken);
    expect(forced.scopes).toEqual(['User.Read', 'Mail.Read', 'openid', 'profile']);
    expect(sim.state.grants.refresh_token).toBe(before + 1);
    // A narrower ask is answered from the cache of the broader token.
    expect(await msal.acquireTokenSilent({ account, scopes: ['Mail.Read'] })).toMatchObject({
      fromCache: true,
      accessToken: forced.accessToken,
    });
  });
});

/** Signs the first user in to `app` asking `scope`, by the page, and redeems the code as that app. */
async function signInWith(app: typeof OTHER_APP, scope: string): Promise<UserTokenAnswer> {
  const authorize = new URL(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/authorize`);
  for (const [k, v] of Object.entries({
    client_id: app.clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope,
  }))
    authorize.searchParams.set(k, v);
  const result = await signInAt(authorize.toString(), user()?.upn ?? '');
  const code = new URL(result.location ?? 'about:blank').searchParams.get('code') ?? '';
  const answer = await tokenRequest(sim, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: app.clientId,
    client_secret: app.clientSecret,
  });
  return (await answer.json()) as UserTokenAnswer;
}
