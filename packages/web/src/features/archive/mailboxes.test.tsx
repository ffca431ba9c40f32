import type { Mailbox } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testMailbox, testPage, testWorker } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const client = respond('legacy.workers.client', testClient());
const mailbox: Mailbox = {
  mailboxId: 'm1',
  name: 'Adele Vance',
  email: 'adele@contoso.example',
  sizeBytes: 5 * 1024 ** 2,
  kind: 'primary',
  items: 1200,
  held: 0,
  lastArchived: '2026-11-22T02:00:00.000Z',
};
const signIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};

describe('the email archive', () => {
  it('lists archived mailboxes with the worker and index addresses, and shows a mailbox’s folders', async () => {
    signIn();
    const asked: string[] = [];
    const { user } = await renderPortal('/archive/mailboxes', {
      'legacy.workers.client': client,
      'legacy.mailboxes.list': ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return HttpResponse.json(testPage([mailbox]));
      },
      'legacy.mailboxes.meta': respond('legacy.mailboxes.meta', {
        mailboxId: 'm1',
        folders: [
          { path: 'Inbox', items: 1000, sizeBytes: 4 * 1024 ** 2 },
          { path: 'Inbox/TestOrder', items: 200, sizeBytes: 1024 ** 2 },
        ],
        oldest: '2024-01-01T00:00:00.000Z',
        newest: '2026-11-21T00:00:00.000Z',
      }),
    });
    const row = await screen.findByRole('row', { name: /Adele Vance/ });
    expect(within(row).getByText('1,200')).toBeTruthy();
    expect(within(row).getByText('5 MB')).toBeTruthy();
    expect(within(row).getByText('Primary mailbox')).toBeTruthy();
    expect(asked[0]).toBe('/api/archive/mailboxes/10.64.0.2/10.65.0.2');
    await user.click(row);
    const folders = await screen.findByRole('table', { name: 'Archived folders' });
    await waitFor(() => expect(within(folders).getByText('Inbox/TestOrder')).toBeTruthy());
  });

  it('says which mailboxes hold items under legal hold, in the list and the mailbox', async () => {
    signIn();
    const { user } = await renderPortal('/archive/mailboxes', {
      'legacy.workers.client': client,
      'legacy.mailboxes.list': respond(
        'legacy.mailboxes.list',
        testPage([mailbox, { ...mailbox, mailboxId: 'm2', name: 'Alex Wilber', held: 3 }]),
      ),
      'legacy.mailboxes.meta': respond('legacy.mailboxes.meta', {
        mailboxId: 'm2',
        folders: [],
        oldest: null,
        newest: null,
      }),
    });
    const held = await screen.findByRole('row', { name: /Alex Wilber/ });
    expect(within(held).getByTestId('held-badge').textContent).toBe('3 items on legal hold');
    expect(within(screen.getByRole('row', { name: /Adele Vance/ })).queryByTestId('held-badge')).toBeNull();
    await user.click(held);
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByTestId('held-badge').textContent).toBe('3 items on legal hold');
  });

  it('shows the archive figures of 30 days and the largest mailboxes', async () => {
    signIn();
    await renderPortal('/archive/dashboard', {
      'legacy.workers.client': client,
      'legacy.email.statistics': respond('legacy.email.statistics', {
        periodDays: 30,
        mailboxes: 3,
        items: 4321,
        bytes: 7 * 1024 ** 3,
        growth: [
          { date: '2026-10-24', items: 0, bytes: 0 },
          { date: '2026-11-23', items: 4321, bytes: 7 * 1024 ** 3 },
        ],
        lastSuccessfulJob: { jobId: 'j1', jobName: 'Mail', finished: '2026-11-23T02:00:00.000Z' },
      }),
      'legacy.mailboxes.top': respond('legacy.mailboxes.top', [mailbox]),
    });
    expect((await screen.findByTestId('figure-Items protected')).textContent).toBe('4,321');
    expect(screen.getByTestId('figure-Stored size (after deduplication)').textContent).toBe('7 GB');
    expect(
      within(await screen.findByRole('table', { name: 'The 10 largest mailboxes' })).getByText('Adele Vance'),
    ).toBeTruthy();
  });
});

describe('the email archive dashboard’s largest mailboxes', () => {
  it('asks for the 10 largest and shows no more than 10, however many the answer holds', async () => {
    signIn();
    const asked: string[] = [];
    await renderPortal('/archive/dashboard', {
      'legacy.workers.client': client,
      'legacy.email.statistics': respond('legacy.email.statistics', {
        periodDays: 30,
        mailboxes: 12,
        items: 12,
        bytes: 78 * 1024 ** 2,
        growth: [{ date: '2026-11-23', items: 12, bytes: 78 * 1024 ** 2 }],
        lastSuccessfulJob: null,
      }),
      'legacy.mailboxes.top': ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('limit') ?? '');
        // More than asked for, largest first.
        return HttpResponse.json(
          Array.from({ length: 12 }, (_, i) =>
            testMailbox({ mailboxId: `m${i}`, name: `Mailbox ${i}`, sizeBytes: (12 - i) * 1024 ** 2 }),
          ),
        );
      },
    });
    const table = await screen.findByRole('table', { name: 'The 10 largest mailboxes' });
    const names = within(table)
      .getAllByRole('row')
      .map((row) => row.querySelector('td')?.textContent);
    expect(names).toEqual(Array.from({ length: 10 }, (_, i) => `Mailbox ${i}`));
    expect(new Set(asked)).toEqual(new Set(['10']));
  });
});

describe('the email archive without a proxy right', () => {
  it('says why the mailbox’s download was refused, in words rather than "Access denied"', async () => {
    signIn();
    const asked: unknown[] = [];
    const { user } = await renderPortal('/archive/mailboxes', {
      'legacy.workers.client': client,
      'legacy.mailboxes.list': respond('legacy.mailboxes.list', testPage([mailbox])),
      'legacy.mailboxes.meta': respond('legacy.mailboxes.meta', {
        mailboxId: 'm1',
        folders: [],
        oldest: null,
        newest: null,
      }),
      'legacy.email.fullRestoreDownload': async ({ request }) => {
        asked.push(await request.json());
        return refuse(403, { message: "You need a proxy right to read this mailbox's archive." });
      },
    });
    await user.click(await screen.findByRole('row', { name: /Adele Vance/ }));
    await user.click(await screen.findByRole('button', { name: 'Download the archive (ZIP of .eml files)' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("You need a proxy right to read this mailbox's archive.");
    expect(asked).toEqual([{ workerIp: '10.64.0.2', mailboxId: 'm1', format: 'zip' }]);
    expect(screen.queryByText('Access denied')).toBeNull();
  });
});

describe('the email archive offline', () => {
  it('disables the CSV and mailbox downloads with the reason, and enables them online', async () => {
    signIn();
    const { user } = await renderPortal('/archive/mailboxes', {
      'legacy.workers.client': client,
      'legacy.mailboxes.list': respond('legacy.mailboxes.list', testPage([mailbox])),
      'legacy.mailboxes.meta': respond('legacy.mailboxes.meta', {
        mailboxId: 'm1',
        folders: [],
        oldest: null,
        newest: null,
      }),
    });
    const row = await screen.findByRole('row', { name: /Adele Vance/ });
    const csv = screen.getByRole('button', { name: 'Download as CSV' });
    expectServerAction(csv, false);
    await user.click(row);
    const zip = await screen.findByRole('button', { name: 'Download the archive (ZIP of .eml files)' });
    expectServerAction(zip, false);
    setOnline(false);
    expectServerAction(zip, true);
    expectServerAction(csv, true);
    setOnline(true);
    expectServerAction(zip, false);
  });
});

describe('the archived mailboxes in the address', () => {
  it('open on the page, order and search the address says, and write a change of order back into it', async () => {
    signIn();
    const asked: Record<string, string>[] = [];
    const { user, portal } = await renderPortal('/archive/mailboxes?page=2&sort=email&order=desc&search=adele', {
      'legacy.workers.client': client,
      'legacy.mailboxes.list': ({ request }) => {
        asked.push(Object.fromEntries(new URL(request.url).searchParams));
        return HttpResponse.json(testPage([mailbox], 60, { page: 2 }));
      },
    });
    await screen.findByRole('row', { name: /Adele Vance/ });
    expect(asked[0]).toMatchObject({ page: '2', sort: 'email', order: 'desc', search: 'adele' });
    expect((screen.getByLabelText('Search mailboxes') as HTMLInputElement).value).toBe('adele');

    await user.click(screen.getByRole('button', { name: 'Sort by Name' }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ order: 'asc', search: 'adele' }));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ page: '1', sort: 'name', order: 'asc', search: 'adele' }));
  });
});
