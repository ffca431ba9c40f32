import { ApiError, microsoft365FailureOf } from '@compliance-portal/sdk';
import { QueryClient } from '@tanstack/react-query';
import type { StoredWorker } from '../session/types';
import { scopeKeys, sharedKeys } from '../shared/api/keys';

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

/**
 * The worker changed (a tenant added, removed or switched, here or in another tab): the tenants and
 * what was read for the organisation and its worker are read again. What is read per tenant needs
 * nothing: a new tenant has keys of its own.
 */
export function invalidateOrganisation(
  queryClient: QueryClient,
  worker: Pick<StoredWorker, 'clientId' | 'workerIp'>,
): Promise<void> {
  return Promise.all(
    [
      scopeKeys.tenants(),
      scopeKeys.organisation(worker.clientId),
      scopeKeys.worker(worker.workerIp),
      sharedKeys.clients(),
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  ).then(() => undefined);
}
