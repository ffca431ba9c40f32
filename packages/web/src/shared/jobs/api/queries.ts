import type {
  Application,
  JobListQuery,
  JobRun,
  JobStatus,
  JobType,
  MonitoringQuery,
  PortalClient,
  ReportQuery,
} from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ListState, listQuery } from '../../../components/ui/list-state';
import { OFFLINE } from '../../api/offline';
import { jobKeys } from './keys';

/** While a run or a job is queued or running its list is asked for again this often; not otherwise. */
const MONITOR_POLL_MS = 3000;

/** A page of a tenant's jobs of one type; live progress while one of them runs, no polling otherwise. */
export const jobListQuery = (api: PortalClient, tenantId: string, query: JobListQuery) =>
  queryOptions({
    queryKey: jobKeys.jobList(tenantId, query),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.jobs.list({ tenantId, query }, { signal }),
    enabled: !!tenantId,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((j) => j.status === 'running') ? MONITOR_POLL_MS : false),
  });

/** Which applications already have a job of this type (a trial's backups: one each). */
export const usedApplicationsQuery = (api: PortalClient, tenantId: string, type: JobType) =>
  queryOptions({
    queryKey: jobKeys.usedApplications(tenantId, type),
    meta: OFFLINE,
    queryFn: async ({ signal }) => {
      const all = await api.apollo.jobs.list({ tenantId, query: { type, pageSize: 500 } }, { signal });
      return new Set<string>(all.items.map((j) => j.application));
    },
    enabled: !!tenantId,
  });

/** A run that is queued or running: the monitor polls while one is listed. */
export const isRunActive = (run: Pick<JobRun, 'status'>) => run.status === 'running' || run.status === 'pending';

/** A page of the monitor's runs; polled while one of them is queued or running. */
export const runListQuery = (api: PortalClient, tenantId: string, query: MonitoringQuery) =>
  queryOptions({
    queryKey: jobKeys.runList(tenantId, query),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.monitoring.list({ tenantId, query }, { signal }),
    enabled: !!tenantId,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(isRunActive) ? MONITOR_POLL_MS : false),
  });

/**
 * The accounts of one run, as the monitor shows them (`monitoring`, polled while the run goes on:
 * `poll`) or as its report does (`reporting`).
 */
export const runAccountsQuery = (
  api: PortalClient,
  tenantId: string,
  from: 'monitoring' | 'reporting',
  reportId: string,
  state: ListState,
  poll = false,
  /** Only the accounts of this status (the failed ones). */
  status?: JobStatus,
) =>
  queryOptions({
    queryKey:
      from === 'monitoring'
        ? jobKeys.runAccounts(tenantId, reportId, { ...listQuery(state), ...(status ? { status } : {}) })
        : jobKeys.reportAccounts(tenantId, reportId, { ...listQuery(state), ...(status ? { status } : {}) }),
    meta: OFFLINE,
    queryFn: ({ signal }) => {
      const query = { ...state, ...listQuery(state), ...(status ? { status } : {}) };
      return from === 'monitoring'
        ? api.apollo.monitoring.accounts({ tenantId, reportId, query }, { signal })
        : api.apollo.reporting.accounts({ tenantId, reportId, query }, { signal });
    },
    placeholderData: keepPreviousData,
    refetchInterval: poll ? MONITOR_POLL_MS : false,
  });

/**
 * A page of reports. `enabled` false (a date range that ends before it starts) asks for nothing and
 * keeps the last list.
 */
export const reportListQuery = (api: PortalClient, tenantId: string, query: ReportQuery, enabled = true) =>
  queryOptions({
    queryKey: jobKeys.reportList(tenantId, query),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.reporting.list({ tenantId, query }, { signal }),
    enabled: !!tenantId && enabled,
    placeholderData: keepPreviousData,
  });

/** The sites and OneDrives of a clean-up report, with the versions removed and the space freed. */
export const cleanupAccountsQuery = (api: PortalClient, tenantId: string, reportId: string, state: ListState) =>
  queryOptions({
    queryKey: jobKeys.cleanupAccounts(tenantId, reportId, listQuery(state)),
    meta: OFFLINE,
    queryFn: ({ signal }) =>
      api.apollo.reporting.dataManagementAccounts({ tenantId, reportId, query: listQuery(state) }, { signal }),
    placeholderData: keepPreviousData,
  });

/** One page of the accounts, sites or teams discovery found, for a job form's picker (read live only). */
export const sourcePageQuery = (
  api: PortalClient,
  tenantId: string,
  locationId: string,
  application: Application,
  state: ListState,
) =>
  queryOptions({
    queryKey: jobKeys.sourcePage(tenantId, locationId, application, listQuery(state)),
    queryFn: ({ signal }) =>
      // Said in the table, in the catalogue's words, not in the generic toast.
      api.apollo.discovery.users(
        { tenantId, locationId, query: { application, ...listQuery(state) } },
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
    enabled: !!locationId,
  });
