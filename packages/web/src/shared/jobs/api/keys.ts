import type { Application, JobType } from '@compliance-portal/sdk';
import { scopeKeys, sharedKeys } from '../../api/keys';

/**
 * The keys of the shared job pages (jobs list, monitor, reports and what they open), built on the
 * shared roots: a tenant's jobs under `jobs`, its runs under `monitoring`, its reports under
 * `reporting`, so that one invalidation of a prefix reaches every list and detail beneath it.
 */
export const jobKeys = {
  /** Everything read for the tenant: what a job's start, stop, removal or save may change. */
  tenant: (tenantId: string) => scopeKeys.tenant(tenantId),
  jobs: (tenantId: string) => sharedKeys.jobs(tenantId),
  jobList: (tenantId: string, query: object) => sharedKeys.jobList(tenantId, query),
  /** Which applications already have a job of a type (a trial's backups: one each). */
  usedApplications: (tenantId: string, type: JobType) => [...sharedKeys.jobs(tenantId), type, 'applications'] as const,
  runList: (tenantId: string, query: object) => sharedKeys.runList(tenantId, query),
  runAccounts: (tenantId: string, reportId: string, query: object) =>
    [...sharedKeys.runs(tenantId), reportId, 'accounts', query] as const,
  reportList: (tenantId: string, query: object) => sharedKeys.reportList(tenantId, query),
  reportAccounts: (tenantId: string, reportId: string, query: object) =>
    [...sharedKeys.report(tenantId, reportId), 'accounts', query] as const,
  cleanupAccounts: (tenantId: string, reportId: string, query: object) =>
    [...sharedKeys.report(tenantId, reportId), 'data-management-accounts', query] as const,
  /** The items an archive deletion's report kept on legal hold. */
  heldItems: (tenantId: string, reportId: string, query: object) =>
    [...sharedKeys.report(tenantId, reportId), 'held-items', query] as const,
  /** One page of the sources discovery found (the source picker of a job form). */
  sourcePage: (tenantId: string, locationId: string, application: Application, query: object) =>
    sharedKeys.discoveryPage(tenantId, locationId, application, query),
};
