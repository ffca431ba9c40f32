import { scopeKeys } from '../../../shared/api/keys';

/**
 * The keys of the email and Teams archive: what is read from the organisation's archive worker
 * (figures, mailboxes, proxy rights) sits under the worker; the deletion preview under the tenant.
 */
export const archiveKeys = {
  /** Everything of a tenant: its jobs, runs and reports change when an archive job is saved. */
  tenant: (tenantId: string) => scopeKeys.tenant(tenantId),
  /** What a deletion job would remove now, for its mailboxes and retention. */
  deletionPreview: (tenantId: string, request: object) =>
    [...scopeKeys.tenant(tenantId), 'deletion-preview', request] as const,
  archiveStatistics: (workerIp: string) => [...scopeKeys.worker(workerIp), 'archive-statistics'] as const,
  teamsStatistics: (workerIp: string) => [...scopeKeys.worker(workerIp), 'teams-statistics'] as const,
  /** The largest mailboxes, for the dashboard. */
  mailboxesTop: (workerIp: string) => [...scopeKeys.worker(workerIp), 'mailboxes-top'] as const,
  mailboxes: (workerIp: string) => [...scopeKeys.worker(workerIp), 'mailboxes'] as const,
  mailboxList: (workerIp: string, query: object) => [...archiveKeys.mailboxes(workerIp), query] as const,
  /** A mailbox's folders and the dates of its oldest and newest archived mail. */
  mailboxMeta: (workerIp: string, mailboxId: string) =>
    [...scopeKeys.worker(workerIp), 'mailbox-meta', mailboxId] as const,
  /** The accounts, people and groups that may hold a proxy right. */
  proxyAccounts: (workerIp: string) => [...scopeKeys.worker(workerIp), 'proxy-accounts'] as const,
  proxyRights: (workerIp: string) => [...scopeKeys.worker(workerIp), 'proxy-rights'] as const,
  proxyRightsOf: (workerIp: string, mailboxId: string) => [...archiveKeys.proxyRights(workerIp), mailboxId] as const,
  /** A mailbox's archived mail as one page of a browse shows it. */
  mailItems: (tenantId: string, request: object) => [...scopeKeys.tenant(tenantId), 'mail-items', request] as const,
  /** One archived mail or Teams message, read in full. */
  item: (tenantId: string, itemId: string) => [...scopeKeys.tenant(tenantId), 'archived-item', itemId] as const,
  /** The archived teams, channels and readable chats. */
  teamsTree: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'teams-archive'] as const,
  /** One page of a channel's or chat's threads. */
  teamsThreads: (tenantId: string, query: object) => [...archiveKeys.teamsTree(tenantId), 'threads', query] as const,
};
