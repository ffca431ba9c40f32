import type { Client } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readWorker, storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { restoreOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';
import { samePageFor } from './client-switcher';

startMsw();
restoreOnline();

// jsdom has no ResizeObserver; the popover's positioning asks for one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const client = (clientId: string, name: string, abbr: string, tenantDomain?: string): Client =>
  testClient({
    clientId,
    name,
    partnerId: 'p1',
    worker: testWorker({
      workerId: `w-${clientId}`,
      workerIp: `10.64.1.${clientId.length}${clientId.slice(1)}`,
      clientId,
      organisationName: name,
      abbr,
      stagingtenant_id: `t-${clientId}`,
      ...(tenantDomain ? { tenantDomain } : {}),
    }),
  });

const CONTOSO = client('c1', 'Contoso', 'contoso', 'contoso.onmicrosoft.com');
const NORTHWIND = client('c2', 'Northwind Traders', 'northwind', 'northwind.onmicrosoft.com');
const LITWARE = client('c3', 'Litware', 'litware');
/** Hundreds of clients: the search is local and instant. */
const OTHERS = Array.from({ length: 400 }, (_, i) => client(`x${i}`, `Fabrikam Client ${i}`, `fab-${i}`));
const CLIENTS = [CONTOSO, NORTHWIND, LITWARE, ...OTHERS];

function signedInAsPartnerOf(current: Client) {
  storeUser({ token: 'session-token', user: { email: 'partner@fabrikam.example', role: 'partner' } });
  storeWorker(current.worker);
}

describe('the header’s client switcher', () => {
  it('finds a client by typing, chooses it with the arrows and Enter, and keeps the page (its list for a mailbox)', async () => {
    signedInAsPartnerOf(CONTOSO);
    const { user, path } = await renderPortal('/archive/mailboxes/m1', {
      'legacy.workers.clients': respond('legacy.workers.clients', CLIENTS),
    });
    const header = await screen.findByRole('banner');
    const trigger = within(header).getByRole('button', { name: /^Client organisation: Contoso/ });
    expect(trigger.textContent).toContain('contoso.onmicrosoft.com');

    trigger.focus();
    await user.keyboard('{Enter}');
    const search = await screen.findByRole('combobox', { name: 'Find a client' });
    await waitFor(() => expect(document.activeElement).toBe(search));
    const list = screen.getByRole('listbox', { name: 'Client organisation' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(403));
    // The current client is marked.
    expect(
      within(list)
        .getByRole('option', { name: /Contoso/ })
        .getAttribute('aria-current'),
    ).toBe('true');

    await user.keyboard('w');
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['LitwareNo tenant connected', 'Northwind Tradersnorthwind.onmicrosoft.com']),
    );
    const [first, second] = within(list).getAllByRole('option');
    expect(search.getAttribute('aria-activedescendant')).toBe(first?.id);
    await user.keyboard('{ArrowDown}');
    expect(search.getAttribute('aria-activedescendant')).toBe(second?.id);
    expect(second?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(readWorker()).toMatchObject({ clientId: 'c2', organisationName: 'Northwind Traders' }));
    // A mailbox is the previous client's: its list opens instead.
    await waitFor(() => expect(path()).toBe('/archive/mailboxes'));
    expect(screen.queryByRole('listbox')).toBeNull();
    await waitFor(() =>
      expect(within(header).getByRole('button', { name: /^Client organisation: Northwind Traders/ })).toBeTruthy(),
    );
  });

  it('stays on the same page, and closes with Escape without switching', async () => {
    signedInAsPartnerOf(CONTOSO);
    const { user, path } = await renderPortal('/backup-and-restore/job-monitor?status=failed', {
      'legacy.workers.clients': respond('legacy.workers.clients', CLIENTS),
    });
    const trigger = await within(await screen.findByRole('banner')).findByRole('button', {
      name: /^Client organisation: Contoso/,
    });
    await user.click(trigger);
    await screen.findByRole('combobox', { name: 'Find a client' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(readWorker()).toMatchObject({ clientId: 'c1' });

    await user.click(trigger);
    await user.type(await screen.findByRole('combobox', { name: 'Find a client' }), 'litw{Enter}');
    await waitFor(() => expect(readWorker()).toMatchObject({ clientId: 'c3' }));
    expect(path()).toBe('/backup-and-restore/job-monitor');

    await user.click(trigger);
    await user.type(await screen.findByRole('combobox', { name: 'Find a client' }), 'nobody');
    expect(await screen.findByText('No client matches “nobody”.')).toBeTruthy();
  });

  it('is not offered to a customer administrator', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(CONTOSO.worker);
    await renderPortal('/reports');
    const header = await screen.findByRole('banner');
    expect(within(header).getByTestId('current-organisation').textContent).toContain('Contoso');
    expect(within(header).queryByTestId('client-switcher')).toBeNull();
  });
});

describe('the page kept when switching clients', () => {
  const known = (path: string) => ['/archive/mailboxes', '/configuration'].includes(path);
  it('is the same page, or the list above a page of one client’s thing', () => {
    expect(samePageFor('/configuration', '/configuration', known)).toBe('/configuration');
    expect(samePageFor('/archive/mailboxes/$mailboxId', '/archive/mailboxes/m1', known)).toBe('/archive/mailboxes');
    expect(samePageFor('/things/$thingId/parts', '/things/t1/parts', known)).toBe('/');
  });
});
