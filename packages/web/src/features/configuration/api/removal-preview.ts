import type { PortalClient } from '@compliance-portal/sdk';
import { queryOptions } from '@tanstack/react-query';
import { configurationKeys } from './keys';

/** What removing a tenant takes with it, counted before it is confirmed. */
export interface TenantRemovalPreview {
  jobs: number;
  locations: number;
  cases: number;
  /** Cases on legal hold: their holds end with the tenant. */
  heldCases: number;
}

/**
 * What a tenant holds that its removal deletes with it (its jobs, storage locations and eDiscovery
 * cases, and which of them are on legal hold), read live from the tenant's own lists when the
 * confirmation opens.
 */
export const tenantRemovalPreviewQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: configurationKeys.removalPreview(tenantId),
    queryFn: async ({ signal }): Promise<TenantRemovalPreview> => {
      // A count that cannot be read is said in the dialog, not in the generic toast as well.
      const options = { signal, disableToast: true } as const;
      const [jobs, locations, cases] = await Promise.all([
        api.apollo.jobs.list({ tenantId, query: { pageSize: 1 } }, options),
        api.apollo.locations.list({ tenantId }, options),
        api.apollo.ediscovery.cases({ tenantId }, options),
      ]);
      return {
        jobs: jobs.total,
        locations: locations.length,
        cases: cases.length,
        heldCases: cases.filter((c) => c.hold).length,
      };
    },
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
