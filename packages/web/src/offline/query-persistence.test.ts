import type { DashboardBasic } from '@compliance-portal/sdk';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE } from '../shared/api/offline';
import { createMemoryStore } from './idb-store';
import { createQueryPersistence, type PersistenceOptions, scopeKey } from './query-persistence';
import { fromJson, toJson } from './serialize';

const alice = { user: 'Alice@Example.com', organisation: 'worker-1' };
const bob = { user: 'bob@example.com', organisation: 'worker-1' };
const dashboard = (tenant: string, v = 'basic') => ['tenant', tenant, 'dashboard', 'onedrive', v];

function setup(overrides: Partial<PersistenceOptions> = {}) {
  const store = createMemoryStore();
  const set = vi.spyOn(store, 'set');
  const client = new QueryClient();
  // The dashboards of the tests are marked for offline reading, as their query options mark them.
  for (const tenant of ['t1', 't2']) client.setQueryDefaults(['tenant', tenant, 'dashboard'], { meta: OFFLINE });
  vi.setSystemTime(Date.parse('2026-11-23T10:00:00Z'));
  const options: PersistenceOptions = {
    store,
    buster: 'v1',
    maxAge: 7 * 86_400_000,
    maxQueries: 200,
    maxBytes: 5_000_000,
    throttleMs: 1000,
    whenIdle: (run) => run(),
    // Fake timers: a restore's slices yield without a timer.
    yieldToPage: () => Promise.resolve(),
    ...overrides,
  };
  const persistence = createQueryPersistence(client, options);
  return {
    store,
    set,
    client,
    persistence,
    options,
    tick: (ms: number) => vi.setSystemTime(Date.now() + ms),
  };
}

/** What the store holds for a scope: the keys of its queries, newest first. */
function storedKeys(store: ReturnType<typeof createMemoryStore>, scope: typeof alice) {
  const value = store.data.get(scopeKey(scope)) as { queries: { json: string }[] } | undefined;
  return value?.queries.map((q) => (fromJson(q.json) as { queryKey: unknown[] }).queryKey) ?? [];
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('what is kept', () => {
  it('is a successful query marked meta.offline, and nothing else', async () => {
    const { client, persistence, store } = setup();
    await persistence.activate(alice);
    const marked = ['tenant', 't9', 'reporting', { page: 1 }];
    const unmarked = ['tenant', 't9', 'ediscovery', 'search', 'x'];
    const refused = ['tenant', 't9', 'data-management', 'browse'];
    await client.fetchQuery({ queryKey: marked, queryFn: () => ({ n: 1 }), meta: OFFLINE });
    await client.fetchQuery({ queryKey: unmarked, queryFn: () => ({ n: 2 }) });
    await client.fetchQuery({ queryKey: refused, queryFn: () => ({ n: 3 }), meta: { offline: false } });
    await client
      .fetchQuery({
        queryKey: ['tenant', 't9', 'dashboard', 'x'],
        queryFn: () => Promise.reject(new Error('no')),
        meta: OFFLINE,
      })
      .catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1000);
    await persistence.flush();
    expect(storedKeys(store, alice)).toEqual([marked]);
  });
});

describe('query persistence', () => {
  it('saves allow-listed successful queries under the user and organisation, and restores them elsewhere', async () => {
    const { client, persistence, store } = setup();
    await persistence.activate(alice);
    client.setQueryData(dashboard('t1'), { total: 3, names: new Map([['u1', 'Ada']]) });
    client.setQueryData(['tenant', 't1', 'ediscovery', 'search', 'secret'], { hits: ['private'] });
    await vi.advanceTimersByTimeAsync(1000);
    await persistence.flush();
    expect([...store.data.keys()]).toEqual([scopeKey(alice)]);
    expect(scopeKey(alice)).toBe(`alice@example.com\u0000worker-1`);
    expect(storedKeys(store, alice)).toEqual([dashboard('t1')]);

    const other = new QueryClient();
    const reopened = createQueryPersistence(other, { ...setup().options, store });
    await reopened.activate(alice);
    const data = other.getQueryData<{ total: number; names: Map<string, string> }>(dashboard('t1'));
    expect(data?.total).toBe(3);
    expect(data?.names.get('u1')).toBe('Ada');
    expect(other.getQueryData(['tenant', 't1', 'ediscovery', 'search', 'secret'])).toBeUndefined();
  });

  it('keeps a dashboard’s items by kind as the server gave them', async () => {
    const { client, persistence, store } = setup();
    await persistence.activate(alice);
    const basic: DashboardBasic = {
      application: 'sharepoint',
      periodDays: 30,
      from: '2026-10-24T10:00:00.000Z',
      to: '2026-11-23T10:00:00.000Z',
      view: 'basic',
      protectedCount: 1,
      discoveredCount: 1,
      items: 1234,
      itemsByKind: { files: 1200, listItems: 30, pages: 4 },
      lastSuccessfulJob: null,
      jobsByStatus: { finished: 1, running: 0, failed: 0, pending: 0 },
    };
    client.setQueryData(dashboard('t1'), basic);
    await persistence.flush();
    const other = new QueryClient();
    await createQueryPersistence(other, { ...setup().options, store }).activate(alice);
    expect(other.getQueryData<DashboardBasic>(dashboard('t1'))).toEqual(basic);
  });

  it('trusts a copy written after the last change, and asks again for one that missed its write', async () => {
    const { client, persistence, store } = setup();
    await persistence.activate(alice);
    client.setQueryData(dashboard('t1'), { total: 3 });
    await persistence.flush();
    const reopen = async () => {
      const other = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
      other.setQueryData(dashboard('t2'), { total: 7 });
      await createQueryPersistence(other, { ...setup().options, store }).activate(alice);
      const queryFn = vi.fn(() => ({ total: 4 }));
      await other.prefetchQuery({ queryKey: dashboard('t1'), queryFn, staleTime: 30_000 });
      return { other, queryFn };
    };

    // A reload a moment after the write: the copy is seconds old and saved after every change.
    const saved = await reopen();
    expect(saved.queryFn).not.toHaveBeenCalled();
    expect(saved.other.getQueryData(dashboard('t1'))).toEqual({ total: 3 });

    // A change, then a reload before the throttled write: the older copy is shown but asked for again.
    client.setQueryData(dashboard('t1'), { total: 4 });
    const missed = await reopen();
    expect(missed.queryFn).toHaveBeenCalledTimes(1);
    expect(missed.other.getQueryData(dashboard('t1'))).toEqual({ total: 4 });
    // What the memory cache held already is not touched.
    expect(missed.other.getQueryCache().find({ queryKey: dashboard('t2'), exact: true })?.state.isInvalidated).toBe(
      false,
    );

    // Written at last: the next reload trusts the copy again.
    await vi.advanceTimersByTimeAsync(1000);
    await persistence.flush();
    expect((await reopen()).queryFn).not.toHaveBeenCalled();
  });

  it('writes at most once per throttle interval however often the cache changes', async () => {
    const { client, persistence, set } = setup();
    await persistence.activate(alice);
    for (let i = 0; i < 50; i++) client.setQueryData(dashboard('t1', `v${i}`), { i });
    await vi.advanceTimersByTimeAsync(999);
    expect(set).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await persistence.flush();
    expect(set).toHaveBeenCalledTimes(1);
    const written = set.mock.calls[0]?.[1] as { queries: unknown[] } | undefined;
    expect(written?.queries).toHaveLength(50);
  });

  it('keeps a query after the memory cache forgot it', async () => {
    const { client, persistence, store } = setup();
    await persistence.activate(alice);
    client.setQueryData(dashboard('t1'), { n: 1 });
    await persistence.flush();
    client.removeQueries({ queryKey: dashboard('t1') });
    vi.setSystemTime(Date.now() + 1000);
    client.setQueryData(dashboard('t2'), { n: 2 });
    await persistence.flush();
    expect(storedKeys(store, alice)).toEqual([dashboard('t2'), dashboard('t1')]);
  });

  it('stays within the count and size bounds, newest kept, and drops what is older than the age limit', async () => {
    const { client, persistence, store, tick } = setup({ maxQueries: 3, maxBytes: 100_000, maxAge: 60_000 });
    await persistence.activate(alice);
    for (let i = 0; i < 5; i++) {
      tick(1000);
      client.setQueryData(dashboard('t1', `v${i}`), { i });
    }
    await persistence.flush();
    expect(storedKeys(store, alice)).toEqual([dashboard('t1', 'v4'), dashboard('t1', 'v3'), dashboard('t1', 'v2')]);

    tick(1000);
    client.setQueryData(dashboard('t1', 'big'), { text: 'x'.repeat(99_500) });
    await persistence.flush();
    // The newest fits; of the three before it, only what still fits in the size bound stays.
    const kept = storedKeys(store, alice);
    expect(kept[0]).toEqual(dashboard('t1', 'big'));
    expect(kept.length).toBeLessThan(3);
    expect(persistence.stats().bytes).toBeLessThanOrEqual(100_000);

    tick(61_000);
    client.setQueryData(dashboard('t1', 'new'), { n: 1 });
    await persistence.flush();
    expect(storedKeys(store, alice)).toEqual([dashboard('t1', 'new')]);
  });

  it('drops a cache written by another app version', async () => {
    const { client, persistence, store, options } = setup();
    await persistence.activate(alice);
    client.setQueryData(dashboard('t1'), { n: 1 });
    await persistence.flush();
    const other = new QueryClient();
    const next = createQueryPersistence(other, { ...options, buster: 'v2' });
    await next.activate(alice);
    expect(other.getQueryData(dashboard('t1'))).toBeUndefined();
    expect(store.data.has(scopeKey(alice))).toBe(false);
  });

  it('keeps one entry per organisation and removes another user’s entries when a user signs in', async () => {
    const { client, persistence, store } = setup();
    await persistence.activate(alice);
    client.setQueryData(dashboard('t1'), { org: 1 });
    await persistence.activate({ ...alice, organisation: 'worker-2' });
    client.setQueryData(dashboard('t2'), { org: 2 });
    await persistence.flush();
    expect(storedKeys(store, alice)).toEqual([dashboard('t1')]);
    expect(storedKeys(store, { ...alice, organisation: 'worker-2' })).toEqual([dashboard('t2')]);

    await persistence.activate(bob);
    expect([...store.data.keys()]).toEqual([]);
  });

  it('restores in slices, and a sign-out between two slices stops the rest from reaching the cache', async () => {
    const { client, persistence, store, options } = setup();
    await persistence.activate(alice);
    for (const v of ['a', 'b', 'c']) client.setQueryData(dashboard('t1', v), { v });
    await persistence.flush();
    expect(storedKeys(store, alice)).toHaveLength(3);
    /** Reopens the store in a fresh cache, one query a slice; counts the yields to the page. */
    const reopen = () => {
      const client = new QueryClient();
      let yields = 0;
      const persistence = createQueryPersistence(client, {
        ...options,
        store,
        restoreSliceMs: 0,
        yieldToPage: async () => {
          yields++;
        },
      });
      return { client, persistence, counted: () => yields };
    };

    const whole = reopen();
    await whole.persistence.activate(alice);
    expect(whole.client.getQueryCache().getAll()).toHaveLength(3);
    expect(whole.counted()).toBe(3);
    await whole.persistence.deactivate();

    // The first query into the cache signs out (clear), as a logout in another tab does meanwhile.
    const cut = reopen();
    const stop = cut.client.getQueryCache().subscribe((event) => {
      if (event.type === 'added') void cut.persistence.clear();
    });
    await cut.persistence.activate(alice);
    stop();
    expect(cut.counted()).toBe(1);
    expect(cut.client.getQueryCache().getAll()).toHaveLength(1);
    await cut.persistence.flush();
    expect(store.data.size).toBe(0);
  });

  it('clearing removes every entry, and a write that was pending does not bring one back', async () => {
    const { client, persistence, store } = setup();
    await persistence.activate(alice);
    client.setQueryData(dashboard('t1'), { n: 1 });
    await persistence.flush();
    client.setQueryData(dashboard('t1', 'pending'), { n: 2 });
    await persistence.clear();
    await vi.advanceTimersByTimeAsync(5000);
    expect(store.data.size).toBe(0);
    client.setQueryData(dashboard('t1', 'after'), { n: 3 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(store.data.size).toBe(0);
  });
});

describe('serialisation', () => {
  it('keeps Maps and Sets', () => {
    const value = { m: new Map([['a', { b: new Set([1, 2]) }]]) };
    const back = fromJson<typeof value>(toJson(value));
    expect(back.m.get('a')?.b.has(2)).toBe(true);
  });
});
