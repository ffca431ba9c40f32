/** Changes of the configuration that other screens read: each with the invalidation of what it touches. */
import type { StorageLocation } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../shared/tenant';
import { configurationKeys } from './keys';

/**
 * Tests a location's object store again; the server records the outcome (a failed test is an answer,
 * not a refusal), so the location lists read it again.
 */
export function useTestLocationStore(tenantId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (location: StorageLocation) =>
      api.apollo.locations.probe({ tenantId, locationId: location.locationId }, { disableToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.locations(tenantId) }),
  });
}
