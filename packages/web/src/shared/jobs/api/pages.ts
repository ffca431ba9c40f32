import type { DiscoveryQuery, JobListQuery, PortalClient, ReportAccountsQuery } from '@compliance-portal/sdk';

/*
 * One page read once, outside the cache: an export reads every page of a list, the source picker's
 * "select all matching" every page of its search.
 */

/** One page of a tenant's jobs, for an export. */
export const fetchJobsPage = (api: PortalClient, tenantId: string, query: JobListQuery) =>
  api.apollo.jobs.list({ tenantId, query });

/** One page of a report's accounts, for an export. */
export const fetchReportAccountsPage = (
  api: PortalClient,
  tenantId: string,
  reportId: string,
  query: ReportAccountsQuery,
) => api.apollo.reporting.accounts({ tenantId, reportId, query });

/** One page of a clean-up report's sites and OneDrives, for an export. */
export const fetchCleanupAccountsPage = (
  api: PortalClient,
  tenantId: string,
  reportId: string,
  query: ReportAccountsQuery,
) => api.apollo.reporting.dataManagementAccounts({ tenantId, reportId, query });

/** One page of the sources discovery found, for the picker's "select all matching". */
export const fetchSourcesPage = (api: PortalClient, tenantId: string, locationId: string, query: DiscoveryQuery) =>
  api.apollo.discovery.users({ tenantId, locationId, query });
