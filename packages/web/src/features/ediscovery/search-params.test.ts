import { describe, expect, it } from 'vitest';
import { paramsPage, paramsSearch, validateEdiscoverySearch } from './search-params';

describe('eDiscovery’s address', () => {
  it('keeps what it can read and leaves out the rest: unknown kinds, dates that do not exist', () => {
    expect(
      validateEdiscoverySearch({
        q: 'figures',
        kinds: 'teams,mail,faxes',
        from: '2026-02-30x',
        to: '2026-11-20',
        mailbox: 'm1',
        page: '2',
        pageSize: 7,
      }),
    ).toEqual({ q: 'figures', kinds: 'mail,teams', to: '2026-11-20', mailbox: 'm1', page: 2 });
    expect(validateEdiscoverySearch({ kinds: 'faxes', from: 'yesterday' })).toEqual({});
    expect(validateEdiscoverySearch({ kinds: 'events,mail' })).toEqual({ kinds: 'mail,events' });
  });

  it('holds a search only once one was made, and none while a case is open', () => {
    expect(paramsSearch({ q: 'figures' })).toBeNull();
    expect(paramsSearch({ kinds: 'mail,teams' })).toEqual({ query: '', kinds: ['mail', 'teams'] });
    expect(paramsSearch({ q: ' figures ', kinds: 'mail', team: 't1', from: '2026-11-01' })).toEqual({
      query: 'figures',
      kinds: ['mail'],
      teams: ['t1'],
      from: new Date('2026-11-01T00:00:00').toISOString(),
    });
    expect(paramsSearch({ kinds: 'mail', case: 'k1' })).toBeNull();
    expect(paramsPage({})).toEqual({ page: 1, pageSize: 25 });
  });
});
