/**
 * OData as Graph speaks it: $top and $skiptoken paging at every size, $select, $filter, $orderby,
 * $count and $search (with the directory's ConsistencyLevel rule), @odata.context, request ids and
 * error bodies.
 */
import { describe, expect, it } from 'vitest';
import { groupsOf } from '../src/model.js';
import { BASE, graphOver } from './graph-walk.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
type Row = Record<string, unknown> & { id: string };

describe('paging', () => {
  const graph = graphOver(
    { users: 12, filesPerDrive: 25, foldersPerDrive: 2, messagesPerFolder: 9, chats: 4, messagesPerChat: 11 },
    5,
  );
  const { tenant, get } = graph;
  const user = tenant.users[0];
  const chat = tenant.chats[0];
  if (!user || !chat) throw new Error('no user');
  const lists = {
    users: { url: '/users', total: tenant.users.length },
    children: {
      url: `/drives/${user.driveId}/root/children`,
      total: [...(tenant.drives.get(user.driveId)?.items.values() ?? [])].filter(
        (i) => i.parentId === `${user.driveId}-root`,
      ).length,
    },
    messages: { url: `/users/${user.id}/messages`, total: user.messages.size },
    'drive delta': {
      url: `/drives/${user.driveId}/root/delta`,
      total: tenant.drives.get(user.driveId)?.items.size ?? 0,
    },
    'message delta': { url: `/users/${user.id}/mailFolders/inbox/messages/delta`, total: 9 },
  };

  /** Pages through a list: each page's size and every id. */
  async function pages(url: string) {
    const sizes: number[] = [];
    const ids: string[] = [];
    let next: string | undefined = url;
    while (next) {
      const answer = await get(next);
      expect(answer.status).toBe(200);
      const value = answer.body.value as Row[];
      sizes.push(value.length);
      ids.push(...value.map((r) => r.id));
      next = answer.body['@odata.nextLink'] as string | undefined;
      if (next) expect(next.startsWith(`${BASE}/v1.0/`)).toBe(true);
    }
    return { sizes, ids };
  }

  for (const [name, list] of Object.entries(lists)) {
    it(`pages ${name} with $top 1, 2, 7 and 999: every item once, pages of $top`, async () => {
      expect(list.total).toBeGreaterThan(7);
      for (const top of [1, 2, 7, 999]) {
        const { sizes, ids } = await pages(`${list.url}?$top=${top}`);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toHaveLength(list.total);
        expect(sizes.slice(0, -1).every((n) => n === top)).toBe(true);
        expect(sizes).toHaveLength(Math.ceil(list.total / top));
      }
    });
  }

  it('pages by the simulator’s page size without $top, and Teams’ lists up to 50', async () => {
    const { sizes, ids } = await pages('/users');
    expect(sizes[0]).toBe(5);
    expect(ids).toHaveLength(tenant.users.length);
    for (const top of [1, 2, 7, 50]) {
      const { ids: messages } = await pages(`/chats/${encodeURIComponent(chat.id)}/messages?$top=${top}`);
      expect(messages).toHaveLength(11);
    }
  });

  it('refuses a $top above Graph’s maximum where Graph does, and an invalid $skiptoken', async () => {
    const users = await get('/users?$top=1000');
    expect(users.status).toBe(400);
    expect(users.body.error).toMatchObject({
      code: 'Request_UnsupportedQuery',
      message: "Invalid page size specified: '1000'. Must be between 1 and 999 inclusive.",
    });
    const chats = await get(`/chats/${encodeURIComponent(chat.id)}/messages?$top=51`);
    expect(chats.status).toBe(400);
    expect((await get('/users?$skiptoken=bogus')).status).toBe(400);
    // OneDrive cuts a larger page to its maximum.
    expect((await get(`${lists.children.url}?$top=5000`)).status).toBe(200);
  });
});

describe('query options', () => {
  const graph = graphOver({ users: 8, teams: 3 }, 50);
  const { tenant, get } = graph;
  const eventual = { consistencylevel: 'eventual' };
  const user = tenant.users[2];
  if (!user) throw new Error('no user');

  it('$select answers only the selected properties and the id, and says so in @odata.context', async () => {
    const list = await get('/users?$select=displayName,mail');
    expect(list.body['@odata.context']).toBe(`${BASE}/v1.0/$metadata#users(displayName,mail)`);
    for (const row of list.body.value as Row[]) expect(Object.keys(row).sort()).toEqual(['displayName', 'id', 'mail']);
    const one = await get(`/users/${user.id}?$select=userPrincipalName`);
    expect(one.body).toEqual({
      '@odata.context': `${BASE}/v1.0/$metadata#users(userPrincipalName)/$entity`,
      id: user.id,
      userPrincipalName: user.upn,
    });
  });

  it('$filter: teams by resourceProvisioningOptions, eq on simple properties, startswith, lambdas', async () => {
    const teams = await get(`/groups?$filter=${encodeURIComponent("resourceProvisioningOptions/Any(x:x eq 'Team')")}`);
    expect((teams.body.value as Row[]).map((g) => g.id).sort()).toEqual(tenant.teams.map((t) => t.id).sort());
    const byName = await get(`/users?$filter=userPrincipalName eq '${user.upn.toUpperCase()}'`);
    expect((byName.body.value as Row[]).map((u) => u.id)).toEqual([user.id]);
    const starts = await get(`/users?$filter=startswith(displayName,'${user.displayName.slice(0, 3)}')`);
    expect(
      (starts.body.value as Row[]).every((u) => String(u.displayName).startsWith(user.displayName.slice(0, 3))),
    ).toBe(true);
    const unified = await get(`/groups?$filter=groupTypes/any(c:c eq 'Unified') and mailEnabled eq true`);
    expect((unified.body.value as Row[]).length).toBe(tenant.teams.length);
    const guests = await get('/users?$filter=mail eq null');
    expect((guests.body.value as Row[]).map((u) => u.id)).toEqual(
      tenant.users.filter((u) => !u.hasMailbox).map((u) => u.id),
    );
    const recent = await get(`/users/${user.id}/messages?$filter=receivedDateTime ge 2026-09-01T09:00:00Z`);
    expect((recent.body.value as Row[]).every((m) => String(m.receivedDateTime) >= '2026-09-01T09:00:00')).toBe(true);
    expect((await get("/users?$filter=displayName eq 'unterminated")).status).toBe(400);
  });

  it('$orderby displayName, ascending and descending; other orders and ne need an advanced query', async () => {
    const names = (answer: { body: Record<string, unknown> }) =>
      (answer.body.value as Row[]).map((u) => String(u.displayName));
    const sorted = tenant.users
      .map((u) => u.displayName)
      .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(names(await get('/users?$orderby=displayName'))).toEqual(sorted);
    expect(names(await get('/users?$orderby=displayName desc'))).toEqual([...sorted].reverse());
    const messages = await get(`/users/${user.id}/messages?$orderby=receivedDateTime desc`);
    const times = (messages.body.value as Row[]).map((m) => String(m.receivedDateTime));
    expect(times).toEqual([...times].sort().reverse());

    for (const url of [
      "/users?$filter=displayName ne 'x'",
      "/users?$filter=endswith(mail,'.com')",
      '/users?$orderby=mail',
    ]) {
      const refused = await get(url);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'Request_UnsupportedQuery', message: 'Unsupported Query.' });
      const advanced = await get(`${url}&$count=true`, eventual);
      expect(advanced.status).toBe(200);
      expect(advanced.body['@odata.count']).toBe((advanced.body.value as Row[]).length);
    }
    const both = await get(`/users?$filter=startswith(displayName,'A')&$orderby=displayName`);
    expect(both.status).toBe(400);
  });

  it('$count=true counts with ConsistencyLevel: eventual; without it the directory ignores it, /$count refuses', async () => {
    const counted = await get('/users?$count=true&$top=2', eventual);
    expect(counted.body['@odata.count']).toBe(tenant.users.length);
    expect((counted.body.value as Row[]).length).toBe(2);
    const ignored = await get('/users?$count=true');
    expect(ignored.status).toBe(200);
    expect(ignored.body['@odata.count']).toBeUndefined();
    const segment = await get('/users/$count');
    expect(segment.status).toBe(400);
    expect(segment.body.error).toMatchObject({
      code: 'Request_BadRequest',
      message: '$count is not currently supported.',
    });
    const text = await get('/users/$count', eventual);
    expect(Buffer.from(text.bytes ?? []).toString()).toBe(String(tenant.users.length));
    const group = groupsOf(tenant).find((g) => g.members.length > 1) ?? expect.unreachable('a group with members');
    const members = `/groups/${group.id}/members/microsoft.graph.user/$count`;
    expect((await get(members)).status).toBe(400);
    const memberCount = await get(members, eventual);
    expect(Buffer.from(memberCount.bytes ?? []).toString()).toBe(String(group.members.length));
    expect((await get(`/groups/no-such-group/members/microsoft.graph.user/$count`, eventual)).status).toBe(404);
    // Outlook counts without the header.
    expect((await get(`/users/${user.id}/messages?$count=true`)).body['@odata.count']).toBe(user.messages.size);
  });

  it('$search on the directory needs ConsistencyLevel: eventual', async () => {
    const refused = await get(`/users?$search="displayName:${user.displayName.split(' ')[0]}"`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'Request_UnsupportedQuery' });
    const found = await get(`/users?$search="displayName:${user.displayName.split(' ')[0]}"`, eventual);
    expect((found.body.value as Row[]).map((u) => u.id)).toContain(user.id);
  });
});

describe('what every answer carries', () => {
  const graph = graphOver({ users: 3 }, 5);
  const { tenant, get, call } = graph;
  const user = tenant.users[0];
  if (!user) throw new Error('no user');

  it('@odata.context in Graph’s form on the simulator’s base', async () => {
    const contexts = {
      '/users': 'users',
      [`/users/${user.id}`]: 'users/$entity',
      [`/users/${user.id}/drive`]: `users('${user.id}')/drive/$entity`,
      [`/drives/${user.driveId}/root/children`]: `drives('${user.driveId}')/root/children`,
      [`/users/${user.id}/mailFolders/inbox`]: `users('${user.id}')/mailFolders/$entity`,
      [`/drives/${user.driveId}/root/delta`]: 'Collection(microsoft.graph.driveItem)',
    };
    for (const [url, context] of Object.entries(contexts)) {
      expect((await get(url)).body['@odata.context']).toBe(`${BASE}/v1.0/$metadata#${context}`);
    }
    const metadata = await get('/$metadata');
    expect(metadata.headers?.['content-type']).toBe('application/xml');
    expect(
      Buffer.from(metadata.bytes ?? [])
        .subarray(0, 200)
        .toString(),
    ).toContain('edmx:Edmx');
  });

  it('request-id on every answer; client-request-id echoed, or a new GUID', async () => {
    const plain = await get('/users');
    expect(plain.headers?.['request-id']).toMatch(GUID);
    expect(plain.headers?.['client-request-id']).toMatch(GUID);
    const mine = await call('GET', '/users', { headers: { 'client-request-id': 'my-own-id-42' } });
    expect(mine.headers?.['client-request-id']).toBe('my-own-id-42');
    expect(mine.headers?.['request-id']).not.toBe(plain.headers?.['request-id']);
  });

  it('errors are {error:{code,message,innerError:{date,request-id,client-request-id}}} with the same ids', async () => {
    const answer = await call('GET', '/users/nobody@nowhere.example', { headers: { 'client-request-id': 'abc-123' } });
    expect(answer.status).toBe(404);
    const error = answer.body.error as { code: string; message: string; innerError: Record<string, string> };
    expect(error.code).toBe('Request_ResourceNotFound');
    expect(error.message).toContain('nobody@nowhere.example');
    expect(error.innerError.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(error.innerError['request-id']).toBe(answer.headers?.['request-id']);
    expect(error.innerError['client-request-id']).toBe('abc-123');
    expect(Object.keys(answer.body)).toEqual(['error']);
    const unknown = await get('/no-such-resource');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'BadRequest' });
  });
});
