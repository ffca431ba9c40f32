import type { Client } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storeUser } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { restoreOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

/** Twelve clients, "Client 01" to "Client 12": two pages of ten. */
const clients: Client[] = Array.from({ length: 12 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return testClient({
    clientId: `c${n}`,
    name: `Client ${n}`,
    license: i % 2 ? 'trial' : 'full',
    worker: testWorker({ workerId: `w${n}`, clientId: `c${n}`, abbr: `client-${n}` }),
  });
});

const signedIn = () =>
  storeUser({ token: 'session-token', user: { email: 'partner@fabrikam.example', role: 'partner' } });

const names = (table: HTMLElement) =>
  within(table)
    .getAllByText(/^Client \d\d$/)
    .map((cell) => cell.textContent);

describe('the partner’s client list in the address', () => {
  it('opens on the page and order of the address, and writes a new sort or search back to it', async () => {
    signedIn();
    const { user, portal } = await renderPortal('/partner-setup?page=2&order=desc', {
      'legacy.workers.clients': respond('legacy.workers.clients', clients),
    });
    const table = await screen.findByRole('table', { name: 'Client organisations' });
    // Page 2 of the names from Z to A: the last two.
    await within(table).findByText('Client 02');
    expect(names(table)).toEqual(['Client 02', 'Client 01']);
    expect(screen.getByText('2 / 2')).toBeTruthy();

    // A new sort goes back to the first page, and says so in the address.
    await user.click(within(table).getByRole('button', { name: 'Sort by Licence' }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ sort: 'license', order: 'asc' }));
    expect(screen.getByText('1 / 2')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Search clients' }), 'client 1');
    await waitFor(() =>
      expect(portal.router.state.location.search).toEqual({ sort: 'license', order: 'asc', search: 'client 1' }),
    );
    await waitFor(() => expect(names(table)).toEqual(['Client 11', 'Client 10', 'Client 12']));
  });

  it('opens with the search of the address in the search box', async () => {
    signedIn();
    await renderPortal('/partner-setup?search=client%2011', {
      'legacy.workers.clients': respond('legacy.workers.clients', clients),
    });
    const table = await screen.findByRole('table', { name: 'Client organisations' });
    await within(table).findByText('Client 11');
    expect(names(table)).toEqual(['Client 11']);
    expect((screen.getByRole('searchbox', { name: 'Search clients' }) as HTMLInputElement).value).toBe('client 11');
  });
});
