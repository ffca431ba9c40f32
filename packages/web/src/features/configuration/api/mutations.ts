/**
 * Changes of the configuration that other screens read, each with the invalidation of what it touches:
 * testing a location's store again, and the organisation's portal users (inviting one, changing the
 * role, the eDiscovery manager role, deactivating, reactivating, deleting and inviting again; each
 * reads the users list again, and the organisation's audit log, which records every one of them).
 */
import type { PortalClient, PortalUser, StorageLocation } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sharedKeys } from '../../../shared/api/keys';
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

/** Refusals are said in the dialog or the row that asked, in the catalogue's words: no toast. */
const quiet = { disableToast: true } as const;

function useUserChange<V, R>(organisationId: string, change: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: configurationKeys.users(organisationId) }),
        queryClient.invalidateQueries({ queryKey: sharedKeys.auditLog(organisationId) }),
      ]);
    },
  });
}

/** Creates an administrator of the organisation and mails the invitation. */
export function useInviteUser(api: PortalClient, organisationId: string) {
  return useUserChange(organisationId, (input: { email: string; displayName: string }) =>
    api.legacy.user.create({ body: { ...input, role: 'admin', organisationId } }, quiet),
  );
}

/** Gives (`manager`) or takes the eDiscovery manager role. */
export function useChangeRole(api: PortalClient, organisationId: string) {
  return useUserChange(organisationId, ({ user, manager }: { user: PortalUser; manager: boolean }) =>
    manager
      ? api.legacy.user.grantEdiscoveryManager({ userId: user.userId }, quiet)
      : api.legacy.user.revokeEdiscoveryManager({ userId: user.userId }, quiet),
  );
}

/** Deactivates (`active: false`) or reactivates a user. */
export function useSetActive(api: PortalClient, organisationId: string) {
  return useUserChange(organisationId, ({ user, active }: { user: PortalUser; active: boolean }) =>
    active
      ? api.legacy.user.reactivate({ userId: user.userId }, quiet)
      : api.legacy.user.deactivate({ userId: user.userId }, quiet),
  );
}

export function useDeleteUser(api: PortalClient, organisationId: string) {
  return useUserChange(organisationId, (user: PortalUser) => api.legacy.user.remove({ userId: user.userId }, quiet));
}

/** Mails an invited user a new link; the earlier one stops working. */
export function useResendInvitation(api: PortalClient, organisationId: string) {
  return useUserChange(organisationId, (user: PortalUser) =>
    api.legacy.user.resendInvitation({ userId: user.userId, body: {} }, quiet),
  );
}
