/**
 * The tenant's organization (`GET /organization`, `GET /organization/{id}`): one per tenant, its id the
 * tenant id, its verified domains the initial `….onmicrosoft.com` domain its accounts are in (the
 * default too), answered as Graph's metadata declares it and only to a token holding
 * Organization.Read.All or a higher privileged permission Microsoft lists beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_APPLICATION_PERMISSIONS, type RunningSimulator, startSimulator } from '../src/index.js';
import { accessToken, TENANT } from './helpers.js';

interface VerifiedDomain {
  name: string;
  isDefault: boolean;
  isInitial: boolean;
  type: string;
  capabilities: string;
}
interface Organization {
  id: string;
  displayName: string;
  verifiedDomains: VerifiedDomain[];
}

describe('the tenant’s organization', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, size: { users: 2, sites: 0, teams: 0 } }],
      validate: true,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const tokenWith = async (roles: readonly string[]) => {
    sim.state.setConsent(TENANT, roles);
    const token = await accessToken(sim);
    sim.state.setConsent(TENANT, ALL_APPLICATION_PERMISSIONS);
    return token;
  };
  const get = (token: string, path: string) =>
    fetch(`${sim.graphBaseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('is listed alone, with the domain of its accounts as its initial and default verified domain', async () => {
    const token = await accessToken(sim);
    const answer = await get(token, '/organization');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { '@odata.context': string; value: Organization[] };
    expect(body['@odata.context']).toBe(`${sim.graphBaseUrl}/$metadata#organization`);
    const domain = sim.state.tenant(TENANT).users[0]?.upn.split('@')[1];
    expect(domain).toMatch(/^t[0-9a-f]{6}\.onmicrosoft\.com$/);
    expect(body.value).toHaveLength(1);
    expect(body.value[0]).toMatchObject({
      id: TENANT,
      verifiedDomains: [
        { name: domain, isDefault: true, isInitial: true, type: 'Managed', capabilities: expect.any(String) },
      ],
    });

    const one = await get(token, `/organization/${TENANT}?$select=id,verifiedDomains`);
    expect(one.status).toBe(200);
    const selected = (await one.json()) as Record<string, unknown>;
    expect(selected['@odata.context']).toBe(`${sim.graphBaseUrl}/$metadata#organization(id,verifiedDomains)/$entity`);
    expect(Object.keys(selected).sort()).toEqual(['@odata.context', 'id', 'verifiedDomains']);
    expect(selected.verifiedDomains).toEqual(body.value[0]?.verifiedDomains);

    const other = await get(token, '/organization/00000000-0000-4000-8000-000000000000');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'Request_ResourceNotFound' } });
    expect(sim.state.validation?.mismatches).toEqual([]);
  });

  it('is read with Organization.Read.All or a higher privileged permission, and refused as the directory refuses', async () => {
    for (const permission of [
      'Organization.Read.All',
      'Directory.Read.All',
      'Organization.ReadWrite.All',
      'Directory.ReadWrite.All',
    ]) {
      const token = await tokenWith([permission]);
      expect((await get(token, '/organization')).status, permission).toBe(200);
      expect((await get(token, `/organization/${TENANT}`)).status, permission).toBe(200);
    }
    const refused = await get(await tokenWith(['User.Read.All', 'Group.Read.All']), '/organization');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges to complete the operation.' },
    });
  });
});
