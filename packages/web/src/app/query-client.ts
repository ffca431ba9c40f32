import { ApiError, microsoft365FailureOf } from '@compliance-portal/sdk';
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx will not change on a retry; a network blip might. A failure of Microsoft 365 comes after
        // the server's own retries (throttling, outages): it is shown with its cause at once.
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiError && error.status < 500) && !microsoft365FailureOf(error),
        refetchOnWindowFocus: false,
        // Back from offline, what the screen shows may be days old: read it again, fresh or not.
        refetchOnReconnect: 'always',
      },
    },
  });
}
