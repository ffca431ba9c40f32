import { scopeKeys, sharedKeys } from '../../../shared/api/keys';

/**
 * Query keys of the configuration: the caller's tenants, a tenant's storage locations, the
 * organisation's licence and portal users, and the provisioning tasks the page follows.
 */
export const configurationKeys = {
  /** The caller's tenants: one list for the whole portal (the overview's guide reads it too). */
  tenants: () => sharedKeys.tenants(),
  locations: (tenantId: string) => sharedKeys.locations(tenantId),
  licence: (organisationId: string) => sharedKeys.licence(organisationId),
  /** The organisation's portal users, every page of the list. */
  users: (organisationId: string) => [...scopeKeys.organisation(organisationId), 'users'] as const,
  usersPage: (organisationId: string, query: object) => [...configurationKeys.users(organisationId), query] as const,
  /**
   * One provisioning task, followed until it ends. Not under the tenants' key: the tenant list read
   * again at the task's end must not fetch the task again.
   */
  provisioningTask: (tenantId: string, taskId: string) => ['provisioning-task', tenantId, taskId] as const,
  /** What an app registration needs for admin consent (redirect URI, permissions): the same for every tenant. */
  consentSetup: () => [...scopeKeys.tenants(), 'consent-setup'] as const,
};
