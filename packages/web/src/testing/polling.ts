/**
 * Whether any query of the cache (or of those under `queryKey`) is polling now: an observer of it has
 * a `refetchInterval` that, asked for the query as it stands, is a number of milliseconds. A test asks
 * this instead of sleeping a poll's interval and counting requests, which a busy machine makes racy.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

export function isPolling(queryClient: QueryClient, queryKey?: QueryKey): boolean {
  return queryClient
    .getQueryCache()
    .findAll(queryKey ? { queryKey } : {})
    .some((query) =>
      query.observers.some((observer) => {
        const interval = observer.options.refetchInterval;
        return Boolean(typeof interval === 'function' ? interval(query) : interval);
      }),
    );
}
