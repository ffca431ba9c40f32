import type { QueryClient } from '@tanstack/react-query';

/** What a route loader needs of query options: the same object the page's useQuery reads with. */
interface LoadableQuery {
  queryKey: readonly unknown[];
  enabled?: unknown;
}

/**
 * Fetches a route's queries before the route renders (TanStack Router's loader pattern), with the
 * same options the page reads with, so that the page opens on its data. What is cached is used as it
 * is. Offline, or when a request fails, the loader does not hold the navigation: the page shows the
 * saved copy or the error in its own words.
 */
export async function loadQueries(queryClient: QueryClient, queries: readonly LoadableQuery[]): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  await Promise.all(
    queries
      .filter((q) => q.enabled !== false)
      .map((q) =>
        // One try: a failure is left to the page, which reads again with its own retries and shows the error.
        queryClient
          .ensureQueryData({ ...(q as Parameters<QueryClient['ensureQueryData']>[0]), retry: false })
          .catch(() => undefined),
      ),
  );
}
