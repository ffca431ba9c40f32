/**
 * Microsoft 365's throttling as a run records it. The Graph client waits and tries again when
 * Microsoft answers 429 (too many requests), 503 (unavailable) and the like, for as long as
 * Retry-After says; meanwhile the run does not move, and the monitor would show a run stuck at the
 * same figure. The tracker hears each retry of the run's requests (graph-client.ts,
 * listenToGraphRetries) and writes to the run: since when it waits, its next try, the status that
 * made it wait, the retries in all; once no request of the run waits any more, the wait ends and its
 * time is added to the run's time waited.
 */
import type { AppContext } from '../context.js';
import type { SqlValue } from '../db/database.js';
import type { GraphRetry, GraphRetryListener } from '../m365/graph-client.js';

export interface ThrottleTracker extends GraphRetryListener {
  /** Ends a wait still open (the run ended) and writes what is pending. */
  close(): Promise<void>;
}

export function createThrottleTracker(ctx: AppContext, runId: string): ThrottleTracker {
  /** Requests of the run that wait for a retry. */
  let waiting = 0;
  let since: Date | undefined;
  /** When the wait began on the monotonic clock: its length is measured there, not on the wall clock. */
  let began = 0;
  let writing: Promise<void> = Promise.resolve();
  const queue = (sql: string, params: SqlValue[]) => {
    writing = writing
      .then(async () => {
        await ctx.db.query(sql, params);
      })
      .catch((err: unknown) => ctx.log.warn({ err, runId }, 'throttling write failed'));
    return writing;
  };
  const end = () => {
    if (since === undefined) return writing;
    const waited = Math.max(0, Math.round(performance.now() - began));
    since = undefined;
    waiting = 0;
    return queue(
      `update job_runs set throttled_since = null, throttle_next_try = null, throttled_ms = throttled_ms + $2
        where run_id = $1`,
      [runId, waited],
    );
  };
  return {
    retrying(retry: GraphRetry) {
      // A request counts once however often it retries: its first retry is attempt 1.
      if (retry.attempt === 1) waiting += 1;
      const now = ctx.now();
      if (since === undefined) {
        since = now;
        began = performance.now();
      }
      void queue(
        `update job_runs set throttled_since = coalesce(throttled_since, $2), throttle_next_try = $3,
                throttle_status = $4, throttle_retries = throttle_retries + 1
          where run_id = $1`,
        [runId, since, new Date(now.getTime() + retry.delayMs), retry.status],
      );
    },
    settled() {
      waiting = Math.max(0, waiting - 1);
      if (waiting === 0) void end();
    },
    async close() {
      await end();
      await writing;
    },
  };
}
