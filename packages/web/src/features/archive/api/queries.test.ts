import type { PortalClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
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
    };
    const offline = Object.entries(queries)
      .filter(([, q]) => q.meta?.offline === true)
      .map(([name]) => name);
    expect(offline).toEqual(['archiveStatistics', 'mailboxesTop', 'teamsStatistics', 'mailboxes']);
  });
});
