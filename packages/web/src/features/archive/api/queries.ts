import { DASHBOARD_TOP, type PortalClient, type Retention } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { listQuery } from '../../../components/ui/list-state';
import { OFFLINE } from '../../../shared/api/offline';
import { archiveKeys } from './keys';

/** The archive's figures over 30 days: kept for offline reading, like every dashboard. */
export const archiveStatisticsQuery = (api: PortalClient, workerIp: string) =>
  queryOptions({
    queryKey: archiveKeys.archiveStatistics(workerIp),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.legacy.email.statistics({ query: { ip: workerIp } }, { signal }),
    enabled: !!workerIp,
  });

/** The largest mailboxes the dashboard shows. */
export const mailboxesTopQuery = (api: PortalClient, workerIp: string) =>
  queryOptions({
    queryKey: archiveKeys.mailboxesTop(workerIp),
    meta: OFFLINE,
    queryFn: ({ signal }) =>
      api.legacy.mailboxes.top({ query: { workerIp, limit: DASHBOARD_TOP.mailboxes } }, { signal }),
    enabled: !!workerIp,
  });

export const teamsStatisticsQuery = (api: PortalClient, workerIp: string) =>
  queryOptions({
    queryKey: archiveKeys.teamsStatistics(workerIp),
    meta: OFFLINE,
    // A failure is said on the dashboard, with its cause, not in the generic toast.
    queryFn: ({ signal }) => api.legacy.teams.statistics({ query: { workerIp } }, { signal, disableToast: true }),
    enabled: !!workerIp,
  });

/** One page of the archived mailboxes, read through the worker and its index. */
export const mailboxesQuery = (
  api: PortalClient,
  workerIp: string,
  indexIp: string,
  query: ReturnType<typeof listQuery>,
) =>
  queryOptions({
    queryKey: archiveKeys.mailboxList(workerIp, query),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.legacy.mailboxes.list({ workerIp, indexIp, query }, { signal }),
    placeholderData: keepPreviousData,
    enabled: !!workerIp,
  });

/** A mailbox's folders and range of dates; read live only. */
export const mailboxMetaQuery = (api: PortalClient, workerIp: string, mailboxId: string) =>
  queryOptions({
    queryKey: archiveKeys.mailboxMeta(workerIp, mailboxId),
    // Said in the drawer: a missing archive job (404) in the catalogue's own words, not "no tenant".
    queryFn: ({ signal }) =>
      api.legacy.mailboxes.meta({ query: { workerIp, mailboxId } }, { signal, disableToast: true }),
  });

export const proxyAccountsQuery = (api: PortalClient, workerIp: string) =>
  queryOptions({
    queryKey: archiveKeys.proxyAccounts(workerIp),
    // A failure is said on the page, with its cause, not in the generic toast.
    queryFn: ({ signal }) => api.legacy.proxyRights.accounts({ query: { workerIp } }, { signal, disableToast: true }),
  });

/** Who holds a proxy right on a mailbox; nothing is asked before a mailbox is chosen. */
export const proxyRightsQuery = (api: PortalClient, workerIp: string, mailboxId: string) =>
  queryOptions({
    queryKey: archiveKeys.proxyRightsOf(workerIp, mailboxId),
    queryFn: ({ signal }) => api.legacy.proxyRights.list({ query: { workerIp, mailboxId } }, { signal }),
    enabled: !!mailboxId,
  });

/** What an archive deletion job would remove now; asked once mailboxes are chosen. */
export const deletionPreviewQuery = (
  api: PortalClient,
  tenantId: string,
  request: { sources: string[]; retention: Retention },
) =>
  queryOptions({
    queryKey: archiveKeys.deletionPreview(tenantId, request),
    queryFn: ({ signal }) =>
      api.apollo.jobs.deletionPreview(
        { tenantId, body: { application: 'exchange', sources: request.sources, retention: request.retention } },
        { signal },
      ),
    enabled: request.sources.length > 0,
  });
