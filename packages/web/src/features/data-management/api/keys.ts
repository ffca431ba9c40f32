import type { CleanupRule, DataManagementApplication } from '@compliance-portal/sdk';
import { scopeKeys, sharedKeys } from '../../../shared/api/keys';

/**
 * The keys of what data management reads. The dashboard sits under the tenant's dashboards (kept for
 * offline reading); browsing and versions sit under the tenant's 'data-management' part (read live).
 */
export const dataManagementKeys = {
  /** Everything of the tenant: a clean-up job or a new price changes its jobs, runs and dashboards. */
  tenant: (tenantId: string) => scopeKeys.tenant(tenantId),
  dashboard: (tenantId: string) => [...sharedKeys.dashboards(tenantId), 'data-management'] as const,
  /** A page of the sites or OneDrives discovery found, as the file manager lists them. */
  sources: (tenantId: string, locationId: string, application: DataManagementApplication, query: object) =>
    sharedKeys.discoveryPage(tenantId, locationId, application, query),
  all: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'data-management'] as const,
  browse: (
    tenantId: string,
    application: DataManagementApplication,
    sourceId: string,
    nodeId: string,
    rule: CleanupRule | null,
    page: number,
    pageSize: number,
  ) => [...dataManagementKeys.all(tenantId), 'browse', application, sourceId, nodeId, rule, page, pageSize] as const,
  versions: (
    tenantId: string,
    application: DataManagementApplication,
    sourceId: string,
    nodeId: string,
    rule: CleanupRule,
  ) => [...dataManagementKeys.all(tenantId), 'versions', application, sourceId, nodeId, rule] as const,
};
