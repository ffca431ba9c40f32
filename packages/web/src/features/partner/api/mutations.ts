import type { PartnerClientCreate, PortalClient } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { partnerKeys } from './keys';

/** Adds a client organisation; the client list and the fleet (under it) are read again. */
export function useAddClient(api: PortalClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PartnerClientCreate) => api.legacy.workers.addPartnerClient({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: partnerKeys.clients() }),
  });
}
