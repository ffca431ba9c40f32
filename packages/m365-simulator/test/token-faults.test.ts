/**
 * The token endpoint's refusals on purpose (`/_simulator/token`, `state.setTokenFault`): each fault
 * answers Entra ID's error with its AADSTS code, as MSAL (an outside referee) reads it, for that
 * tenant only and until set back to `none`.
 */
import { ConfidentialClientApplication, ServerError } from '@azure/msal-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator, TOKEN_FAULTS, type TokenFault } from '../src/index.js';
import { CLIENT, requestToken, SECRET, TENANT } from './helpers.js';

const OTHER = '22222222-3333-4444-8555-666666666666';

/** Each fault: the HTTP status, the OAuth error and the AADSTS code Entra ID answers it with. */
const EXPECTED: Record<Exclude<TokenFault, 'none'>, { status: number; error: string; code: number }> = {
  invalidClientSecret: { status: 401, error: 'invalid_client', code: 7000215 },
  expiredClientSecret: { status: 401, error: 'invalid_client', code: 7000222 },
  unknownApplication: { status: 400, error: 'unauthorized_client', code: 700016 },
  unknownTenant: { status: 400, error: 'invalid_tenant', code: 90002 },
  consentRequired: { status: 400, error: 'invalid_grant', code: 65001 },
};

describe('token faults', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        { tenantId: TENANT, clientId: CLIENT, clientSecret: SECRET, size: { users: 1 } },
        { tenantId: OTHER, size: { users: 1 } },
      ],
    });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const control = (method: string, body?: unknown, key: string | null = sim.controlKey) =>
    fetch(`${sim.url}/_simulator/token`, {
      method,
      headers: { 'content-type': 'application/json', ...(key !== null ? { 'x-simulator-control': key } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  /** A token for the tenant's app registration as MSAL asks for it, or MSAL's error. */
  const msal = (tenantId = TENANT) =>
    new ConfidentialClientApplication({
      auth: {
        clientId: CLIENT,
        clientSecret: SECRET,
        authority: `${sim.authorityHost}/${tenantId}`,
        knownAuthorities: [new URL(sim.url).host],
      },
    })
      .acquireTokenByClientCredential({ scopes: ['https://graph.microsoft.com/.default'] })
      .catch((error: unknown) => error);

  it('answer each refusal with its status, error, AADSTS code and ids, as MSAL reads it', async () => {
    for (const [fault, expected] of Object.entries(EXPECTED)) {
      const set = await control('POST', { tenantId: TENANT, fault });
      expect(set.status, fault).toBe(200);
      expect(await set.json()).toEqual({ tenantId: TENANT, fault });
      const answer = await fetch(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'client-request-id': `sent-${fault}` },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: CLIENT,
          client_secret: SECRET,
          scope: 'https://graph.microsoft.com/.default',
        }),
      });
      expect(answer.status, fault).toBe(expected.status);
      expect(answer.headers.get('client-request-id')).toBe(`sent-${fault}`);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(answer.headers.get('x-ms-request-id')).toBe(body.trace_id);
      expect(body, fault).toMatchObject({
        error: expected.error,
        error_codes: [expected.code],
        error_description: expect.stringMatching(new RegExp(`^AADSTS${expected.code}: `)),
        trace_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        correlation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      const refused = await msal();
      expect(refused, fault).toBeInstanceOf(ServerError);
      expect((refused as ServerError).errorCode, fault).toBe(expected.error);
      expect((refused as ServerError).errorMessage, fault).toContain(`AADSTS${expected.code}`);
    }
    // The other tenant's app registration still gets tokens.
    expect(await msal(OTHER)).toMatchObject({ accessToken: expect.any(String) });
  });

  it('end with none, from the control endpoint or from code', async () => {
    await control('POST', { tenantId: TENANT, fault: 'expiredClientSecret' });
    expect(await (await control('GET')).json()).toMatchObject({ [TENANT]: 'expiredClientSecret', [OTHER]: 'none' });
    await control('POST', { tenantId: TENANT, fault: 'none' });
    expect(await msal()).toMatchObject({ accessToken: expect.any(String) });
    sim.state.setTokenFault(TENANT, 'consentRequired');
    expect(await msal()).toBeInstanceOf(ServerError);
    sim.state.setTokenFault(TENANT, 'none');
    expect((await requestToken(sim)).status).toBe(200);
  });

  it('are set only with the control key, for a tenant served, to a fault it knows', async () => {
    expect((await control('POST', { tenantId: TENANT, fault: 'unknownTenant' }, null)).status).toBe(403);
    expect((await control('GET', undefined, 'not-the-key')).status).toBe(403);
    const unknown = await control('POST', { tenantId: '00000000-0000-4000-8000-000000000000', fault: 'unknownTenant' });
    expect(unknown.status).toBe(404);
    const wrong = await control('POST', { tenantId: TENANT, fault: 'sometimes' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { message: `fault must be one of ${TOKEN_FAULTS.join(', ')}` } });
    expect((await control('POST', { tenantId: TENANT, fault: 'none', more: 1 })).status).toBe(400);
    expect((await control('DELETE')).status).toBe(405);
    expect((await requestToken(sim)).status).toBe(200);
  });
});
