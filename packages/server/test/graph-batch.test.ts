/**
 * The engine's JSON batching against the simulator, counted in round trips (the simulator's
 * `stats.requests`, a batch being one): the member counts of groups (and the channels of teams) in
 * batches of 20 instead of one request per group, a count throttled inside a batch sent again alone
 * after its Retry-After, a refused group (404, 403) failing the read as reading its count alone did;
 * and the groups page's list kept for GROUP_LIST_TTL_MS.
 */
import {
  ALL_APPLICATION_PERMISSIONS,
  groupsOf,
  type RunningSimulator,
  startSimulator,
} from '@compliance-portal/m365-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GraphError, type TenantGraphConnection } from '../src/m365/graph-api.js';
import { createGraphApi, type GraphRetry } from '../src/m365/graph-client.js';
import { GROUP_LIST_TTL_MS, listGroups } from '../src/modules/discovery/service.js';

const TENANT = '11111111-2222-3333-4444-555555555555';

describe('JSON batching in the engine', () => {
  let sim: RunningSimulator;
  let connection: TenantGraphConnection;
  const sleeps: number[] = [];
  const api = (options: Parameters<typeof createGraphApi>[1] = {}) =>
    createGraphApi(connection, {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...options,
    });
  /** The round trips and the requests answered inside batches while `work` runs. */
  const counted = async <T>(work: () => Promise<T>) => {
    const before = { ...sim.state.stats };
    const result = await work();
    return {
      result,
      roundTrips: sim.state.stats.requests - before.requests,
      batched: sim.state.stats.batched - before.batched,
    };
  };

  beforeAll(async () => {
    // 44 teams and All Company: 45 groups, more than two batches' worth.
    sim = await startSimulator({ tenants: [{ tenantId: TENANT, size: { users: 6, teams: 44 } }], pageSize: 5 });
    connection = {
      directoryId: TENANT,
      clientId: 'app-1',
      clientSecret: 'sim-secret',
      authorityHost: sim.authorityHost,
      graphBaseUrl: sim.graphBaseUrl,
    };
  });
  afterAll(() => sim.close());
  afterEach(() => {
    sim.state.setThrottle(0);
    sim.state.setConsent(TENANT, ALL_APPLICATION_PERMISSIONS);
    sleeps.length = 0;
  });

  const groups = () => groupsOf(sim.state.tenant(TENANT));

  it("reads 45 groups' member counts in 3 round trips (one per 20), where one request per group took 45", async () => {
    const graph = api();
    await graph.organization(); // the token, so that only Graph's round trips are counted below
    const ids = groups().map((g) => g.id);
    expect(ids).toHaveLength(45);
    const { result, roundTrips, batched } = await counted(() => graph.groupUserCounts(ids));
    expect(roundTrips).toBe(3);
    expect(batched).toBe(45);
    expect(Object.fromEntries(result)).toEqual(Object.fromEntries(groups().map((g) => [g.id, g.members.length])));
    // Nothing to count, nothing sent; an id asked twice is counted once.
    expect((await counted(() => graph.groupUserCounts([]))).roundTrips).toBe(0);
    const twice = await counted(() => graph.groupUserCounts([ids[0] ?? '', ids[0] ?? '']));
    expect([twice.roundTrips, twice.batched, twice.result.size]).toEqual([1, 1, 1]);
  });

  it('sends a count throttled inside a batch again, alone, after its Retry-After; the others are not read twice', async () => {
    const retries: GraphRetry[] = [];
    const graph = api({ onRetry: (retry) => retries.push(retry) });
    await graph.organization();
    const six = groups().slice(0, 6);
    // Every third count: the 3rd and the 6th of the batch; the retry's two (the 7th and 8th) pass.
    sim.state.setThrottle(3, 3, { paths: '/members/microsoft\\.graph\\.user/\\$count$' });
    const { result, roundTrips, batched } = await counted(() => graph.groupUserCounts(six.map((g) => g.id)));
    expect(Object.fromEntries(result)).toEqual(Object.fromEntries(six.map((g) => [g.id, g.members.length])));
    expect([roundTrips, batched]).toEqual([2, 6 + 2]);
    expect(sleeps).toEqual([3000]);
    const path = (g: (typeof six)[number] | undefined) =>
      `${sim.graphBaseUrl}/groups/${g?.id}/members/microsoft.graph.user/$count`;
    expect(retries.map((r) => [r.url, r.status, r.attempt, r.delayMs])).toEqual([
      [path(six[2]), 429, 1, 3000],
      [path(six[5]), 429, 1, 3000],
    ]);
    // Throttled for good: the last answer after maxRetries is the refusal, as for a request alone.
    sim.state.setThrottle(1, 1, { paths: '/members/microsoft\\.graph\\.user/\\$count$' });
    const refused = await api({ maxRetries: 2 })
      .groupUserCounts([six[0]?.id ?? ''])
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, code: 'TooManyRequests', retryAfter: 1, permanent: false });
  });

  it('fails with the GraphError reading the count alone gave: 404 for a group that is gone, 403 without the permission', async () => {
    const graph = api();
    const gone = '00000000-0000-4000-8000-00000000dead';
    const failure = await graph.groupUserCounts([groups()[0]?.id ?? '', gone]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GraphError);
    expect(failure).toMatchObject({
      status: 404,
      code: 'Request_ResourceNotFound',
      permanent: true,
      details: { requestId: expect.any(String), host: new URL(sim.graphBaseUrl).host },
    });
    expect((failure as GraphError).message).toContain(gone);

    sim.state.setConsent(TENANT, ['User.Read.All']);
    const narrow = await api()
      .groupUserCounts([groups()[0]?.id ?? ''])
      .catch((e: unknown) => e);
    expect(narrow).toMatchObject({
      status: 403,
      code: 'Authorization_RequestDenied',
      details: { roles: ['User.Read.All'] },
    });
  });

  it("reads 44 teams' channels in 3 round trips, as read one team at a time", async () => {
    const graph = api();
    await graph.organization();
    const teams = sim.state.tenant(TENANT).teams;
    const { result, roundTrips, batched } = await counted(() => graph.teamsChannels(teams.map((t) => t.id)));
    expect([roundTrips, batched]).toEqual([3, 44]);
    const alone = await counted(async () => {
      const read = new Map<string, (string | undefined)[]>();
      for (const t of teams) {
        const ids: (string | undefined)[] = [];
        for await (const c of graph.channels(t.id)) ids.push(c.id);
        read.set(t.id, ids);
      }
      return read;
    });
    expect(alone.roundTrips).toBe(44);
    expect(new Map([...result].map(([id, channels]) => [id, channels.map((c) => c.id)]))).toEqual(alone.result);
    expect(result.get(teams[0]?.id ?? '')?.map((c) => c.displayName)).toEqual(teams[0]?.channels.map((c) => c.name));
    const gone = await graph.teamsChannels(['00000000-0000-4000-8000-00000000dead']).catch((e: unknown) => e);
    expect(gone).toMatchObject({ status: 404, permanent: true });
  });

  it('lists a page of 25 groups with their counts in 3 round trips: the groups in one page of up to 999, the counts in two batches', async () => {
    const graph = api();
    await graph.organization();
    const { result, roundTrips, batched } = await counted(() => listGroups(async () => graph, {}));
    // Before: the groups in pages of the simulator's 5 (9 requests) and a request per count shown (25): 34.
    expect([roundTrips, batched]).toEqual([3, 25]);
    const byName = [...groups()].sort((a, b) => a.displayName.toLowerCase().localeCompare(b.displayName.toLowerCase()));
    expect(result.total).toBe(45);
    expect(result.items.map((g) => [g.displayName, g.memberCount])).toEqual(
      byName.slice(0, 25).map((g) => [g.displayName, g.members.length]),
    );
  });

  it('reads the counts live for each request, one read shared by the requests that come while it runs', async () => {
    const graph = api();
    await graph.organization();
    const t0 = Date.now();
    await listGroups(async () => graph, {}, t0);
    // Five administrators at once on the same page: one read of its 25 counts (two batches), not five.
    const together = await counted(() => Promise.all([1, 2, 3, 4, 5].map(() => listGroups(async () => graph, {}, t0))));
    expect([together.roundTrips, together.batched]).toEqual([2, 25]);
    expect(new Set(together.result.map((page) => JSON.stringify(page))).size).toBe(1);
    // One after the other, each reads them again: a count is never older than its request.
    const after = await counted(() => listGroups(async () => graph, {}, t0));
    expect([after.roundTrips, after.batched]).toEqual([2, 25]);
  });

  it('keeps the group list for 30 s: other pages, sorts and searches cost only their counts; a change shows after it, a removal at once', async () => {
    const graph = api();
    await graph.organization();
    const list = (args: Parameters<typeof listGroups>[1], at: number) =>
      counted(() => listGroups(async () => graph, args, at));
    const t0 = Date.now();
    expect(GROUP_LIST_TTL_MS).toBe(30_000);
    expect((await list({}, t0)).roundTrips).toBe(3);
    // Page 2 of 20 by mail, descending: one batch; All Company alone: one batch of one.
    const second = await list({ page: 2, pageSize: 20, sort: 'mail', order: 'desc' }, t0 + 1_000);
    expect([second.roundTrips, second.batched]).toEqual([1, 20]);
    const byMail = [...groups()].sort((a, b) => (a.mail < b.mail ? 1 : a.mail > b.mail ? -1 : 0));
    expect(second.result.items.map((g) => [g.mail, g.memberCount])).toEqual(
      byMail.slice(20, 40).map((g) => [g.mail, g.members.length]),
    );
    const all = await list({ search: 'all company' }, t0 + 2_000);
    expect([all.roundTrips, all.result.items.map((g) => g.displayName)]).toEqual([1, ['All Company']]);

    const tenant = sim.state.tenant(TENANT);
    const teams = [...tenant.teams];
    try {
      // A team made in Microsoft 365 shows once the list kept is older than 30 s.
      const made = {
        ...(teams[0] ?? expect.unreachable('a team')),
        id: 'b0b0b0b0-0000-4000-8000-000000000001',
        name: 'Zeta',
      };
      tenant.teams.push(made);
      const before = await list({ search: 'zeta' }, t0 + GROUP_LIST_TTL_MS - 1);
      expect([before.roundTrips, before.result.total]).toEqual([0, 0]);
      const after = await list({ search: 'zeta' }, t0 + GROUP_LIST_TTL_MS);
      expect([after.roundTrips, after.result.items.map((g) => g.groupId)]).toEqual([2, [made.id]]);
      // A team removed meanwhile: its count answers 404, so the list is read again at once, and it is gone.
      const removed = teams[2] ?? expect.unreachable('a third team');
      tenant.teams.splice(tenant.teams.indexOf(removed), 1);
      const page = await list({}, t0 + GROUP_LIST_TTL_MS + 1_000);
      expect(page.result.total).toBe(45);
      expect(page.result.items.map((g) => g.groupId)).not.toContain(removed.id);
      // The two batches that found it gone, the list, the two batches again.
      expect(page.roundTrips).toBe(5);
    } finally {
      tenant.teams.splice(0, tenant.teams.length, ...teams);
    }
  });
});
