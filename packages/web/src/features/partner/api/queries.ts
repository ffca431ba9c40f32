import type { PortalClient } from '@compliance-portal/sdk';
import { queryOptions } from '@tanstack/react-query';
import { OFFLINE } from '../../../shared/api/offline';
import { partnerKeys } from './keys';

/** The partner's client organisations, kept for offline reading (the list that leads to a client). */
export const clientsQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: partnerKeys.clients(),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.legacy.workers.clients(undefined, { signal }),
  });
