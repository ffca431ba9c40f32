import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolve, type RunningSimulator, startSimulator } from '../src/index.js';

const TENANT = '11111111-2222-4333-8444-555555555555';
const CLIENT = '66666666-7777-4888-9999-000000000000';

describe('the simulator on a port of its own', () => {
  let sim: RunningSimulator;
  let token = '';

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, clientId: CLIENT, clientSecret: 's3cret', size: { users: 5, sites: 1, teams: 1 } }],
      pageSize: 2,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const tokenFor = (clientSecret: string) =>
    fetch(`${sim.authorityHost}/${TENANT}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: CLIENT,
        client_secret: clientSecret,
        scope: 'https://graph.microsoft.com/.default',
      }),
    });
  const get = (url: string) => fetch(url, { headers: { authorization: `Bearer ${token}` } });

  it('issues a token to the registered application with its secret only', async () => {
    const refused = await tokenFor('wrong');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
    const issued = await tokenFor('s3cret');
    expect(issued.status).toBe(200);
    token = ((await issued.json()) as { access_token: string }).access_token;
    expect((await fetch(`${sim.graphBaseUrl}/users`)).status).toBe(401);
  });

  it('pages a list with @odata.nextLink until every user is read', async () => {
    const ids: string[] = [];
    let next: string | undefined = `${sim.graphBaseUrl}/users`;
    let pages = 0;
    while (next) {
      const body = (await (await get(next)).json()) as { value: { id: string }[]; '@odata.nextLink'?: string };
      ids.push(...body.value.map((u) => u.id));
      next = body['@odata.nextLink'];
      pages += 1;
    }
    // Five members and the guest.
    const users = sim.state.tenant(TENANT).users.length;
    expect(users).toBe(6);
    expect(pages).toBe(Math.ceil(users / 2));
    expect(new Set(ids).size).toBe(users);
  });

  it('answers a drive delta with only what changed after its delta link', async () => {
    const user = sim.state.tenant(TENANT).users[0];
    const drive = (await (await get(`${sim.graphBaseUrl}/users/${user?.id}/drive`)).json()) as { id: string };
    let link: string | undefined = `${sim.graphBaseUrl}/drives/${drive.id}/root/delta`;
    let deltaLink = '';
    while (link) {
      const body = (await (await get(link)).json()) as { '@odata.nextLink'?: string; '@odata.deltaLink'?: string };
      link = body['@odata.nextLink'];
      deltaLink = body['@odata.deltaLink'] ?? deltaLink;
    }
    expect((await (await get(deltaLink)).json()) as { value: unknown[] }).toMatchObject({ value: [] });
    evolve(sim.state.tenant(TENANT), { newFiles: 1, editedFiles: 0, newMessages: 0, newChannelMessages: 0 });
    const changed: { name?: string }[] = [];
    link = deltaLink;
    while (link) {
      const body = (await (await get(link)).json()) as { value: { name?: string }[]; '@odata.nextLink'?: string };
      changed.push(...body.value);
      link = body['@odata.nextLink'];
    }
    expect(changed.length).toBeGreaterThan(0);
  });

  it('answers an unknown path with Graph error body', async () => {
    const response = await get(`${sim.graphBaseUrl}/no-such-resource`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'BadRequest', message: expect.any(String) } });
  });
});
