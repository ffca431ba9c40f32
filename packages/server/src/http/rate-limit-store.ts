/**
 * @fastify/rate-limit's counts kept in the database (table rate_limits) instead of each process's
 * memory: API processes on several machines count one client's requests together. A window is fixed
 * (it begins with the first request after the last one ended), as the plugin's own store counts.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Database } from '../db/database.js';

/** Windows that ended this long ago are deleted now and then. */
const KEEP_MS = 24 * 60 * 60_000;
/** One in this many counts also deletes the ended windows. */
const SWEEP_EVERY = 500;

export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  let counted = 0;
  const store = (scope: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      const now = new Date();
      db.query<{ hits: number; window_start: Date }>(
        `insert into rate_limits as r (key, window_start, hits) values ($1, $2, 1)
         on conflict (key) do update set
           hits = case when r.window_start <= $2::timestamptz - $3 * interval '1 millisecond' then 1 else r.hits + 1 end,
           window_start = case when r.window_start <= $2::timestamptz - $3 * interval '1 millisecond' then $2 else r.window_start end
         returning hits, window_start`,
        [`${scope} ${key}`, now, timeWindow],
      ).then(
        ([row]) => {
          const started = new Date(row?.window_start ?? now).getTime();
          callback(null, { current: row?.hits ?? 1, ttl: Math.max(0, started + timeWindow - now.getTime()) });
          if (++counted % SWEEP_EVERY === 0) {
            db.query('delete from rate_limits where window_start < $1', [new Date(now.getTime() - KEEP_MS)]).catch(
              () => undefined,
            );
          }
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    // The plugin passes the route's merged limits, the route itself as `routeInfo` (its types say otherwise).
    child(params) {
      const route = (params as unknown as { routeInfo?: { method?: unknown; url?: string } }).routeInfo ?? {};
      return store(`${String(route.method ?? '')} ${route.url ?? ''}`);
    },
  });
  // The plugin constructs its store with `new`; a constructor returning an object gives that object.
  return function DatabaseRateLimitStore() {
    return store('');
  } as unknown as FastifyRateLimitStoreCtor;
}
