/**
 * Consent as Graph enforces it: every route asks for one of the application permissions Microsoft
 * documents for its call, and a token whose roles hold none of them is refused with the 403 of the
 * workload behind the path (the directory's, SharePoint's, Outlook's or Teams'). The consent set is
 * changed from code (state.setConsent) or from outside (POST /_simulator/consent with the control key),
 * for the tokens issued from then on. A signed-in user's token is held to the delegated permissions
 * of the call instead, where User.Read, Mail.Read, Files.Read and Chat.Read reach the user's own data
 * only, and `/me` is that user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/graph/service.js';
import { ALL_APPLICATION_PERMISSIONS, groupsOf, type RunningSimulator, startSimulator } from '../src/index.js';
import { ROUTE_PERMISSIONS } from '../src/permissions.js';
import { accessToken, claimsOf, SIGN_IN_APP, signInTokens, TENANT } from './helpers.js';

describe('the permissions of each route', () => {
  it('are listed for every route the simulator serves, and for no other', () => {
    const served = ROUTES.map((r) => `${r.method} ${r.pattern.join('/')}`).sort();
    expect(Object.keys(ROUTE_PERMISSIONS).sort()).toEqual([...new Set(served)]);
  });

  it('each name delegated permissions too, so that a signed-in user with the right scope reads every route', () => {
    for (const [route, rule] of Object.entries(ROUTE_PERMISSIONS)) {
      expect(rule.delegated.length + rule.delegatedOwn.length, route).toBeGreaterThan(0);
      // Permissions that reach only a user's own data are never application permissions.
      for (const own of rule.delegatedOwn) expect(own, route).not.toMatch(/\.All$/);
    }
  });

  it('are each met by the default consent set, so that the demo and a client granted everything read all', () => {
    for (const [route, rule] of Object.entries(ROUTE_PERMISSIONS)) {
      expect(
        rule.anyOf.some((p) => ALL_APPLICATION_PERMISSIONS.includes(p)),
        route,
      ).toBe(true);
    }
  });
});

describe('a token without the permission a path needs', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, size: { users: 2, sites: 1, teams: 1 } }],
      validate: true,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  /** A token carrying exactly `roles`. */
  const tokenWith = async (roles: readonly string[]) => {
    sim.state.setConsent(TENANT, roles);
    const token = await accessToken(sim);
    sim.state.setConsent(TENANT, ALL_APPLICATION_PERMISSIONS);
    return token;
  };
  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${sim.graphBaseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'client-request-id': 'test-request-1', ...init.headers },
    });
  const model = () => sim.state.tenant(TENANT);
  const user = () => model().users[0]?.id ?? '';

  it('is refused with each workload’s own 403 and Graph’s error body with the request ids', async () => {
    const token = await tokenWith(['User.Read.All']);
    expect((await call(token, '/users')).status).toBe(200);
    const refusals = {
      '/groups': { code: 'Authorization_RequestDenied', message: 'Insufficient privileges to complete the operation.' },
      [`/users/${user()}/drive`]: { code: 'accessDenied', message: 'Access denied' },
      '/sites?search=*': { code: 'accessDenied', message: 'Access denied' },
      [`/users/${user()}/mailFolders`]: {
        code: 'ErrorAccessDenied',
        message: 'Access is denied. Check credentials and try again.',
      },
      [`/users/${user()}/chats`]: {
        code: 'Forbidden',
        message:
          "Missing role permissions on the request. API requires one of 'Chat.ReadBasic.All, Chat.Read.All, Chat.ReadWrite.All'. Roles on the request 'User.Read.All'.",
      },
      [`/teams/${model().teams[0]?.id}/channels`]: { code: 'Forbidden', message: expect.any(String) },
    };
    for (const [path, error] of Object.entries(refusals)) {
      const answer = await call(token, path);
      expect(answer.status, path).toBe(403);
      expect(answer.headers.get('client-request-id')).toBe('test-request-1');
      const body = (await answer.json()) as { error: { innerError: Record<string, string> } };
      expect(body, path).toMatchObject({ error });
      expect(body.error.innerError).toMatchObject({
        'request-id': answer.headers.get('request-id'),
        'client-request-id': 'test-request-1',
        date: expect.any(String),
      });
    }
    expect(sim.state.validation?.mismatches).toEqual([]);
  });

  it('is served with the least privileged permission or a higher one, and refused a write it does not grant', async () => {
    const drive = model().users[0]?.driveId ?? '';
    const upload = (token: string) =>
      call(token, `/drives/${drive}/items/root:/granted.txt:/content`, { method: 'PUT', body: 'hello' });
    for (const roles of [['Files.Read.All'], ['Sites.Read.All']]) {
      const token = await tokenWith(roles);
      expect((await call(token, `/drives/${drive}/root/children`)).status, roles[0]).toBe(200);
      expect((await call(token, `/drives/${drive}/root:/Documents:`)).status, roles[0]).not.toBe(403);
      const refused = await upload(token);
      expect(refused.status, roles[0]).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 'accessDenied' } });
    }
    expect((await upload(await tokenWith(['Files.ReadWrite.All']))).status).toBe(201);

    // Mail.ReadBasic.All lists folders and messages but reads no MIME.
    const basic = await tokenWith(['Mail.ReadBasic.All']);
    const mailbox = model().users[0];
    const message = [...(mailbox?.messages.values() ?? [])][0];
    expect((await call(basic, `/users/${user()}/mailFolders`)).status).toBe(200);
    expect((await call(basic, `/users/${user()}/messages/${message?.id}/$value`)).status).toBe(403);
    expect((await call(await tokenWith(['Mail.Read']), `/users/${user()}/messages/${message?.id}/$value`)).status).toBe(
      200,
    );
  });

  it('names a token without any roles as SharePoint does', async () => {
    const token = await tokenWith([]);
    expect(claimsOf(token)).not.toHaveProperty('roles');
    const answer = await call(token, `/users/${user()}/drive`);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({
      error: { code: 'accessDenied', message: 'Either scp or roles claim need to be present in the token.' },
    });
  });
});

describe('consent changed from outside', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId: TENANT, size: { users: 2, sites: 0, teams: 0 } }] });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const control = (method: string, body?: unknown, key: string | null = sim.controlKey) =>
    fetch(`${sim.url}/_simulator/consent`, {
      method,
      headers: { 'content-type': 'application/json', ...(key !== null ? { 'x-simulator-control': key } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const users = (token: string) =>
    fetch(`${sim.graphBaseUrl}/users`, { headers: { authorization: `Bearer ${token}` } });

  it('sets the roles of the tokens issued from then on; a token issued before keeps its own', async () => {
    expect(await (await control('GET')).json()).toEqual({ [TENANT]: [...ALL_APPLICATION_PERMISSIONS] });
    const before = await accessToken(sim);

    const set = await control('POST', { tenantId: TENANT, roles: ['Files.Read.All', 'Mail.Read'] });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ tenantId: TENANT, roles: ['Files.Read.All', 'Mail.Read'] });
    expect(sim.state.consent(TENANT)).toEqual(['Files.Read.All', 'Mail.Read']);
    const after = await accessToken(sim);
    expect(claimsOf(after).roles).toEqual(['Files.Read.All', 'Mail.Read']);
    expect((await users(after)).status).toBe(403);
    expect((await users(before)).status).toBe(200);

    await control('POST', { tenantId: TENANT, roles: [...ALL_APPLICATION_PERMISSIONS] });
    expect((await users(await accessToken(sim))).status).toBe(200);
  });

  it('needs the control key, a served tenant and a list of permission names', async () => {
    expect((await control('POST', { tenantId: TENANT, roles: [] }, null)).status).toBe(403);
    expect((await control('GET', undefined, 'not-the-key')).status).toBe(403);
    const unknown = await control('POST', { tenantId: '00000000-0000-4000-8000-000000000000', roles: [] });
    expect(unknown.status).toBe(404);
    for (const body of [
      { tenantId: TENANT },
      { tenantId: TENANT, roles: 'User.Read.All' },
      { tenantId: TENANT, roles: ['User Read All'] },
      { tenantId: TENANT, roles: [], also: 1 },
      { roles: [] },
    ]) {
      const wrong = await control('POST', body);
      expect(wrong.status, JSON.stringify(body)).toBe(400);
      expect(await wrong.json()).toMatchObject({ error: { code: 'invalidRequest' } });
    }
    expect(sim.state.consent(TENANT)).toEqual([...ALL_APPLICATION_PERMISSIONS]);
  });
});

describe("a signed-in user's token (delegated permissions)", () => {
  const PASSWORD = 'Delegated-Passw0rd!';
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, size: { users: 3, sites: 1, teams: 2, chats: 3 } }],
      signInApps: [SIGN_IN_APP],
      userPassword: PASSWORD,
      validate: true,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const model = () => sim.state.tenant(TENANT);
  const me = () => model().users[0] ?? expect.unreachable('a user');
  const other = () => model().users[1] ?? expect.unreachable('another user');
  /** The first user's access token carrying exactly these Graph permissions (and openid). */
  const tokenWith = async (...permissions: string[]) =>
    (await signInTokens(sim, me().upn, ['openid', ...permissions].join(' '), PASSWORD)).access_token;
  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${sim.graphBaseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const statusOf = async (token: string, path: string, init: RequestInit = {}) =>
    (await call(token, path, init)).status;
  const errorOf = async (token: string, path: string) => {
    const answer = await call(token, path);
    return { status: answer.status, ...((await answer.json()) as { error: { code: string; message: string } }).error };
  };

  it("reads the user's own profile with User.Read, and other users only with User.ReadBasic.All or more", async () => {
    const userRead = await tokenWith('User.Read');
    expect(claimsOf(userRead).scp).toBe('User.Read openid');
    expect(await statusOf(userRead, '/me')).toBe(200);
    expect(await statusOf(userRead, `/users/${me().id}`)).toBe(200);
    expect(await statusOf(userRead, `/users/${encodeURIComponent(me().upn)}`)).toBe(200);
    expect(await statusOf(userRead, '/organization')).toBe(200);
    for (const path of [`/users/${other().id}`, '/users']) {
      expect(await errorOf(userRead, path), path).toMatchObject({
        status: 403,
        code: 'Authorization_RequestDenied',
        message: 'Insufficient privileges to complete the operation.',
      });
    }
    const basic = await tokenWith('User.ReadBasic.All');
    expect(await statusOf(basic, `/users/${other().id}`)).toBe(200);
    expect(await statusOf(basic, '/users')).toBe(200);
    expect(await statusOf(basic, '/me')).toBe(200);
    expect((await errorOf(await tokenWith('Mail.Read'), '/me')).status).toBe(403);
  });

  it('reads their own mailbox with Mail.Read, another’s only with Mail.Read.Shared; bodies not with Mail.ReadBasic', async () => {
    const mailRead = await tokenWith('Mail.Read');
    const [message] = [...me().messages.values()];
    for (const path of [
      '/me/messages',
      '/me/mailFolders',
      '/me/mailFolders/inbox/messages',
      `/me/messages/${message?.id}/$value`,
    ])
      expect(await statusOf(mailRead, path), path).toBe(200);
    expect(await errorOf(mailRead, `/users/${other().id}/messages`)).toMatchObject({
      status: 403,
      code: 'ErrorAccessDenied',
      message: 'Access is denied. Check credentials and try again.',
    });
    const basic = await tokenWith('Mail.ReadBasic');
    expect(await statusOf(basic, '/me/messages')).toBe(200);
    expect(await statusOf(basic, `/me/messages/${message?.id}/$value`)).toBe(403);
    expect(await statusOf(await tokenWith('Mail.Read.Shared'), `/users/${other().id}/messages`)).toBe(200);
    const folder = {
      method: 'POST',
      body: JSON.stringify({ displayName: 'Delegated' }),
      headers: { 'content-type': 'application/json' },
    };
    expect(await statusOf(mailRead, '/me/mailFolders', folder)).toBe(403);
    expect(await statusOf(await tokenWith('Mail.ReadWrite'), '/me/mailFolders', folder)).toBe(201);
  });

  it('reads their own OneDrive with Files.Read, another’s only with Files.Read.All; writes with Files.ReadWrite', async () => {
    const filesRead = await tokenWith('Files.Read');
    expect(await statusOf(filesRead, '/me/drive')).toBe(200);
    expect(await statusOf(filesRead, '/me/drive/root/children')).toBe(200);
    expect(await statusOf(filesRead, `/drives/${me().driveId}/root/children`)).toBe(200);
    expect(await statusOf(filesRead, '/me/drive/root:/Documents:')).not.toBe(403);
    expect(await errorOf(filesRead, `/drives/${other().driveId}/root/children`)).toMatchObject({
      status: 403,
      code: 'accessDenied',
      message: 'Access denied',
    });
    expect(await statusOf(filesRead, `/users/${other().id}/drive/root:/Documents:`)).toBe(403);
    const upload = { method: 'PUT', body: 'hello' };
    expect(await statusOf(filesRead, '/me/drive/root:/delegated.txt:/content', upload)).toBe(403);
    expect(await statusOf(await tokenWith('Files.ReadWrite'), '/me/drive/root:/delegated.txt:/content', upload)).toBe(
      201,
    );
    expect(await statusOf(await tokenWith('Files.Read.All'), `/drives/${other().driveId}/root/children`)).toBe(200);
    expect(await statusOf(filesRead, '/sites?search=*')).toBe(403);
    expect(await statusOf(await tokenWith('Sites.Read.All'), '/sites?search=*')).toBe(200);
  });

  it('lists the teams they are a member of and their own chats, and names the scopes when refused', async () => {
    const teamsRead = await tokenWith('Team.ReadBasic.All');
    const joined = (await (await call(teamsRead, '/me/joinedTeams')).json()) as {
      '@odata.context': string;
      value: { id: string; displayName: string; webUrl: null }[];
    };
    const mine = groupsOf(model()).filter((g) => g.team && g.members.some((m) => m.id === me().id));
    expect(mine.length).toBeGreaterThan(0);
    expect(joined.value.map((t) => t.id)).toEqual(mine.map((g) => g.id));
    expect(joined['@odata.context']).toBe(`${sim.graphBaseUrl}/$metadata#teams`);
    expect(joined.value[0]?.webUrl).toBeNull();
    expect(await errorOf(await tokenWith('User.Read'), '/me/joinedTeams')).toMatchObject({
      status: 403,
      code: 'Forbidden',
      message:
        "Missing scope permissions on the request. API requires one of 'Team.ReadBasic.All, TeamSettings.Read.All, TeamSettings.ReadWrite.All, User.Read.All, User.ReadWrite.All, Directory.Read.All, Directory.ReadWrite.All'. Scopes on the request 'User.Read, openid'.",
    });
    const chatRead = await tokenWith('Chat.Read');
    expect(await statusOf(chatRead, '/me/chats')).toBe(200);
    expect(await errorOf(chatRead, `/users/${other().id}/chats`)).toMatchObject({ status: 403, code: 'Forbidden' });
  });

  it('keeps /me in the links it answers, and every answer matches Graph’s metadata', async () => {
    const token = await tokenWith('Mail.Read');
    const first = (await (await call(token, '/me/messages?$top=1')).json()) as Record<string, string>;
    expect(first['@odata.context']).toBe(`${sim.graphBaseUrl}/$metadata#users('${me().id}')/messages`);
    expect(first['@odata.nextLink']).toMatch(new RegExp(`^${sim.graphBaseUrl.replace(/[.]/g, '\\.')}/me/messages\\?`));
    expect(
      (await fetch(first['@odata.nextLink'] ?? '', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect(sim.state.validation?.mismatches).toEqual([]);
  });
});
