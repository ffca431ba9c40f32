import type { PortalClient } from '@compliance-portal/sdk';
import type { QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { sharedKeys } from '../../../shared/api/keys';
import {
  archivedItemQuery,
  mailboxItemQuery,
  mailboxItemsQuery,
  mailItemsQuery,
  teamsThreadsQuery,
  teamsTreeQuery,
} from './browse-queries';
import {
  archiveStatisticsQuery,
  deletionPreviewQuery,
  mailboxesQuery,
  mailboxesTopQuery,
  mailboxMetaQuery,
  proxyAccountsQuery,
  proxyRightsQuery,
  teamsStatisticsQuery,
} from './queries';

const api = {} as PortalClient;

describe('the archive’s queries kept for offline reading', () => {
  it('are the dashboards and the mailbox list and nothing else', () => {
    const queries = {
      archiveStatistics: archiveStatisticsQuery(api, '10.64.0.2'),
      mailboxesTop: mailboxesTopQuery(api, '10.64.0.2'),
      teamsStatistics: teamsStatisticsQuery(api, '10.64.0.2'),
      mailboxes: mailboxesQuery(api, '10.64.0.2', '10.65.0.2', { page: 1, pageSize: 25 }),
      mailboxMeta: mailboxMetaQuery(api, '10.64.0.2', 'm1'),
      proxyAccounts: proxyAccountsQuery(api, '10.64.0.2'),
      proxyRights: proxyRightsQuery(api, '10.64.0.2', 'm1'),
      deletionPreview: deletionPreviewQuery(api, 't1', { sources: ['m1'], retention: { unit: 'year', value: 1 } }),
      // Calendars, contacts and tasks are read under a proxy right, as mail is: never kept offline.
      mailboxItems: mailboxItemsQuery(api, 't1', { mailboxId: 'm1', kind: 'event', page: 1, pageSize: 25 }),
      mailboxItem: mailboxItemQuery(api, 't1', { mailboxId: 'm1', kind: 'contact', itemId: 'c1' }),
    };
    const offline = Object.entries(queries)
      .filter(([, q]) => q.meta?.offline === true)
      .map(([name]) => name);
    expect(offline).toEqual(['archiveStatistics', 'mailboxesTop', 'teamsStatistics', 'mailboxes']);
  });
});

describe('the archive’s queries a legal hold changes', () => {
  it('are those that count held items, each under a key eDiscovery reads again on a hold, and no other', () => {
    const retention = { unit: 'year', value: 1 } as const;
    const queries = {
      archiveStatistics: archiveStatisticsQuery(api, '10.64.0.2'),
      mailboxesTop: mailboxesTopQuery(api, '10.64.0.2'),
      teamsStatistics: teamsStatisticsQuery(api, '10.64.0.2'),
      mailboxes: mailboxesQuery(api, '10.64.0.2', '10.65.0.2', { page: 1, pageSize: 25 }),
      mailboxMeta: mailboxMetaQuery(api, '10.64.0.2', 'm1'),
      proxyAccounts: proxyAccountsQuery(api, '10.64.0.2'),
      proxyRights: proxyRightsQuery(api, '10.64.0.2', 'm1'),
      deletionPreview: deletionPreviewQuery(api, 't1', { sources: ['m1'], retention }),
      mailItems: mailItemsQuery(api, 't1', { mailboxId: 'm1', page: 1, pageSize: 25 }),
      archivedItem: archivedItemQuery(api, 't1', 'i1'),
      teamsTree: teamsTreeQuery(api, 't1'),
      teamsThreads: teamsThreadsQuery(api, 't1', { source: 'team-1', page: 1, pageSize: 20 }),
      mailboxItems: mailboxItemsQuery(api, 't1', { mailboxId: 'm1', kind: 'task', page: 1, pageSize: 25 }),
      mailboxItem: mailboxItemQuery(api, 't1', { mailboxId: 'm1', kind: 'event', itemId: 'e1' }),
    };
    const under = (key: QueryKey, prefix: QueryKey) => prefix.every((part, i) => key[i] === part);
    const held = Object.entries(queries)
      .filter(([, q]) => sharedKeys.heldCounts('t1', '10.64.0.2').some((prefix) => under(q.queryKey, prefix)))
      .map(([name]) => name);
    expect(held).toEqual(['mailboxesTop', 'teamsStatistics', 'mailboxes', 'deletionPreview', 'teamsTree']);
  });
});
