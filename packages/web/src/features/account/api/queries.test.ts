import type { PortalClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { isOfflineQuery } from '../../../shared/api/offline';
import { accountInfoQuery, notificationsQuery, signInActivityQuery, twoFactorStateQuery } from './queries';

describe('the account’s queries', () => {
  it('keep their keys and are never kept for offline reading', () => {
    const api = {} as PortalClient;
    const queries = [
      accountInfoQuery(api),
      twoFactorStateQuery(api),
      signInActivityQuery(api, 2),
      notificationsQuery(api),
    ];
    expect(queries.map((q) => q.queryKey)).toEqual([
      ['account', 'info'],
      ['account', 'twoFactor'],
      ['account', 'activity', 2],
      ['legacy', 'notifications'],
    ]);
    for (const query of queries) {
      expect(isOfflineQuery({ meta: query.meta })).toBe(false);
    }
  });
});
