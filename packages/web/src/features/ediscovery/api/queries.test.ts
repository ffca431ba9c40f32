import type { PortalClient } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { casesQuery, eventQuery, itemQuery, rightsQuery, searchQuery } from './queries';

const api = {} as PortalClient;

describe('eDiscovery’s queries', () => {
  it('are read live only: none is kept for offline reading', () => {
    const queries = [
      casesQuery(api, 't1'),
      searchQuery(api, 't1', { query: 'figures', kinds: ['mail'] }, 1, 25),
      itemQuery(api, 't1', '42'),
      eventQuery(api, 't1', 'm1', 'AAMkAGI='),
      rightsQuery(api, 't1'),
    ];
    for (const q of queries) {
      expect(q.meta?.offline).toBeUndefined();
    }
  });
});
