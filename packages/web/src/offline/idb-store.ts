/** The offline cache's IndexedDB database: one object store, through idb-keyval. */
import { createStore, del, get, keys, set } from 'idb-keyval';
import type { KeyValueStore } from './query-persistence';

const OFFLINE_DB = 'compliance-portal';
const OFFLINE_STORE = 'query-cache';

export function createIdbStore(): KeyValueStore {
  const store = createStore(OFFLINE_DB, OFFLINE_STORE);
  return {
    get: (key) => get(key, store),
    set: (key, value) => set(key, value, store),
    del: (key) => del(key, store),
    keys: async () => (await keys(store)).map(String),
  };
}

/** A store in memory, where IndexedDB is missing (old browsers, private modes that refuse it, tests). */
export function createMemoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async (key) => data.get(key),
    set: async (key, value) => {
      data.set(key, value);
    },
    del: async (key) => {
      data.delete(key);
    },
    keys: async () => [...data.keys()],
  };
}
