import type { JobType } from '@compliance-portal/sdk';
import { sharedKeys } from '../../../shared/api/keys';

/**
 * The keys of what the overview reads. The overview and its runs sit under the tenant's dashboards;
 * the first-run guide's facts share the keys of the lists they come from (tenants, locations, jobs),
 * so that the guide and those screens read one cache.
 */
export const overviewKeys = {
  overview: (tenantId: string) => [...sharedKeys.dashboards(tenantId), 'overview'] as const,
  periodRuns: (tenantId: string, from: string) => [...overviewKeys.overview(tenantId), 'runs', from] as const,
  tenants: () => sharedKeys.tenants(),
  locations: (tenantId: string) => sharedKeys.locations(tenantId),
  jobCount: (tenantId: string, type: JobType) => sharedKeys.jobList(tenantId, { type, pageSize: 1 }),
  /**
   * The organisation's audit entries of one action: under its audit log, which every audited change
   * reads again (a connection test run in the configuration ticks the guide's step).
   */
  audit: (organisationId: string, action: string) =>
    [...sharedKeys.auditLog(organisationId), 'action', action] as const,
};
