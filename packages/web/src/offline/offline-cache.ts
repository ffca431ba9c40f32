/**
 * Ties the persisted query cache to the session: the signed-in user and the organisation worked for
 * choose the entry; signing out, in this tab or another, and an expired session remove every entry
 * and empty the memory cache, so the next person on this browser sees nothing of the last one.
 */
import type { QueryClient } from '@tanstack/react-query';
import { isAuthenticated } from '../session/machine';
import type { SessionActor } from '../session/runtime';
import { readWorker, subscribeWorker } from '../session/storage';
import { createIdbStore, createMemoryStore } from './idb-store';
import {
  createQueryPersistence,
  type KeyValueStore,
  type PersistScope,
  type QueryPersistence,
  scopeKey,
} from './query-persistence';
import { APP_VERSION } from './version';

/** The bounds of issue 9: a week, 200 queries, 5 MB of JSON, at most one write a second. */
const OFFLINE_CACHE_LIMITS = {
  maxAge: 7 * 24 * 60 * 60_000,
  maxQueries: 200,
  maxBytes: 5 * 1024 * 1024,
  throttleMs: 1000,
};

/** How long the first screen waits for the saved data before it renders without it. */
const RESTORE_WAIT_MS = 1500;

function defaultOfflineStore(): KeyValueStore {
  return typeof indexedDB === 'undefined' ? createMemoryStore() : createIdbStore();
}

export interface OfflineCache {
  persistence: QueryPersistence;
  /** Settles when the signed-in user's saved data is in the cache (or after a short wait). */
  ready: Promise<void>;
  /** Signing out: every entry goes, and the memory cache is emptied. */
  clear(): Promise<void>;
  stop(): void;
}

function currentScope(session: SessionActor): PersistScope | null {
  const snapshot = session.getSnapshot();
  const email = isAuthenticated(snapshot.value) ? snapshot.context.user?.user.email : undefined;
  const worker = readWorker();
  return email && worker ? { user: email, organisation: worker.workerId } : null;
}

export function connectOfflineCache(
  session: SessionActor,
  queryClient: QueryClient,
  store: KeyValueStore = defaultOfflineStore(),
): OfflineCache {
  const persistence = createQueryPersistence(queryClient, { store, buster: APP_VERSION, ...OFFLINE_CACHE_LIMITS });
  let active: string | null = null;
  let first: Promise<void> = Promise.resolve();
  const follow = () => {
    const scope = currentScope(session);
    const key = scope ? scopeKey(scope) : null;
    if (key === active) return;
    active = key;
    first = scope ? persistence.activate(scope) : persistence.deactivate();
  };
  follow();
  const ready = Promise.race([first, new Promise<void>((resolve) => setTimeout(resolve, RESTORE_WAIT_MS))]).catch(
    () => undefined,
  );
  const subscription = session.subscribe(follow);
  const stopWorker = subscribeWorker(follow);
  const onHidden = () => {
    if (document.visibilityState === 'hidden') void persistence.flush();
  };
  document.addEventListener('visibilitychange', onHidden);
  return {
    persistence,
    ready,
    async clear() {
      active = null;
      queryClient.clear();
      await persistence.clear();
    },
    stop() {
      subscription.unsubscribe();
      stopWorker();
      document.removeEventListener('visibilitychange', onHidden);
      void persistence.deactivate();
    },
  };
}
