/**
 * Keeps the dashboards and reports a user read (the queries marked `meta: OFFLINE`) in IndexedDB, one entry per user and
 * organisation, so that they open without a network. Bounded by age, count and size; written at most
 * once per throttle interval, when the page is idle. A persisted query outlives its place in the
 * memory cache (the cache forgets unobserved queries after minutes; the offline copy keeps them until
 * they age out or the bounds push them out, newest kept first).
 */
import { dehydrateQuery, hydrate, type Query, type QueryClient } from '@tanstack/react-query';
import { isOfflineQuery } from '../shared/api/offline';

/** Saved offline: only what its options mark `meta: OFFLINE` (src/shared/api/offline.ts). */
const persisted = (query: Query) => isOfflineQuery(query);

import { fromJson, toJson } from './serialize';

/** Where the cache lives: IndexedDB in the browser (idb-keyval), a Map in tests. */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  keys(): Promise<string[]>;
}

export interface PersistScope {
  /** The signed-in user's email. */
  user: string;
  /** The organisation worked for (the selected worker). */
  organisation: string;
}

export interface PersistenceOptions {
  store: KeyValueStore;
  /** A stored cache written by another app version is dropped. */
  buster: string;
  /** Entries older than this (by when their data was fetched) are dropped. */
  maxAge: number;
  maxQueries: number;
  /** The JSON of all entries together, in UTF-16 code units (about bytes for this data). */
  maxBytes: number;
  throttleMs: number;
  now?: () => number;
  /** Runs a write when the page is idle; setTimeout(0) where requestIdleCallback is missing. */
  whenIdle?: (run: () => void) => void;
  /** A restore parses for this long before it yields to the page (12 ms). */
  restoreSliceMs?: number;
  /** How a restore yields to the page between its slices (a new task). */
  yieldToPage?: () => Promise<void>;
}

/**
 * An entry whose queries changed after its last write is marked in local storage, synchronously, so
 * that a reload before the throttled write knows its saved copy may be older than what the page showed.
 */
const UNSAVED_PREFIX = 'offline-unsaved:';
const unsaved = {
  has: (key: string) => localStorage.getItem(UNSAVED_PREFIX + key) !== null,
  mark: (key: string) => localStorage.setItem(UNSAVED_PREFIX + key, '1'),
  unmark: (key: string) => localStorage.removeItem(UNSAVED_PREFIX + key),
  clear: () => {
    for (const k of Object.keys(localStorage)) if (k.startsWith(UNSAVED_PREFIX)) localStorage.removeItem(k);
  },
};

/** What one user-and-organisation entry holds. */
interface StoredCache {
  buster: string;
  savedAt: number;
  /** Each a dehydrated query as JSON, newest first. */
  queries: { hash: string; updatedAt: number; json: string }[];
}

interface Entry {
  hash: string;
  updatedAt: number;
  json: string;
}

const ENTRY_SEPARATOR = '\u0000';
/** A restore's work between two yields to the page (well under the 50 ms of a long task). */
const RESTORE_SLICE_MS = 12;
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function scopeKey(scope: PersistScope): string {
  return `${scope.user.toLowerCase()}${ENTRY_SEPARATOR}${scope.organisation}`;
}

function defaultWhenIdle(run: () => void) {
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => void })
    .requestIdleCallback;
  if (idle) idle(run, { timeout: 2000 });
  else setTimeout(run, 0);
}

export interface PersistenceStats {
  queries: number;
  bytes: number;
}

export function createQueryPersistence(queryClient: QueryClient, options: PersistenceOptions) {
  const now = options.now ?? Date.now;
  const whenIdle = options.whenIdle ?? defaultWhenIdle;
  const { store } = options;
  let key: string | null = null;
  let entries = new Map<string, Entry>();
  /** Queries changed since the last write. */
  const dirty = new Set<Query>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let unsubscribe: (() => void) | null = null;
  /** Bumped by clear(): writes queued before it belong to a signed-out user and are dropped. */
  let epoch = 0;
  /** Store operations run one after another, so a clear always comes after a pending write. */
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(operation: () => Promise<T>): Promise<T> => {
    const next = queue.then(operation, operation);
    queue = next.catch((error: unknown) => console.warn('offline cache:', error));
    return next;
  };

  const fresh = (entry: Entry) => now() - entry.updatedAt <= options.maxAge;

  /** Newest first; the count and size bounds cut the oldest. */
  function bounded(all: Iterable<Entry>): Entry[] {
    const kept: Entry[] = [];
    let bytes = 0;
    for (const entry of [...all].filter(fresh).sort((a, b) => b.updatedAt - a.updatedAt)) {
      if (kept.length >= options.maxQueries || bytes + entry.json.length > options.maxBytes) continue;
      kept.push(entry);
      bytes += entry.json.length;
    }
    return kept;
  }

  function collect() {
    for (const query of dirty) {
      if (query.state.status !== 'success' || !persisted(query)) continue;
      const previous = entries.get(query.queryHash);
      if (previous && previous.updatedAt >= query.state.dataUpdatedAt) continue;
      try {
        const json = toJson(dehydrateQuery(query));
        entries.set(query.queryHash, { hash: query.queryHash, updatedAt: query.state.dataUpdatedAt, json });
      } catch (error) {
        console.warn('offline cache: a query could not be saved', query.queryHash, error);
      }
    }
    dirty.clear();
    entries = new Map(bounded(entries.values()).map((e) => [e.hash, e]));
  }

  function write() {
    timer = null;
    const target = key;
    if (!target) return;
    collect();
    const value: StoredCache = { buster: options.buster, savedAt: now(), queries: [...entries.values()] };
    const writtenIn = epoch;
    void enqueue(async () => {
      // Signed out meanwhile: this write belongs to nobody.
      if (epoch !== writtenIn) return;
      await store.set(target, value);
      // Saved, unless more changed meanwhile (their own write follows).
      if (dirty.size === 0 && !timer) unsaved.unmark(target);
    });
  }

  function schedule(query: Query) {
    if (!persisted(query)) return;
    if (dirty.size === 0 && key) unsaved.mark(key);
    dirty.add(query);
    if (timer) return;
    timer = setTimeout(() => whenIdle(write), options.throttleMs);
  }

  function stopWriting() {
    unsubscribe?.();
    unsubscribe = null;
    if (timer) clearTimeout(timer);
    timer = null;
    dirty.clear();
  }

  async function restore(target: string) {
    // The page changed this entry's queries after its last write (a reload within the throttle):
    // what is restored may be older than what the page showed.
    const outdated = unsaved.has(target);
    const stored = (await store.get(target)) as StoredCache | undefined;
    if (!stored || stored.buster !== options.buster || !Array.isArray(stored.queries)) {
      if (stored) await store.del(target);
      return;
    }
    const kept = bounded(stored.queries);
    entries = new Map(kept.map((e) => [e.hash, e]));
    // Parsed and put into the cache in slices with the page free between them: a week of saved reports
    // (up to 5 MB) would otherwise hold a phone's main thread for a long task before the first screen.
    let slice: ReturnType<typeof dehydrateQuery>[] = [];
    let sliceStarted = performance.now();
    for (const e of kept) {
      try {
        slice.push(fromJson<ReturnType<typeof dehydrateQuery>>(e.json));
      } catch {
        entries.delete(e.hash);
      }
      if (performance.now() - sliceStarted < (options.restoreSliceMs ?? RESTORE_SLICE_MS)) continue;
      restoreSlice(slice, outdated);
      slice = [];
      await (options.yieldToPage ?? nextTask)();
      // Signed out or switched meanwhile: nothing more of this entry goes into the cache.
      if (key !== target) return;
      sliceStarted = performance.now();
    }
    restoreSlice(slice, outdated);
  }

  /**
   * Puts saved queries into the cache (hydrate keeps whatever the memory cache holds that is newer).
   * A copy that missed its last write (`outdated`) may be older than its own time says: the queries it
   * filled are marked out of date, shown at once and offline, but asked for again by a screen online.
   * A copy written after the page's last change is trusted for the queries' staleTime.
   */
  function restoreSlice(slice: ReturnType<typeof dehydrateQuery>[], outdated: boolean) {
    hydrate(queryClient, { queries: slice, mutations: [] });
    if (!outdated) return;
    const cache = queryClient.getQueryCache();
    for (const saved of slice) {
      const query = cache.get(saved.queryHash);
      if (query && query.state.dataUpdatedAt === saved.state.dataUpdatedAt) query.invalidate();
    }
  }

  return {
    /**
     * Starts keeping the queries of this user and organisation: restores their entry, then follows the
     * cache. Another user's entries are removed first: one browser keeps one user's data.
     */
    activate(scope: PersistScope): Promise<void> {
      const target = scopeKey(scope);
      if (target === key) return queue.then(() => undefined);
      // What the previous organisation changed is written to its own entry first.
      if (timer) write();
      stopWriting();
      key = target;
      entries = new Map();
      const user = scope.user.toLowerCase();
      return enqueue(async () => {
        for (const k of await store.keys()) {
          if (!k.startsWith(`${user}${ENTRY_SEPARATOR}`)) await store.del(k);
        }
        if (key !== target) return;
        await restore(target);
        if (key !== target) return;
        unsubscribe = queryClient.getQueryCache().subscribe((event) => {
          if (event.type === 'updated' && event.action.type === 'success') schedule(event.query);
          if (event.type === 'added' && event.query.state.status === 'success') schedule(event.query);
        });
      });
    },

    /** Writes what is pending and stops (an organisation switch keeps the entry for later). */
    deactivate(): Promise<void> {
      if (timer) write();
      stopWriting();
      key = null;
      entries = new Map();
      return queue.then(() => undefined);
    },

    /** Removes every user's offline data (logout, cross-tab logout, an expired session). */
    clear(): Promise<void> {
      epoch++;
      stopWriting();
      unsaved.clear();
      key = null;
      entries = new Map();
      return enqueue(async () => {
        for (const k of await store.keys()) await store.del(k);
      });
    },

    /** Writes now (tests, benchmarks, before the page is hidden). */
    flush(): Promise<void> {
      if (timer) {
        clearTimeout(timer);
        write();
      }
      return queue.then(() => undefined);
    },

    stats(): PersistenceStats {
      let bytes = 0;
      for (const e of entries.values()) bytes += e.json.length;
      return { queries: entries.size, bytes };
    },
  };
}

export type QueryPersistence = ReturnType<typeof createQueryPersistence>;
