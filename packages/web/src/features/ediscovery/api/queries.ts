import type { EdiscoverySearch, PortalClient } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ediscoveryKeys } from './keys';

/** The tenant's saved cases; read live only, like everything of eDiscovery. */
export const casesQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: ediscoveryKeys.cases(tenantId),
    queryFn: ({ signal }) => api.apollo.ediscovery.cases({ tenantId }, { signal }),
  });

/**
 * Whether the signed-in user is an eDiscovery manager (places and releases legal holds); read live,
 * so a role granted or taken shows on the next visit without signing in again.
 */
export const rightsQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: ediscoveryKeys.rights(tenantId),
    // Unread, Hold and Release stay disabled, said under the cases, not in a toast.
    queryFn: ({ signal }) => api.apollo.ediscovery.rights({ tenantId }, { signal, disableToast: true }),
  });

/** One page of the hits of a search; nothing is asked before a search is made. */
export const searchQuery = (
  api: PortalClient,
  tenantId: string,
  search: EdiscoverySearch | null,
  page: number,
  pageSize: number,
) =>
  queryOptions({
    queryKey: ediscoveryKeys.search(tenantId, search, page, pageSize),
    queryFn: ({ signal }) =>
      api.apollo.ediscovery.search({ tenantId, body: { ...(search as EdiscoverySearch), page, pageSize } }, { signal }),
    enabled: !!search,
    placeholderData: keepPreviousData,
  });

/** A mail or message to read; a refusal is said in the viewer, not in a toast. */
export const itemQuery = (api: PortalClient, tenantId: string, itemId: string) =>
  queryOptions({
    queryKey: ediscoveryKeys.item(tenantId, itemId),
    queryFn: ({ signal }) => api.apollo.ediscovery.preview({ tenantId, itemId }, { signal, disableToast: true }),
  });

/** A calendar event of a mailbox to read; a refusal is said in the viewer, not in a toast. */
export const eventQuery = (api: PortalClient, tenantId: string, mailboxId: string, eventId: string) =>
  queryOptions({
    queryKey: ediscoveryKeys.event(tenantId, mailboxId, eventId),
    queryFn: ({ signal }) =>
      api.apollo.ediscovery.eventPreview({ tenantId, mailboxId, eventId }, { signal, disableToast: true }),
  });
