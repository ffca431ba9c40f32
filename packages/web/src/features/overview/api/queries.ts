/**
 * What the overview reads: the overview dashboard, the runs of the dashboard period (for each area's
 * state and runs per day), and the facts the first-run guide ticks its steps from.
 */
import type { AuditEntry, JobRun, JobType, PortalClient } from '@compliance-portal/sdk';
import { queryOptions } from '@tanstack/react-query';
import { OFFLINE } from '../../../shared/api/offline';
import { overviewKeys } from './keys';

export const overviewQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: overviewKeys.overview(tenantId),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.dashboards.overview({ tenantId }, { signal }),
  });

/**
 * Every run of the tenant started at or after `from` (an ISO instant), newest first: the overview
 * answers no runs per day, the job monitor's list does. Its pages of 500 are read to the end.
 */
export const periodRunsQuery = (api: PortalClient, tenantId: string, from: string) =>
  queryOptions({
    queryKey: overviewKeys.periodRuns(tenantId, from),
    meta: OFFLINE,
    queryFn: async ({ signal }) => {
      const runs: JobRun[] = [];
      const pages = api.apollo.monitoring.list.pages(
        { tenantId, query: { from, pageSize: 500, sort: 'started', order: 'desc' } },
        { signal, disableToast: true },
      );
      for await (const page of pages) runs.push(...page.items);
      return runs;
    },
  });

// The guide's facts fail quietly: the areas' own screens say what went wrong.
const quiet = { disableToast: true } as const;

/** The caller's tenants: the same query (and cache) as the configuration's list. */
export const tenantsQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: overviewKeys.tenants(),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.tenants.list(undefined, { signal, ...quiet }),
  });

/** The same key as the locations list of the job forms and the configuration. */
export const tenantLocationsQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: overviewKeys.locations(tenantId),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.locations.list({ tenantId }, { signal, ...quiet }),
    enabled: !!tenantId,
  });

/** How many jobs of one type the tenant has (one row asked for, the total read). */
export const jobCountQuery = (api: PortalClient, tenantId: string, type: JobType) =>
  queryOptions({
    queryKey: overviewKeys.jobCount(tenantId, type),
    meta: OFFLINE,
    queryFn: async ({ signal }) =>
      (await api.apollo.jobs.list({ tenantId, query: { type, pageSize: 1 } }, { signal, ...quiet })).total,
    enabled: !!tenantId,
  });

/** The connection test's audit action: the server keeps no other record of a test's outcome. */
const CONNECTION_TEST_ACTION = 'tenant.connectionTest';

/**
 * The organisation's newest connection tests, newest first (the audit log filters by action, not by
 * tenant: 50 reach back past the other tenants' tests in practice). Read afresh on every visit: a test
 * run in the configuration a moment ago must tick its step.
 */
export const connectionTestsQuery = (api: PortalClient, organisationId: string, enabled: boolean) =>
  queryOptions({
    queryKey: overviewKeys.audit(organisationId, CONNECTION_TEST_ACTION),
    queryFn: async ({ signal }): Promise<AuditEntry[]> =>
      (
        await api.apollo.audit.list(
          { query: { organisationId, action: CONNECTION_TEST_ACTION, pageSize: 50 } },
          { signal, ...quiet },
        )
      ).items,
    enabled: enabled && !!organisationId,
    staleTime: 0,
  });
