import type { EdiscoveryCase } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();
// Whole forms filled in, dialog over dialog: up to a minute on a loaded 2-core machine (measured 64 s at a load of 15).
vi.setConfig({ testTimeout: 60_000 });

const board = { kind: 'mailbox' as const, id: 'm-board', name: 'Board Room' };
const megan = { kind: 'chats' as const, id: 'u-megan', name: 'Megan Bowen' };
const open: Omit<EdiscoveryCase, 'hold'> = {
  caseId: 'k1',
  name: 'Falcon',
  search: { query: 'falcon', kinds: ['mail', 'teams'], mailboxes: ['m-board'], teams: [], chats: ['u-megan'] },
  createdBy: 'admin@example.com',
  createdAt: '2026-11-23T00:00:00.000Z',
  hits: 1204,
  custodians: [board, megan],
};
const held: NonNullable<EdiscoveryCase['hold']> = {
  heldAt: '2026-11-24T09:30:00.000Z',
  heldBy: 'admin@example.com',
  items: 1204,
  custodians: [
    { ...board, items: 1200 },
    { ...megan, items: 4 },
  ],
};

function resolvers(state: { hold: typeof held | null }, calls: string[]): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.ediscovery.rights': respond('apollo.ediscovery.rights', { ediscoveryManager: true }),
    'apollo.ediscovery.cases': () => HttpResponse.json([{ ...open, hold: state.hold }]),
    'apollo.ediscovery.holdCase': () => {
      calls.push('hold');
      state.hold = held;
      return HttpResponse.json({ ...open, hold: held });
    },
    'apollo.ediscovery.releaseCase': () => {
      calls.push('release');
      state.hold = null;
      return HttpResponse.json({ ...open, hold: null });
    },
    'apollo.locations.list': respond('apollo.locations.list', []),
  };
}

function signIn() {
  storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
  storeWorker(testWorker());
}

afterEach(() => localStorage.removeItem('language'));

describe('placing a legal hold', () => {
  it('asks first, naming the custodians, the search and its hits; Cancel places nothing, confirming places it', async () => {
    signIn();
    const calls: string[] = [];
    const { user } = await renderPortal('/ediscovery/portal', resolvers({ hold: null }, calls));
    const cases = await screen.findByRole('table', { name: 'Cases' });
    await user.click(within(cases).getByRole('button', { name: 'Put the case "Falcon" on legal hold' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Put the case "Falcon" on legal hold?' });
    expect(within(dialog).getByTestId('hold-confirm-text').textContent).toBe(
      'Keeps every item of Board Room (mailbox), Megan Bowen (chats) that the search "falcon" finds (1,204 hits when the case was saved), and those archived later that match, from every deletion job until the hold is released.',
    );
    // (The focus starts on Cancel: jsdom has no layout to focus by, so the Chromium test checks that.)
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual([]);

    await user.click(within(cases).getByRole('button', { name: 'Put the case "Falcon" on legal hold' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Place legal hold' }));
    await waitFor(() => expect(calls).toEqual(['hold']));
    expect(await screen.findByText(/The case "Falcon" is on legal hold/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('says it in German', async () => {
    localStorage.setItem('language', 'de');
    signIn();
    const { user } = await renderPortal('/ediscovery/portal', resolvers({ hold: null }, []));
    const cases = await screen.findByRole('table', { name: 'Fälle' });
    await user.click(within(cases).getByRole('button', { name: 'Den Fall „Falcon“ unter Legal Hold stellen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Den Fall „Falcon“ unter Legal Hold stellen?' });
    expect(within(dialog).getByTestId('hold-confirm-text').textContent).toBe(
      'Bewahrt jedes Element von Board Room (Postfach), Megan Bowen (Chats), das die Suche „falcon“ findet (1.204 Treffer beim Speichern des Falls), und später archivierte passende Elemente vor jedem Löschauftrag, bis der Legal Hold aufgehoben wird.',
    );
    expect(within(dialog).getByRole('button', { name: 'Legal Hold setzen' })).toBeTruthy();
  });
});

describe('releasing a legal hold', () => {
  it('says how many items deletion jobs may then delete, of which custodian; Escape releases nothing, confirming releases', async () => {
    signIn();
    const calls: string[] = [];
    const { user } = await renderPortal('/ediscovery/portal', resolvers({ hold: held }, calls));
    const cases = await screen.findByRole('table', { name: 'Cases' });
    const release = await within(cases).findByRole('button', { name: 'Release the legal hold of the case "Falcon"' });
    await user.click(release);
    let dialog = await screen.findByRole('alertdialog', { name: 'Release the legal hold of "Falcon"?' });
    expect(within(dialog).getByTestId('hold-confirm-text').textContent).toBe(
      'Deletion jobs may then delete the 1,204 items the hold keeps, once they are past their retention; deleted items cannot be restored.',
    );
    expect(
      within(within(dialog).getByTestId('hold-confirm-custodians'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Board Room (mailbox): 1,200 items', 'Megan Bowen (chats): 4 items']);
    expect(dialog.textContent).not.toMatch(/m-board|u-megan/);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual([]);

    await user.click(release);
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Release' }));
    await waitFor(() => expect(calls).toEqual(['release']));
    expect(await screen.findByText('The legal hold of the case "Falcon" was released.')).toBeTruthy();
  });

  it('says it in German', async () => {
    localStorage.setItem('language', 'de');
    signIn();
    const { user } = await renderPortal('/ediscovery/portal', resolvers({ hold: held }, []));
    const cases = await screen.findByRole('table', { name: 'Fälle' });
    await user.click(await within(cases).findByRole('button', { name: 'Den Legal Hold des Falls „Falcon“ aufheben' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByTestId('hold-confirm-text').textContent).toBe(
      'Löschaufträge dürfen dann die 1.204 bewahrten Elemente löschen, sobald ihre Aufbewahrung abgelaufen ist; gelöschte Elemente lassen sich nicht wiederherstellen.',
    );
    expect(
      within(within(dialog).getByTestId('hold-confirm-custodians'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Board Room (Postfach): 1.200 Elemente', 'Megan Bowen (Chats): 4 Elemente']);
  });
});
