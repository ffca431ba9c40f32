import type { Application, PortalClient } from '@compliance-portal/sdk';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '../tenant';
import { sharedKeys } from './keys';
import { OFFLINE } from './offline';

export const locationsQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: sharedKeys.locations(tenantId),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.locations.list({ tenantId }, { signal }),
    enabled: !!tenantId,
  });

/** Every account, site or team discovery found for an application, as id → name (for labels). */
export const sourceNamesQuery = (api: PortalClient, tenantId: string, locationId: string, application: Application) =>
  queryOptions({
    queryKey: sharedKeys.sourceNames(tenantId, locationId, application),
    meta: OFFLINE,
    queryFn: async ({ signal }) => {
      const names = new Map<string, string>();
      for (let page = 1; ; page++) {
        const answer = await api.apollo.discovery.users(
          { tenantId, locationId, query: { application, page, pageSize: 500 } },
          { signal, disableToast: true },
        );
        for (const s of answer.items) names.set(s.sourceId, s.displayName);
        if (page * 500 >= answer.total) break;
      }
      return names;
    },
    enabled: !!tenantId && !!locationId,
    staleTime: 5 * 60_000,
  });

export function useSourceNames(tenantId: string, locationId: string | null | undefined, application: Application) {
  const api = useApi();
  const names = useQuery(sourceNamesQuery(api, tenantId, locationId ?? '', application));
  return (id: string) => names.data?.get(id) ?? id;
}
