import type { PortalClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { isOfflineQuery } from '../../../shared/api/offline';
import { partnerKeys } from './keys';
import { clientsQuery, fleetQuery } from './queries';

describe('the partner’s client list', () => {
  it('is kept for offline reading, under the same key as before', () => {
    const query = clientsQuery({} as PortalClient);
    expect(query.queryKey).toEqual(['legacy', 'clients']);
    expect(isOfflineQuery({ meta: query.meta })).toBe(true);
  });

  it('is what stays cached when the partner works as another client', () => {
    expect(partnerKeys.isClients(['legacy', 'clients'])).toBe(true);
    expect(partnerKeys.isClients(['legacy', 'notifications'])).toBe(false);
    expect(partnerKeys.isClients(['tenants'])).toBe(false);
    expect(partnerKeys.isClients(['worker', '10.64.0.2', 'mailboxes'])).toBe(false);
  });
});

describe('the partner’s fleet', () => {
  it('is kept for offline reading, under the client list (read again with it, kept when the client changes)', () => {
    const query = fleetQuery({} as PortalClient, { page: 1, pageSize: 25, sort: 'attention', order: 'asc' });
    expect(query.queryKey).toEqual([
      'legacy',
      'clients',
      'fleet',
      { page: 1, pageSize: 25, sort: 'attention', order: 'asc' },
    ]);
    expect(isOfflineQuery({ meta: query.meta })).toBe(true);
    expect(partnerKeys.isClients(query.queryKey)).toBe(true);
  });
});
