import type {
  ArchivedMailBrowse,
  ArchivedMailboxItemsBrowse,
  MailboxItemKind,
  PortalClient,
} from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { archiveKeys } from './keys';

/**
 * One page of a mailbox's archived mail; read live only (mail is read under a proxy right, never
 * kept offline). A refusal is said on the page, in words, not in a toast.
 */
export const mailItemsQuery = (api: PortalClient, tenantId: string, request: ArchivedMailBrowse) =>
  queryOptions({
    queryKey: archiveKeys.mailItems(tenantId, request),
    queryFn: ({ signal }) => api.apollo.archive.browseMail({ tenantId, body: request }, { signal, disableToast: true }),
    placeholderData: keepPreviousData,
    enabled: !!tenantId && !!request.mailboxId,
  });

/** One page of a mailbox's archived mail for an export (not cached: the export reads every page once). */
export const fetchMailPage = (api: PortalClient, tenantId: string, request: ArchivedMailBrowse) =>
  api.apollo.archive.browseMail({ tenantId, body: request });

/**
 * One page of a mailbox's archived calendar events, contacts or tasks; read live only, as mail is (read
 * under a proxy right, never kept offline). A refusal is said on the page, in words.
 */
export const mailboxItemsQuery = (api: PortalClient, tenantId: string, request: ArchivedMailboxItemsBrowse) =>
  queryOptions({
    queryKey: archiveKeys.mailboxItems(tenantId, request),
    queryFn: ({ signal }) =>
      api.apollo.archive.browseMailboxItems({ tenantId, body: request }, { signal, disableToast: true }),
    placeholderData: keepPreviousData,
    enabled: !!tenantId && !!request.mailboxId,
  });

/** One page of a mailbox's archived events, contacts or tasks for an export (not cached). */
export const fetchMailboxItemsPage = (api: PortalClient, tenantId: string, request: ArchivedMailboxItemsBrowse) =>
  api.apollo.archive.browseMailboxItems({ tenantId, body: request });

/** One archived event, contact or task with its versions, at `version` (the latest without). */
export const mailboxItemQuery = (
  api: PortalClient,
  tenantId: string,
  request: { mailboxId: string; kind: MailboxItemKind; itemId: string; version?: number },
) =>
  queryOptions({
    queryKey: archiveKeys.mailboxItem(tenantId, request),
    queryFn: ({ signal }) =>
      api.apollo.archive.mailboxItem({ tenantId, body: request }, { signal, disableToast: true }),
    placeholderData: keepPreviousData,
  });

/** An archived mail or Teams message with its headers and attachments; a refusal is said in the viewer. */
export const archivedItemQuery = (api: PortalClient, tenantId: string, itemId: string) =>
  queryOptions({
    queryKey: archiveKeys.item(tenantId, itemId),
    queryFn: ({ signal }) => api.apollo.archive.item({ tenantId, itemId }, { signal, disableToast: true }),
  });

/** The archived teams with their channels, and the chats the signed-in user may read. */
export const teamsTreeQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: archiveKeys.teamsTree(tenantId),
    queryFn: ({ signal }) => api.apollo.archive.teams({ tenantId }, { signal, disableToast: true }),
    enabled: !!tenantId,
  });

export interface ThreadsQuery {
  source: string;
  channel?: string;
  page: number;
  pageSize: number;
}

/** One page of a channel's or chat's threads; nothing is asked before one is chosen. */
export const teamsThreadsQuery = (api: PortalClient, tenantId: string, query: ThreadsQuery) =>
  queryOptions({
    queryKey: archiveKeys.teamsThreads(tenantId, query),
    queryFn: ({ signal }) =>
      api.apollo.archive.teamsThreads(
        {
          tenantId,
          query: {
            source: query.source,
            ...(query.channel ? { channel: query.channel } : {}),
            page: query.page,
            pageSize: query.pageSize,
          },
        },
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
    enabled: !!tenantId && !!query.source,
  });
