/**
 * Changes of the configuration that other screens read, each with the invalidation of what it touches:
 * the tenants (connecting or editing one, switching, testing, provisioning and removing it), a
 * tenant's storage locations (saving, testing and removing one), the synchronisation of its accounts,
 * and the organisation's portal users (inviting one, changing the role, the eDiscovery manager role,
 * deactivating, reactivating, deleting and inviting again; each reads the users list again). Every
 * one of them is audited, so each reads the organisation's audit log again.
 */
import type {
  ConnectionTestResult,
  LocationInput,
  PortalClient,
  PortalUser,
  ProvisioningTask,
  StorageLocation,
  Tenant,
  TenantCreate,
} from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useOrganisationChanged } from '../../../session/context';
import { sharedKeys } from '../../../shared/api/keys';
import { useOrganisationRefresh } from '../../../shared/api/organisation';
import { useApi } from '../../../shared/tenant';
import { configurationKeys } from './keys';

/** Refusals are said in the dialog or the row that asked, in the catalogue's words: no toast. */
const quiet = { disableToast: true } as const;

/**
 * Tests a location's object store again; the server records the outcome (a failed test is an answer,
 * not a refusal), so the location lists read it again.
 */
export function useTestLocationStore(tenantId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (location: StorageLocation) =>
      api.apollo.locations.probe({ tenantId, locationId: location.locationId }, quiet),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.locations(tenantId) }),
    onSettled: organisation.auditLog,
  });
}

/**
 * Saves a location (a new one, or `location` changed); the server tests an object store before it
 * saves. Every list of the tenant's locations reads it again.
 */
export function useSaveLocation(
  tenantId: string,
  location: StorageLocation | undefined,
  onSaved: (saved: StorageLocation) => void,
) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (body: LocationInput) =>
      location
        ? api.apollo.locations.update({ tenantId, locationId: location.locationId, body }, quiet)
        : api.apollo.locations.create({ tenantId, body }, quiet),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: configurationKeys.locations(tenantId) });
      onSaved(saved);
    },
    onSettled: organisation.auditLog,
  });
}

/** Removes a location (refused while a job uses it); the lists of the tenant's locations read it again. */
export function useRemoveLocation(tenantId: string, onRemoved: (location: StorageLocation) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (location: StorageLocation) =>
      api.apollo.locations.delete({ tenantId, locationId: location.locationId }, quiet),
    onSuccess: (_answer, location) => {
      onRemoved(location);
      void queryClient.invalidateQueries({ queryKey: configurationKeys.locations(tenantId) });
    },
    onSettled: organisation.auditLog,
  });
}

/**
 * Reads the tenant's Microsoft 365 accounts into discovery again: what names or counts them (the job
 * forms' pickers, the dashboards, coverage, the proxy rights' accounts) is read again.
 */
export function useSyncUsers(tenantId: string, workerIp: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: () => api.apollo.configuration.syncUsers({ body: { tenantId } }, quiet),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: configurationKeys.tenant(tenantId) }),
        workerIp ? queryClient.invalidateQueries({ queryKey: configurationKeys.worker(workerIp) }) : undefined,
      ]),
    onSettled: organisation.auditLog,
  });
}

/**
 * Connects a tenant (`tenant` undefined) or saves a connected one's changes. A tenant connected (the
 * first, or one while none is active) becomes the worker's: the session reads its worker again.
 */
export function useSaveTenant(tenant: Tenant | undefined, onSaved: (saved: Tenant) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisationChanged = useOrganisationChanged();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (values: TenantCreate) =>
      tenant
        ? api.apollo.tenants.update(
            {
              tenantId: tenant.tenantId,
              body: {
                tenantName: values.tenantName,
                applicationId: values.applicationId,
                objectId: values.objectId,
                redirectUri: values.redirectUri,
                ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
              },
            },
            quiet,
          )
        : api.apollo.tenants.create({ body: values }, quiet),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: configurationKeys.tenants() });
      organisationChanged();
      onSaved(saved);
    },
    onSettled: organisation.auditLog,
  });
}

/** What a tenant's row can do. */
type TenantActionKind = 'switch' | 'provision' | 'deprovision' | 'remove' | 'test';

/** What a tenant's action answered: a test's result, a provisioning's task. */
type TenantActionOutcome =
  | { tenant: Tenant; kind: 'switch' | 'remove' }
  | { tenant: Tenant; kind: 'test'; result: ConnectionTestResult }
  | { tenant: Tenant; kind: 'provision' | 'deprovision'; task: ProvisioningTask };

/**
 * A tenant's row action: make it the active one, test its connection, provision or deprovision it,
 * or remove it. Each reads the tenants again. The worker acts for the organisation's active tenant:
 * switching or removing one may change it, and testing it may read its domain anew, which the header
 * shows, so the session reads its worker again. A removal deletes the tenant's jobs, which the
 * licence counts.
 */
export function useTenantAction(onDone: (outcome: TenantActionOutcome) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  const organisationChanged = useOrganisationChanged();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: async ({ tenant, kind }: { tenant: Tenant; kind: TenantActionKind }): Promise<TenantActionOutcome> => {
      const tenantId = tenant.tenantId;
      switch (kind) {
        case 'switch':
          await api.apollo.configuration.switchTenant({ body: { tenantId } }, quiet);
          return { tenant, kind };
        case 'remove':
          await api.apollo.tenants.delete({ tenantId }, quiet);
          return { tenant, kind };
        case 'test':
          return {
            tenant,
            kind,
            result: await api.apollo.configuration.testOnedriveConnection({ body: { tenantId } }, quiet),
          };
        default:
          return {
            tenant,
            kind,
            task:
              kind === 'provision'
                ? await api.apollo.tenants.provision({ tenantId }, quiet)
                : await api.apollo.tenants.deprovision({ tenantId }, quiet),
          };
      }
    },
    onSuccess: (outcome) => {
      onDone(outcome);
      const { tenant, kind } = outcome;
      if (kind === 'switch' || kind === 'remove' || (kind === 'test' && tenant.isActive)) organisationChanged();
      if (kind === 'remove') void organisation.licence();
      void queryClient.invalidateQueries({ queryKey: configurationKeys.tenants() });
    },
    onSettled: organisation.auditLog,
  });
}

/** A provisioning task ended: its tenant's state changed, so the tenants are read again. */
export function useProvisioningEnded() {
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return () => {
    void queryClient.invalidateQueries({ queryKey: configurationKeys.tenants() });
    void organisation.auditLog();
  };
}

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
