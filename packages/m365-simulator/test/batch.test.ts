/**
 * JSON batching (`POST /v1.0/$batch`) as Microsoft documents it, with the documented example request
 * and answer (test/fixtures/graph-docs/json-batching.json) as fixtures: each request answered as it
 * would be alone (permissions, validation, throttling, headers), `dependsOn` with 424 for a failed
 * dependency, and a malformed batch refused whole with 400.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_APPLICATION_PERMISSIONS,
  groupsOf,
  type RunningSimulator,
  type SimTenant,
  startSimulator,
  versionBytes,
} from '../src/index.js';
import { accessToken, TENANT } from './helpers.js';

interface BatchResponse {
  id: string;
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}
interface GraphErrorBody {
  error: { code: string; message: string; innerError: Record<string, string> };
}
type Json = Record<string, unknown>;

const documented = JSON.parse(
  readFileSync(new URL('./fixtures/graph-docs/json-batching.json', import.meta.url), 'utf8'),
) as {
  request: { requests: Json[] };
  response: { responses: BatchResponse[] };
  sequencing: { requests: { id: string; method: string; url: string; dependsOn?: string[] }[] };
};

describe('JSON batching', () => {
  let sim: RunningSimulator;
  let tenant: SimTenant;
  let token = '';

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [{ tenantId: TENANT, size: { users: 5, sites: 1, teams: 2, filesPerDrive: 4 } }],
      validate: true,
    });
    tenant = sim.state.tenant(TENANT);
    token = await accessToken(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${sim.graphBaseUrl}/$batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const batch = async (requests: Json[]) => {
    const answer = await post({ requests });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    return ((await answer.json()) as { responses: BatchResponse[] }).responses;
  };
  const alone = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${sim.graphBaseUrl}${path}`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
      redirect: 'manual',
    });
  const byId = (responses: BatchResponse[]) => new Map(responses.map((r) => [r.id, r]));
  const user = (n: number) => tenant.users[n] ?? expect.unreachable(`user ${n}`);

  it('answers the documented example request in the documented shape, one answer per request in their order', async () => {
    const responses = await batch(documented.request.requests);
    expect(responses.map((r) => r.id)).toEqual(documented.request.requests.map((r) => r.id));
    const expected = byId(documented.response.responses);
    for (const r of responses) {
      const doc = expected.get(r.id) ?? expect.unreachable(`documented answer ${r.id}`);
      expect(Object.keys(r).sort(), r.id).toEqual(Object.keys(doc).sort());
      expect(r.headers['Content-Type'], r.id).toMatch(/^application\/json/);
      // Request 1 succeeded in the documentation for a signed-in user (`/me`); with an application's
      // token, as here, requests 1 to 4 are refused, each with Graph's error body, and 5 succeeds.
      if (r.id === '5') {
        expect(r.status, JSON.stringify(r.body)).toBe(doc.status);
      } else {
        expect(r.status, r.id).toBeGreaterThanOrEqual(400);
        const refused = (expected.get('3')?.body as GraphErrorBody | undefined)?.error ?? expect.unreachable('3');
        const error = (r.body as GraphErrorBody).error;
        expect(Object.keys(error).sort(), r.id).toEqual(Object.keys(refused).sort());
        expect(Object.keys(error.innerError).sort(), r.id).toEqual(Object.keys(refused.innerError).sort());
      }
    }
    // Request 5: the selected properties, the count and the context with the selection, as documented.
    const five = responses[4]?.body as { '@odata.context': string; '@odata.count': number; value: Json[] };
    const documentedFive = expected.get('5')?.body as typeof five;
    // (and a next link: the simulator's pages are small)
    expect(Object.keys(five)).toEqual(expect.arrayContaining(Object.keys(documentedFive)));
    expect(five['@odata.context']).toBe(`${sim.url}/v1.0/$metadata#users(id,displayName,userPrincipalName)`);
    expect(five['@odata.count']).toBe(tenant.users.length);
    for (const row of five.value)
      expect(Object.keys(row).sort()).toEqual(Object.keys(documentedFive.value[0] ?? {}).sort());
    // Every JSON answer inside it was checked against Graph's metadata, as a standalone one is.
    expect(sim.state.validation?.mismatches).toEqual([]);
  });

  it('answers each request as it would be answered alone: body, status and headers', async () => {
    const driveId = user(0).driveId;
    const file = [...(tenant.drives.get(driveId)?.items.values() ?? [])].find((i) => i.kind === 'file' && !i.deleted);
    const group = groupsOf(tenant)[0] ?? expect.unreachable('a group');
    const paths = {
      users: '/users?$select=id,displayName&$top=2',
      one: `users/${user(1).id}`,
      versioned: `/v1.0/users/${user(2).id}?$select=id,mail`,
      count: `/groups/${group.id}/members/microsoft.graph.user/$count`,
      content: `/drives/${driveId}/items/${file?.id}/content`,
      missing: '/groups/00000000-0000-4000-8000-000000000000',
    };
    const eventual = { ConsistencyLevel: 'eventual' };
    const responses = byId(
      await batch([
        { id: 'users', method: 'GET', url: paths.users },
        { id: 'one', method: 'get', url: paths.one },
        { id: 'versioned', method: 'GET', url: paths.versioned },
        { id: 'count', method: 'GET', url: paths.count, headers: eventual },
        { id: 'content', method: 'GET', url: paths.content },
        { id: 'missing', method: 'GET', url: paths.missing },
      ]),
    );
    const same = async (id: string, path: string, headers: Record<string, string> = {}) => {
      const inBatch = responses.get(id) ?? expect.unreachable(id);
      const standalone = await alone(path.startsWith('/v1.0') ? path.slice(5) : path.replace(/^\/?/, '/'), headers);
      expect(inBatch.status, id).toBe(standalone.status);
      expect(inBatch.headers['Content-Type'], id).toBe(standalone.headers.get('content-type') ?? undefined);
      // A download link is signed with its expiry, so two reads give two links of the same form.
      const location = (value: string | null | undefined) => value?.replace(/\/download\/.*$/, '/download/…');
      expect(location(inBatch.headers.Location), id).toBe(location(standalone.headers.get('location')));
      expect(inBatch.headers['request-id'], id).toMatch(/^[0-9a-f-]{36}$/);
      return { inBatch, standalone };
    };
    for (const id of ['users', 'one', 'versioned'] as const) {
      const { inBatch, standalone } = await same(id, paths[id]);
      expect(inBatch.body, id).toEqual(await standalone.json());
    }
    const count = await same('count', paths.count, eventual);
    expect(count.inBatch.body).toBe(await count.standalone.text());
    expect(count.inBatch.body).toBe(String(group.members.length));
    // A file's content is a 302 to its download link: the Location is the answer, as alone.
    const content = await same('content', paths.content);
    expect(content.inBatch.status).toBe(302);
    const link = await fetch(content.inBatch.headers.Location ?? '');
    const latest = file?.versions[file.versions.length - 1] ?? expect.unreachable('a version');
    expect(Buffer.from(await link.arrayBuffer()).equals(Buffer.from(versionBytes(TENANT, latest)))).toBe(true);
    const missing = await same('missing', paths.missing);
    const error = (missing.inBatch.body as GraphErrorBody).error;
    expect(error.code).toBe(((await missing.standalone.json()) as GraphErrorBody).error.code);
    expect(error.innerError['request-id']).toBe(missing.inBatch.headers['request-id']);
  });

  it('takes JSON bodies as JSON and other bodies as base64, and answers writes as alone (201, 409)', async () => {
    const u = user(0);
    const rootId = `${u.driveId}-root`;
    const text = 'written inside a batch\n';
    const responses = byId(
      await batch([
        {
          id: 'folder',
          method: 'POST',
          url: `/users/${u.id}/mailFolders`,
          headers: { 'Content-Type': 'application/json' },
          body: { displayName: 'Batched' },
        },
        {
          id: 'again',
          method: 'POST',
          url: `/users/${u.id}/mailFolders`,
          headers: { 'Content-Type': 'application/json' },
          body: { displayName: 'Batched' },
          dependsOn: ['folder'],
        },
        {
          id: 'file',
          method: 'PUT',
          url: `/drives/${u.driveId}/items/${rootId}:/batched.txt:/content`,
          headers: { 'Content-Type': 'text/plain' },
          body: Buffer.from(text).toString('base64'),
        },
      ]),
    );
    expect(responses.get('folder')).toMatchObject({ status: 201, body: { displayName: 'Batched' } });
    expect(responses.get('again')).toMatchObject({ status: 409, body: { error: { code: 'ErrorFolderExists' } } });
    const file = responses.get('file') ?? expect.unreachable('file');
    expect(file.status).toBe(201);
    const item = file.body as { id: string; size: number; name: string };
    expect(item).toMatchObject({ name: 'batched.txt', size: Buffer.byteLength(text) });
    const read = await alone(`/drives/${u.driveId}/items/${item.id}/content`);
    const bytes = await fetch(read.headers.get('location') ?? '');
    expect(await bytes.text()).toBe(text);
  });

  it('runs a request after those it depends on, and answers 424 for one whose dependency failed', async () => {
    const u = user(0);
    const responses = await batch([
      {
        id: '1',
        method: 'POST',
        url: `/users/${u.id}/mailFolders`,
        headers: { 'Content-Type': 'application/json' },
        body: { displayName: 'Sequenced' },
      },
      // Sees the folder request 1 made: it runs after it.
      { id: '2', method: 'GET', url: `/users/${u.id}/mailFolders?$top=100`, dependsOn: ['1'] },
      { id: '3', method: 'GET', url: '/groups/no-such-group', dependsOn: ['2'] },
      { id: '4', method: 'GET', url: `/users/${u.id}`, dependsOn: ['3'] },
      { id: '5', method: 'GET', url: `/users/${u.id}`, dependsOn: ['4'] },
    ]);
    expect(responses.map((r) => [r.id, r.status])).toEqual([
      ['1', 201],
      ['2', 200],
      ['3', 404],
      ['4', 424],
      ['5', 424],
    ]);
    const folders = responses[1]?.body as { value: { displayName: string }[] } | undefined;
    const names = folders?.value.map((f) => f.displayName);
    expect(names).toContain('Sequenced');
    expect(responses[3]?.body).toMatchObject({
      error: { code: 'FailedDependency', message: expect.stringMatching(/ 3\b/) },
    });
    expect(responses[3]?.headers['Content-Type']).toMatch(/^application\/json/);
  });

  it('takes the documented sequencing (1, 2, 4, 3) with ids in any case', async () => {
    const requests = documented.sequencing.requests.map((r) => ({ ...r, url: `/users/${user(Number(r.id)).id}` }));
    const responses = await batch(requests);
    expect(responses.map((r) => [r.id, r.status])).toEqual(requests.map((r) => [r.id, 200]));
    const mixed = await batch([
      { id: 'First', method: 'GET', url: `/users/${user(0).id}` },
      { id: 'second', method: 'GET', url: `/users/${user(1).id}`, dependsOn: ['FIRST'] },
    ]);
    expect(mixed.map((r) => [r.id, r.status])).toEqual([
      ['First', 200],
      ['second', 200],
    ]);
  });

  it('throttles each request on its own: the throttled one answers 429 with its Retry-After, the others succeed', async () => {
    const before = { ...sim.state.stats };
    sim.state.setThrottle(2, 7, { paths: '^/v1.0/users/' });
    try {
      const responses = await batch(
        [0, 1, 2, 3].map((n) => ({ id: `u${n}`, method: 'GET', url: `/users/${user(n).id}` })),
      );
      expect(responses.map((r) => [r.id, r.status])).toEqual([
        ['u0', 200],
        ['u1', 429],
        ['u2', 200],
        ['u3', 429],
      ]);
      expect(responses[1]?.headers['Retry-After']).toBe('7');
      expect(responses[1]?.body).toMatchObject({ error: { code: 'TooManyRequests' } });
      expect(responses[0]?.headers['Retry-After']).toBeUndefined();
      // One round trip, four requests answered inside it, two of them throttled.
      expect(sim.state.stats.requests - before.requests).toBe(1);
      expect(sim.state.stats.batched - before.batched).toBe(4);
      expect(sim.state.stats.throttled - before.throttled).toBe(2);
      // Throttling every request throttles every request inside, not the batch itself.
      sim.state.setThrottle(1, 3);
      const all = await batch([{ id: 'a', method: 'GET', url: '/users' }]);
      expect(all.map((r) => [r.status, r.headers['Retry-After']])).toEqual([[429, '3']]);
    } finally {
      sim.state.setThrottle(0);
    }
  });

  it("checks each request's permissions on its own, with the envelope's token", async () => {
    sim.state.setConsent(TENANT, ['User.Read.All']);
    try {
      const narrow = await accessToken(sim);
      const answer = await fetch(`${sim.graphBaseUrl}/$batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${narrow}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          requests: [
            { id: 'users', method: 'GET', url: '/users' },
            { id: 'groups', method: 'GET', url: '/groups' },
          ],
        }),
      });
      const { responses } = (await answer.json()) as { responses: BatchResponse[] };
      expect(responses.map((r) => [r.id, r.status])).toEqual([
        ['users', 200],
        ['groups', 403],
      ]);
      expect(responses[1]?.body).toMatchObject({ error: { code: 'Authorization_RequestDenied' } });
    } finally {
      sim.state.setConsent(TENANT, ALL_APPLICATION_PERMISSIONS);
    }
    const anonymous = await fetch(`${sim.graphBaseUrl}/$batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requests: [{ id: '1', method: 'GET', url: '/users' }] }),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken' } });
  });

  it('refuses a malformed batch whole with 400 and runs none of it', async () => {
    const read = (id: string) => ({ id, method: 'GET', url: `/users/${user(0).id}` });
    const cases: [string, unknown, RegExp][] = [
      ['not JSON', '{"requests": [', /Unable to read JSON request payload/],
      ['no requests', { value: [] }, /requests/],
      ['no request at all', { requests: [] }, /at least one/],
      ['21 requests', { requests: Array.from({ length: 21 }, (_, n) => read(String(n))) }, /at most 20/],
      ['a request without id', { requests: [{ method: 'GET', url: '/users' }] }, /Request Id is required/],
      [
        'duplicate ids',
        { requests: [read('a'), read('b'), read('A')] },
        /^Request Id A has to be unique in a batch\.$/,
      ],
      ['an unsupported method', { requests: [{ ...read('1'), method: 'TRACE' }] }, /method 'TRACE'/],
      ['an absolute URL', { requests: [{ ...read('1'), url: `${sim.graphBaseUrl}/users` }] }, /relative/],
      ['a network-path URL', { requests: [{ ...read('1'), url: '//graph.microsoft.com/v1.0/users' }] }, /relative/],
      ['dependsOn an unknown id', { requests: [read('1'), { ...read('2'), dependsOn: ['7'] }] }, /request 7/],
      [
        'a cycle',
        {
          requests: [
            { ...read('1'), dependsOn: ['2'] },
            { ...read('2'), dependsOn: ['1'] },
          ],
        },
        /cycle/,
      ],
      [
        'a body without Content-Type',
        {
          requests: [{ id: '1', method: 'POST', url: `/users/${user(0).id}/mailFolders`, body: { displayName: 'x' } }],
        },
        /Content-Type/,
      ],
    ];
    const before = sim.state.stats.batched;
    for (const [what, body, message] of cases) {
      const answer = await post(body);
      expect(answer.status, what).toBe(400);
      const json = (await answer.json()) as GraphErrorBody;
      expect(json.error.code, what).toBe('BadRequest');
      expect(json.error.message, what).toMatch(message);
      expect(json.error.innerError['request-id'], what).toBe(answer.headers.get('request-id'));
    }
    expect(sim.state.stats.batched).toBe(before);
    // The client's request id is echoed, on a refusal as on an answer.
    const echoed = await post({ requests: [] }, { 'client-request-id': 'batch-test-1' });
    expect(echoed.headers.get('client-request-id')).toBe('batch-test-1');
    // Exactly 20 is allowed.
    const twenty = await batch(Array.from({ length: 20 }, (_, n) => read(`r${n}`)));
    expect(twenty.map((r) => r.status)).toEqual(Array(20).fill(200));
  });
});
