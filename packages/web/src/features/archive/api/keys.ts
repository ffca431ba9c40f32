import { scopeKeys, sharedKeys } from '../../../shared/api/keys';

/**
 * The keys of the email and Teams archive: what is read from the organisation's archive worker
 * (figures, mailboxes, proxy rights) sits under the worker; the deletion preview under the tenant.
 * What counts the items legal holds keep (mailboxes, Teams figures and tree, deletion previews) uses
 * the shared keys, which eDiscovery's holds read again.
 */
export const archiveKeys = {
  /** Everything of a tenant: its jobs, runs and reports change when an archive job is saved. */
  tenant: (tenantId: string) => scopeKeys.tenant(tenantId),
  /** What a deletion job would remove now, for its mailboxes and retention. */
  deletionPreview: (tenantId: string, request: object) => sharedKeys.deletionPreview(tenantId, request),
  archiveStatistics: (workerIp: string) => [...scopeKeys.worker(workerIp), 'archive-statistics'] as const,
  teamsStatistics: (workerIp: string) => sharedKeys.teamsStatistics(workerIp),
  /** The largest mailboxes, for the dashboard. */
  mailboxesTop: (workerIp: string) => sharedKeys.mailboxesTop(workerIp),
  mailboxList: (workerIp: string, query: object) => sharedKeys.mailboxList(workerIp, query),
  /** A mailbox's folders and the dates of its oldest and newest archived mail. */
  mailboxMeta: (workerIp: string, mailboxId: string) =>
    [...scopeKeys.worker(workerIp), 'mailbox-meta', mailboxId] as const,
  /** The accounts, people and groups that may hold a proxy right. */
  proxyAccounts: (workerIp: string) => [...scopeKeys.worker(workerIp), 'proxy-accounts'] as const,
  proxyRights: (workerIp: string) => [...scopeKeys.worker(workerIp), 'proxy-rights'] as const,
  proxyRightsOf: (workerIp: string, mailboxId: string) => [...archiveKeys.proxyRights(workerIp), mailboxId] as const,
  /** A mailbox's archived mail as one page of a browse shows it. */
  mailItems: (tenantId: string, request: object) => [...scopeKeys.tenant(tenantId), 'mail-items', request] as const,
  /** A mailbox's archived calendar events, contacts or tasks as one page of a browse shows them. */
  mailboxItems: (tenantId: string, request: object) =>
    [...scopeKeys.tenant(tenantId), 'mailbox-items', request] as const,
  /** One archived event, contact or task, at one of its versions. */
  mailboxItem: (tenantId: string, request: object) => [...scopeKeys.tenant(tenantId), 'mailbox-item', request] as const,
  /** One archived mail or Teams message, read in full. */
  item: (tenantId: string, itemId: string) => [...scopeKeys.tenant(tenantId), 'archived-item', itemId] as const,
  /** The archived teams, channels and readable chats. */
  teamsTree: (tenantId: string) => sharedKeys.teamsArchive(tenantId),
  /** One page of a channel's or chat's threads (apart from the tree: a hold does not change them). */
  teamsThreads: (tenantId: string, query: object) =>
    [...scopeKeys.tenant(tenantId), 'teams-archive-threads', query] as const,
};
