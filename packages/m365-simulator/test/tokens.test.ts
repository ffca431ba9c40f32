/**
 * Access tokens as Entra ID issues them for Graph: JWTs that verify against the simulator's JWKS
 * (checked with jose, an outside referee), for Graph's audience, naming the tenant and the app, with
 * the tenant's consent set as roles, or for a signed-in user with the delegated scopes as scp; Graph
 * takes only tokens the simulator signed, unexpired, for a tenant it serves, and a user's only for a
 * user of that tenant, whom `/me` names.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, importPKCS8, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_APPLICATION_PERMISSIONS, type RunningSimulator, startSimulator } from '../src/index.js';
import {
  accessToken,
  CLIENT,
  claimsOf,
  requestToken,
  SECRET,
  SIGN_IN_APP,
  signInTokens,
  TENANT,
  trusting,
} from './helpers.js';

const OTHER = '22222222-3333-4444-8555-666666666666';
const PASSWORD = 'Tokens-Passw0rd!';

describe('access tokens', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        { tenantId: TENANT, clientId: CLIENT, clientSecret: SECRET, size: { users: 2 } },
        { tenantId: OTHER, consent: ['User.Read.All'], size: { users: 2 } },
      ],
      signInApps: [SIGN_IN_APP],
      userPassword: PASSWORD,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('are JWTs signed by a key of the JWKS, for Graph, naming the tenant, the app and the consent set', async () => {
    const token = await accessToken(sim);
    const config = (await (
      await fetch(`${sim.authorityHost}/${TENANT}/v2.0/.well-known/openid-configuration`)
    ).json()) as { jwks_uri: string };
    const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(config.jwks_uri)), {
      audience: 'https://graph.microsoft.com',
      issuer: `https://sts.windows.net/${TENANT}/`,
      algorithms: ['RS256'],
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: expect.any(String) });
    expect(payload).toMatchObject({
      tid: TENANT,
      appid: CLIENT,
      azp: CLIENT,
      idtyp: 'app',
      ver: '1.0',
      oid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(payload.sub).toBe(payload.oid);
    expect(payload.roles).toEqual([...ALL_APPLICATION_PERMISSIONS]);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
    expect(payload.nbf).toBe(payload.iat);
  });

  it('carry exactly the tenant consent set, also after it changes; none granted, no roles claim', async () => {
    const other = await requestToken(sim, { client_id: 'any-app', client_secret: 'any' }, { tenantId: OTHER });
    expect(claimsOf(((await other.json()) as { access_token: string }).access_token).roles).toEqual(['User.Read.All']);

    sim.state.setConsent(TENANT, ['Files.ReadWrite.All', 'Sites.ReadWrite.All']);
    expect(claimsOf(await accessToken(sim)).roles).toEqual(['Files.ReadWrite.All', 'Sites.ReadWrite.All']);
    expect(sim.state.consent(TENANT)).toEqual(['Files.ReadWrite.All', 'Sites.ReadWrite.All']);
    sim.state.setConsent(TENANT, []);
    expect(claimsOf(await accessToken(sim))).not.toHaveProperty('roles');
    sim.state.setConsent(TENANT, ALL_APPLICATION_PERMISSIONS);
  });

  it('are issued with client_secret_basic too, and refused without Graph .default scope', async () => {
    const basic = await fetch(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'https://graph.microsoft.com/.default' }),
    });
    expect(basic.status).toBe(200);
    const noScope = await requestToken(sim, { scope: '' });
    expect(noScope.status).toBe(400);
    expect(await noScope.json()).toMatchObject({ error: 'invalid_request', error_codes: [900144] });
    const otherResource = await requestToken(sim, { scope: 'api://some-api/.default' });
    expect(otherResource.status).toBe(400);
    expect(await otherResource.json()).toMatchObject({ error: 'invalid_scope', error_codes: [1002012] });
  });

  it('are the only keys to Graph: a token of another key, an expired one or one of another tenant is refused', async () => {
    const users = (token: string) =>
      fetch(`${sim.graphBaseUrl}/users`, { headers: { authorization: `Bearer ${token}` } });
    expect((await users(await accessToken(sim))).status).toBe(200);

    // Another simulator, with a signing key of its own, serving the same tenant.
    const stranger = await startSimulator({
      dataDir: mkdtempSync(join(tmpdir(), 'm365-simulator-stranger-')),
      tenants: [{ tenantId: TENANT }],
    });
    try {
      const foreign = await fetch(`${stranger.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: CLIENT,
          client_secret: 'x',
          scope: 'https://graph.microsoft.com/.default',
        }),
        dispatcher: trusting(stranger.caCertificate),
      } as RequestInit);
      const refused = await users(((await foreign.json()) as { access_token: string }).access_token);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken' } });
    } finally {
      await stranger.close();
    }

    // Signed with this simulator's own key, but expired, or for a tenant it does not serve.
    const key = await importPKCS8(readFileSync(join(sim.dataDir, 'token-signing-key.pem'), 'utf8'), 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const signed = (claims: Record<string, unknown>) =>
      new SignJWT({ aud: 'https://graph.microsoft.com', tid: TENANT, roles: ['User.Read.All'], ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .sign(key);
    expect((await users(await signed({ iat: now, exp: now + 600 }))).status).toBe(200);
    expect((await users(await signed({ iat: now - 7200, exp: now - 3600 }))).status).toBe(401);
    expect(
      (await users(await signed({ iat: now, exp: now + 600, tid: '99999999-0000-4000-8000-000000000000' }))).status,
    ).toBe(401);
    expect((await users(await signed({ iat: now, exp: now + 600, aud: 'https://management.azure.com' }))).status).toBe(
      401,
    );
    expect((await fetch(`${sim.graphBaseUrl}/users`)).status).toBe(401);
  });

  it("for a signed-in user: idtyp user, the user's oid and upn, scp, no roles; Graph answers /me for that user", async () => {
    const user = sim.state.tenant(TENANT).users[1] ?? expect.unreachable('a user');
    const { access_token } = await signInTokens(sim, user.upn, 'openid profile User.Read', PASSWORD);
    const { payload } = await jwtVerify(
      access_token,
      createRemoteJWKSet(new URL(`${sim.authorityHost}/${TENANT}/discovery/v2.0/keys`)),
      { audience: 'https://graph.microsoft.com', issuer: `https://sts.windows.net/${TENANT}/`, algorithms: ['RS256'] },
    );
    expect(payload).toMatchObject({
      idtyp: 'user',
      oid: user.id,
      upn: user.upn,
      unique_name: user.upn,
      scp: 'User.Read openid profile',
      appid: SIGN_IN_APP.clientId,
      tid: TENANT,
      ver: '1.0',
    });
    expect(payload).not.toHaveProperty('roles');
    const me = await fetch(`${sim.graphBaseUrl}/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      '@odata.context': `${sim.graphBaseUrl}/$metadata#users/$entity`,
      id: user.id,
      userPrincipalName: user.upn,
    });
  });

  it("answer /me with an app's token as Graph does (400), and refuse a user's token naming no user of the tenant (401)", async () => {
    const app = await fetch(`${sim.graphBaseUrl}/me/messages`, {
      headers: { authorization: `Bearer ${await accessToken(sim)}` },
    });
    expect(app.status).toBe(400);
    expect(await app.json()).toMatchObject({
      error: { code: 'BadRequest', message: '/me request is only valid with delegated authentication flow.' },
    });
    const key = await importPKCS8(readFileSync(join(sim.dataDir, 'token-signing-key.pem'), 'utf8'), 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const stranger = await new SignJWT({
      aud: 'https://graph.microsoft.com',
      tid: TENANT,
      oid: '99999999-0000-4000-8000-000000000001',
      scp: 'User.Read',
      idtyp: 'user',
      iat: now,
      exp: now + 600,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .sign(key);
    const refused = await fetch(`${sim.graphBaseUrl}/me`, { headers: { authorization: `Bearer ${stranger}` } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken' } });
  });
});
