/**
 * What the archive's browsing pages read from the address: the request of a mailbox's page of mail
 * and the threads of a channel or chat. Apart from the pages, so that their routes' loaders (in the
 * entry) do not pull the pages and their components into the first load.
 */
import type { ArchivedMailBrowse, ArchivedMailboxItemsBrowse, MailboxItemKind } from '@compliance-portal/sdk';
import type { ListState } from '../../../components/ui/list-state';
import type { ListSearch } from '../../../shared/url-state';
import type { ThreadsQuery } from './browse-queries';

/** A mailbox's archive opens on its newest mail. */
export const MAIL_LIST = { sort: 'sentAt', order: 'desc' } as const;
const SORTS = ['subject', 'sender', 'sentAt', 'sizeBytes'] as const;
type Sort = (typeof SORTS)[number];
const ATTACHMENTS = ['with', 'without'] as const;
export type AttachmentsFilter = (typeof ATTACHMENTS)[number];

/** The filters of a mailbox's archive kept in the address beside its list parameters. */
export interface MailFilters {
  folder?: string;
  from?: string;
  to?: string;
  attachments?: string;
}

/** A day typed in a date field (YYYY-MM-DD) as the instant it starts where the reader is; `next`: the day after. */
function dayStart(day: string | undefined, next = false): string | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const at = new Date(y, m - 1, d + (next ? 1 : 0));
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The request of one page of a mailbox's archive, as the address describes it. */
export function mailBrowseRequest(mailboxId: string, state: ListState, filters: MailFilters): ArchivedMailBrowse {
  const from = dayStart(filters.from);
  const to = dayStart(filters.to, true);
  return {
    mailboxId,
    page: state.page,
    pageSize: state.pageSize,
    ...((SORTS as readonly string[]).includes(state.sort ?? '') ? { sort: state.sort as Sort } : {}),
    ...(state.order ? { order: state.order } : {}),
    ...(state.search?.trim() ? { search: state.search.trim() } : {}),
    ...(filters.folder ? { folder: filters.folder } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(filters.attachments === 'with'
      ? { attachments: true }
      : filters.attachments === 'without'
        ? { attachments: false }
        : {}),
  };
}

/** The list state of a mailbox's archive as the address describes it (the page and its loader read it). */
export function mailListState(search: ListSearch): ListState {
  const given = Object.fromEntries(
    (['page', 'pageSize', 'sort', 'order', 'search'] as const)
      .filter((k) => search[k] !== undefined)
      .map((k) => [k, search[k]]),
  );
  return { page: 1, pageSize: 25, ...MAIL_LIST, ...given };
}

/** The tabs of a mailbox's archive, in the address as `tab` (mail without one). */
export const MAILBOX_TABS = ['mail', 'calendar', 'contacts', 'tasks'] as const;
export type MailboxTab = (typeof MAILBOX_TABS)[number];
/** The kind of archived item a tab lists; none for mail. */
export const KIND_OF_TAB: Record<MailboxTab, MailboxItemKind | null> = {
  mail: null,
  calendar: 'event',
  contacts: 'contact',
  tasks: 'task',
};
/** Each item tab's first order: a calendar's latest events first, contacts and tasks by name. */
export const ITEM_LISTS = {
  event: { sort: 'start', order: 'desc' },
  contact: { sort: 'title', order: 'asc' },
  task: { sort: 'title', order: 'asc' },
} as const;
const ITEM_SORTS: Record<MailboxItemKind, readonly string[]> = {
  event: ['title', 'container', 'start', 'versions', 'archivedAt'],
  contact: ['title', 'container', 'email', 'versions', 'archivedAt'],
  task: ['title', 'container', 'status', 'due', 'versions', 'archivedAt'],
};
type ItemSort = NonNullable<ArchivedMailboxItemsBrowse['sort']>;
export const DELETED_FILTERS = ['deleted', 'kept'] as const;

/** The request of one page of a mailbox's archived events, contacts or tasks, as the address describes it. */
export function itemsBrowseRequest(
  mailboxId: string,
  kind: MailboxItemKind,
  state: ListState,
  filters: { deleted?: string },
): ArchivedMailboxItemsBrowse {
  return {
    mailboxId,
    kind,
    page: state.page,
    pageSize: state.pageSize,
    ...(ITEM_SORTS[kind].includes(state.sort ?? '') ? { sort: state.sort as ItemSort } : {}),
    ...(state.order ? { order: state.order } : {}),
    ...(state.search?.trim() ? { search: state.search.trim() } : {}),
    ...(filters.deleted === 'deleted' ? { deleted: true } : filters.deleted === 'kept' ? { deleted: false } : {}),
  };
}

/** The list state of an item tab as the address describes it (the page and its loader read it). */
export function itemListState(kind: MailboxItemKind, search: ListSearch): ListState {
  const given = Object.fromEntries(
    (['page', 'pageSize', 'sort', 'order', 'search'] as const)
      .filter((k) => search[k] !== undefined)
      .map((k) => [k, search[k]]),
  );
  return { page: 1, pageSize: 25, ...ITEM_LISTS[kind], ...given };
}

/** Threads per page. */
export const THREADS = { pageSize: 10 } as const;
/**
 * A channel or chat in the address, as one parameter (`at`): `t/<team>/<channel>` or `c/<chat>`, so
 * that choosing one changes the address once.
 */
export function placeOf(at: string | undefined): { source: string; channel?: string } | null {
  if (!at) return null;
  if (at.startsWith('c/') && at.length > 2) return { source: at.slice(2) };
  const match = /^t\/([^/]+)\/(.+)$/.exec(at);
  return match ? { source: match[1] as string, channel: match[2] as string } : null;
}

/** One page of the threads of the place in the address (the page and its loader read it). */
export function threadsQueryOf(at: string | undefined, search: ListSearch): ThreadsQuery | null {
  const place = placeOf(at);
  if (!place) return null;
  return { ...place, page: search.page ?? 1, pageSize: search.pageSize ?? THREADS.pageSize };
}
