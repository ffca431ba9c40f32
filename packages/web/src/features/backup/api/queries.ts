import type { Application, DashboardApplication, Job, PortalClient } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ListState, listQuery } from '../../../components/ui/list-state';
import { OFFLINE } from '../../../shared/api/offline';
import { backupKeys } from './keys';

export type DashboardView = 'basic' | 'size' | 'details';

/** One view of an application's backup dashboard (figures, stored size, protected accounts). */
export const dashboardQuery = <V extends DashboardView>(
  api: PortalClient,
  tenantId: string,
  application: DashboardApplication,
  view: V,
) =>
  queryOptions({
    queryKey: backupKeys.dashboard(tenantId, application, view),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.dashboards.application({ tenantId, application, view }, { signal }),
    enabled: !!tenantId,
  });

/** Every backup job by name, for the restore's first choice. */
export const backupsQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: backupKeys.backups(tenantId),
    meta: OFFLINE,
    queryFn: ({ signal }) =>
      api.apollo.jobs.list(
        { tenantId, query: { type: 'backup', pageSize: 500, sort: 'name', order: 'asc' } },
        { signal },
      ),
    enabled: !!tenantId,
  });

/** A backup's finished runs, newest first: the snapshots a restore can go back to. */
export const snapshotsQuery = (api: PortalClient, tenantId: string, jobId: string) =>
  queryOptions({
    queryKey: backupKeys.snapshots(tenantId, jobId),
    meta: OFFLINE,
    queryFn: ({ signal }) =>
      api.apollo.monitoring.list(
        { tenantId, query: { jobId, status: 'finished', sort: 'finished', order: 'desc', pageSize: 100 } },
        { signal },
      ),
    enabled: !!jobId,
  });

/** How many restores of the application there are (a trial may make a few); asked for on a trial only. */
export const restoresUsedQuery = (
  api: PortalClient,
  tenantId: string,
  application: Application | undefined,
  enabled: boolean,
) =>
  queryOptions({
    queryKey: backupKeys.restores(tenantId, application),
    meta: OFFLINE,
    queryFn: ({ signal }) =>
      api.apollo.jobs.list(
        { tenantId, query: { type: 'restore', application: application ?? 'onedrive', pageSize: 1 } },
        { signal },
      ),
    enabled,
  });

/** A restore job while it runs: asked about every two seconds until it has finished or failed. */
export const restoreProgressQuery = (api: PortalClient, tenantId: string, restore: Job | null) =>
  queryOptions({
    queryKey: backupKeys.job(tenantId, restore?.jobId),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.jobs.get({ tenantId, jobId: restore?.jobId ?? '' }, { signal }),
    enabled: !!restore,
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === 'finished' || q.state.data.status === 'failed') ? false : 2000,
  });

/** One page of a folder of a snapshot, searched on the server (read live only). */
export const snapshotFolderQuery = (
  api: PortalClient,
  tenantId: string,
  job: Job,
  sourceId: string,
  snapshot: string,
  nodeId: string,
  state: ListState,
) =>
  queryOptions({
    queryKey: backupKeys.snapshotFolder(tenantId, job.jobId, sourceId, snapshot, nodeId, listQuery(state)),
    queryFn: ({ signal }) =>
      api.apollo.discovery.items(
        {
          tenantId,
          locationId: job.locationId ?? '',
          sourceId,
          nodeId,
          query: {
            snapshot,
            page: state.page,
            pageSize: state.pageSize,
            ...(state.search ? { search: state.search } : {}),
          },
        },
        // Said in the table, in the catalogue's words, not in the generic toast.
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
  });
