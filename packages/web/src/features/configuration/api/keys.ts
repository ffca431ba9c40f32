import { scopeKeys, sharedKeys } from '../../../shared/api/keys';

/**
 * Query keys of the configuration: the caller's tenants, a tenant's storage locations, the
 * organisation's licence and portal users, the provisioning tasks the page follows and what a tenant's
 * removal would take with it.
 */
export const configurationKeys = {
  /**
   * Everything read for a tenant, and from its worker: what names or counts the tenant's accounts
   * (discovery, the dashboards, coverage, proxy rights' accounts), which a user synchronisation changes.
   */
  tenant: (tenantId: string) => scopeKeys.tenant(tenantId),
  worker: (workerIp: string) => scopeKeys.worker(workerIp),
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
  /** What removing a tenant takes with it, counted when the confirmation opens. */
  removalPreview: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'removal-preview'] as const,
  /** What an app registration needs for admin consent (redirect URI, permissions): the same for every tenant. */
  consentSetup: () => [...scopeKeys.tenants(), 'consent-setup'] as const,
};
