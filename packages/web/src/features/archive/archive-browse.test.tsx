import type {
  ArchivedItem,
  ArchivedMail,
  ArchivedMailBrowse,
  RestoreEmailRequest,
  TeamsArchiveNode,
  TeamsThread,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../components/ui/format';
import { saveBlob } from '../../components/ui/save-blob';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testLocation, testMailbox, testPage, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

// jsdom cannot download: the saved file is caught here.
vi.mock('../../components/ui/save-blob', () => ({ saveBlob: vi.fn() }));

startMsw();

const client = respond('legacy.workers.client', testClient());
const signIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};
const REFUSED = "You need a proxy right to read this mailbox's archive.";

const mail = (over: Partial<ArchivedMail> = {}): ArchivedMail => ({
  itemId: '42',
  folder: 'Inbox',
  subject: 'Quarterly figures',
  sender: 'Megan Bowen <megan@contoso.example>',
  recipients: 'adele@contoso.example',
  sentAt: '2026-11-01T09:00:00.000Z',
  sizeBytes: 24 * 1024,
  hasAttachments: true,
  ...over,
});

const item: ArchivedItem = {
  itemId: '42',
  kind: 'mail',
  source: 'm1',
  sourceName: 'Adele Vance',
  container: 'Inbox',
  subject: 'Quarterly figures',
  from: 'Megan Bowen <megan@contoso.example>',
  to: 'Adele Vance <adele@contoso.example>',
  cc: 'Alex Wilber <alex@contoso.example>',
  sentAt: '2026-11-01T09:00:00.000Z',
  sizeBytes: 24 * 1024,
  attachments: [{ name: 'figures.xlsx', contentType: 'application/vnd.ms-excel', sizeBytes: 20_480, url: null }],
  body: 'Here are the figures. <img src=x onerror=alert(1)>',
};

/** The answers the mailbox's archive page reads: the mailbox's name, folders, the mail and the item. */
const archiveAnswers = (bodies: ArchivedMailBrowse[]): Resolvers => ({
  'legacy.workers.client': client,
  'legacy.mailboxes.list': respond('legacy.mailboxes.list', testPage([testMailbox()])),
  'legacy.mailboxes.meta': respond('legacy.mailboxes.meta', {
    mailboxId: 'm1',
    folders: [
      { path: 'Inbox', items: 2, sizeBytes: 48 * 1024 },
      { path: 'Sent Items', items: 1, sizeBytes: 1024 },
    ],
    oldest: '2026-10-01T00:00:00.000Z',
    newest: '2026-11-01T09:00:00.000Z',
  }),
  'apollo.archive.browseMail': async ({ request }) => {
    bodies.push(await request.json());
    return HttpResponse.json(
      testPage([mail(), mail({ itemId: '43', subject: 'Lunch', hasAttachments: false, sizeBytes: 2048 })], 30),
    );
  },
  'apollo.archive.item': respond('apollo.archive.item', item),
  'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
  'apollo.discovery.users': respond('apollo.discovery.users', {
    items: [
      { sourceId: 'm1', kind: 'mailbox', displayName: 'Adele Vance', email: 'adele@contoso.example', protected: true },
      { sourceId: 'm2', kind: 'mailbox', displayName: 'Alex Wilber', email: 'alex@contoso.example', protected: true },
    ],
    total: 2,
    page: 1,
    pageSize: 500,
  }),
});

describe('a mailbox’s archive', () => {
  it('opens from the mailbox’s folder, lists its mail by name with filters, sort and pages in the address', async () => {
    signIn();
    const bodies: ArchivedMailBrowse[] = [];
    const { user, portal } = await renderPortal('/archive/mailboxes', archiveAnswers(bodies));
    // By keyboard: the mailbox's name opens it, the folder's link its archive.
    (await screen.findByRole('button', { name: 'Adele Vance' })).focus();
    await user.keyboard('{Enter}');
    (await screen.findByRole('link', { name: 'Open the folder Sent Items' })).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Archive of Adele Vance' });
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ mailboxId: 'm1', folder: 'Sent Items' }));
    expect(portal.router.state.location.pathname).toBe('/archive/mailboxes/m1');

    const table = await screen.findByRole('table', { name: 'Archived mail' });
    const row = within(table).getByRole('row', { name: /Quarterly figures/ });
    // In its column once (a phone stacks it under the subject instead: the table view's own test).
    expect(within(row).getAllByText('Megan Bowen <megan@contoso.example>')).toHaveLength(1);
    expect(within(row).getByText(formatDateTime('2026-11-01T09:00:00.000Z'))).toBeTruthy();
    expect(within(row).getByText('24 KB')).toBeTruthy();
    expect(within(row).getByRole('img', { name: 'Has attachments' })).toBeTruthy();
    expect(within(within(table).getByRole('row', { name: /Lunch/ })).queryByRole('img')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Attachments'), 'with');
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ folder: 'Sent Items', attachments: true, page: 1 }));
    await user.click(screen.getByRole('button', { name: 'Sort by Subject' }));
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ sort: 'subject', order: 'asc' }));
    await user.type(screen.getByLabelText('Search subject or sender'), 'figures');
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ search: 'figures', attachments: true }));
    await waitFor(() =>
      expect(portal.router.state.location.search).toMatchObject({
        folder: 'Sent Items',
        attachments: 'with',
        sort: 'subject',
        order: 'asc',
        search: 'figures',
      }),
    );
  });

  it('reads a date range from the address as whole days and sends it', async () => {
    signIn();
    const bodies: ArchivedMailBrowse[] = [];
    await renderPortal('/archive/mailboxes/m1?from=2026-10-01&to=2026-10-31&page=2', archiveAnswers(bodies));
    await screen.findByRole('table', { name: 'Archived mail' });
    await waitFor(() => expect(bodies.length).toBeGreaterThan(0));
    const body = bodies.at(-1) as ArchivedMailBrowse;
    expect(body.page).toBe(2);
    expect(new Date(body.from ?? '').getTime()).toBe(new Date(2026, 9, 1).getTime());
    expect(new Date(body.to ?? '').getTime()).toBe(new Date(2026, 10, 1).getTime());
    expect((screen.getByLabelText('Sent from') as HTMLInputElement).value).toBe('2026-10-01');
  });

  it('says when no archived mail matches', async () => {
    signIn();
    await renderPortal('/archive/mailboxes/m1?attachments=with&search=nothing', {
      ...archiveAnswers([]),
      'apollo.archive.browseMail': respond('apollo.archive.browseMail', testPage<ArchivedMail>([])),
    });
    expect((await screen.findByTestId('table-empty')).textContent).toBe('No archived mail matches.');
  });

  it('previews a mail’s headers, attachments and text as text, and downloads it as .eml', async () => {
    signIn();
    const downloads: unknown[] = [];
    const { user } = await renderPortal('/archive/mailboxes/m1', {
      ...archiveAnswers([]),
      'legacy.email.fullRestoreDownload': async ({ request }) => {
        downloads.push(await request.json());
        return new HttpResponse('Subject: Quarterly figures\r\n\r\nHere', {
          headers: {
            'Content-Type': 'message/rfc822',
            'Content-Disposition': 'attachment; filename="Quarterly figures-42.eml"',
          },
        });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Quarterly figures' }));
    const drawer = await screen.findByRole('dialog');
    const headers = await within(drawer).findByTestId('mail-headers');
    expect(headers.textContent).toContain('From Megan Bowen <megan@contoso.example>');
    expect(headers.textContent).toContain('Cc Alex Wilber <alex@contoso.example>');
    expect(headers.textContent).toContain('Folder Inbox');
    expect(within(drawer).getByRole('list', { name: 'Attachments' }).textContent).toBe('figures.xlsx (20 KB)');
    const body = within(drawer).getByTestId('mail-body');
    expect(body.textContent).toBe('Here are the figures. <img src=x onerror=alert(1)>');
    expect(body.querySelector('img')).toBeNull();

    await user.click(within(drawer).getByRole('button', { name: 'Download (.eml)' }));
    await waitFor(() => expect(vi.mocked(saveBlob)).toHaveBeenCalled());
    expect(downloads).toEqual([{ workerIp: '10.64.0.2', mailboxId: 'm1', messageIds: ['42'], format: 'eml' }]);
    expect(vi.mocked(saveBlob).mock.calls.at(-1)?.[1]).toBe('Quarterly figures-42.eml');
  });

  it('restores a previewed mail into another mailbox’s folder, says so and links to the monitor', async () => {
    signIn();
    let restored: RestoreEmailRequest | undefined;
    const { user } = await renderPortal('/archive/mailboxes/m1', {
      ...archiveAnswers([]),
      'legacy.email.restore': async ({ request }) => {
        restored = (await request.json()) as RestoreEmailRequest;
        return HttpResponse.json({ jobId: 'j9', reportId: 'r9' }, { status: 202 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Quarterly figures' }));
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Restore…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading', { name: 'Restore 1 mail from Adele Vance?' })).toBeTruthy();
    expect(dialog.textContent).toContain('The mail "Quarterly figures" is put back as archived');
    const into = within(dialog).getByLabelText('Into the mailbox');
    // The original mailbox by its name, and the others: never the same one twice.
    await waitFor(() =>
      expect(
        within(into)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Adele Vance (the original mailbox)', 'Alex Wilber']),
    );
    await user.selectOptions(into, 'm2');
    const folder = within(dialog).getByLabelText(/Folder/);
    await user.clear(folder);
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await within(dialog).findByText('Name the folder to restore into.')).toBeTruthy();
    expect(restored).toBeUndefined();
    await user.type(folder, 'Recovered/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(restored).toEqual({
        workerIp: '10.64.0.2',
        mailboxId: 'm1',
        messageIds: ['42'],
        targetMailbox: 'm2',
        targetFolder: 'Recovered/2026',
      }),
    );
    const started = await screen.findByTestId('restore-started');
    expect(started.textContent).toContain('Restoring 1 mail into Alex Wilber.');
    expect(within(started).getByRole('link', { name: 'Follow it in the job monitor' }).getAttribute('href')).toBe(
      '/backup-and-restore/job-monitor?type=restore',
    );
  });

  it('restores several chosen mails at once into their own mailbox', async () => {
    signIn();
    let restored: RestoreEmailRequest | undefined;
    const { user } = await renderPortal('/archive/mailboxes/m1', {
      ...archiveAnswers([]),
      'legacy.email.restore': async ({ request }) => {
        restored = (await request.json()) as RestoreEmailRequest;
        return HttpResponse.json({ jobId: 'j9', reportId: 'r9' }, { status: 202 });
      },
    });
    await screen.findByRole('table', { name: 'Archived mail' });
    await user.click(screen.getByLabelText('Select Quarterly figures'));
    await user.click(screen.getByLabelText('Select Lunch'));
    expect(screen.getByTestId('mail-selection').textContent).toBe('2 mails selected');
    await user.click(screen.getByRole('button', { name: 'Restore selected' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading', { name: 'Restore 2 mails from Adele Vance?' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(restored).toEqual({
        workerIp: '10.64.0.2',
        mailboxId: 'm1',
        messageIds: ['42', '43'],
        targetFolder: 'Restored',
      }),
    );
    expect((await screen.findByTestId('restore-started')).textContent).toContain('Restoring 2 mails into Adele Vance.');
  });

  it('says in words why the list, the preview, the download and a restore were refused', async () => {
    signIn();
    const refusal = () => refuse(403, { message: REFUSED });
    const first = await renderPortal('/archive/mailboxes/m1', {
      ...archiveAnswers([]),
      'apollo.archive.browseMail': refusal,
    });
    expect((await screen.findByTestId('mail-refused')).textContent).toBe(
      "You need a proxy right to read this mailbox's archive. An administrator gives it under Email archive › Proxy rights.",
    );
    expect(screen.queryByRole('table', { name: 'Archived mail' })).toBeNull();
    first.view.unmount();

    const { user } = await renderPortal('/archive/mailboxes/m1', {
      ...archiveAnswers([]),
      'apollo.archive.item': refusal,
      'legacy.email.restore': refusal,
    });
    await user.click(await screen.findByRole('button', { name: 'Quarterly figures' }));
    const drawer = await screen.findByRole('dialog');
    expect((await within(drawer).findByTestId('mail-failure')).textContent).toContain(REFUSED);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByLabelText('Select Quarterly figures'));
    await user.click(screen.getByRole('button', { name: 'Restore selected' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain(REFUSED));
    expect(screen.queryByText('Access denied')).toBeNull();
  });

  it('says a restore of mail whose archive job is gone cannot be made', async () => {
    signIn();
    const { user } = await renderPortal('/archive/mailboxes/m1', {
      ...archiveAnswers([]),
      'legacy.email.restore': () => refuse(404, { message: 'Exchange Backup Job not found.' }),
    });
    await screen.findByRole('table', { name: 'Archived mail' });
    await user.click(screen.getByLabelText('Select Lunch'));
    await user.click(screen.getByRole('button', { name: 'Restore selected' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toContain(
        'These mails no longer belong to an archive job, so they cannot be restored.',
      ),
    );
  });
});

const tree: TeamsArchiveNode[] = [
  {
    nodeId: 'team-1',
    kind: 'team',
    name: 'Mark 8 Project Team',
    messageCount: 5,
    held: 0,
    children: [{ nodeId: 'team-1/General', kind: 'channel', name: 'General', messageCount: 5 }],
  },
  {
    nodeId: '19:chat@thread.v2',
    kind: 'chat',
    name: 'Adele Vance, Alex Wilber',
    messageCount: 2,
    held: 0,
    children: [],
  },
];

const post = (itemId: string, author: string, body: string, created: string) => ({
  itemId,
  author,
  created,
  subject: null,
  body,
  attachments: [],
});

const thread: TeamsThread = {
  post: {
    ...post('1', 'Megan Bowen', 'Kick-off at nine.', '2026-11-02T09:00:00.000Z'),
    subject: 'Kick-off',
    attachments: [
      {
        name: 'Agenda.docx',
        contentType: 'reference',
        sizeBytes: null,
        url: 'https://contoso.sharepoint.com/sites/mark8/Shared%20Documents/Agenda.docx',
      },
      { name: 'Card', contentType: 'application/vnd.microsoft.card.adaptive', sizeBytes: 2048, url: null },
    ],
  },
  replies: [
    post('2', 'Adele Vance', 'I will be there.', '2026-11-02T09:05:00.000Z'),
    post('3', 'Alex Wilber', 'Me too.', '2026-11-02T09:06:00.000Z'),
    post('4', 'Lee Gu', 'Late by five minutes.', '2026-11-02T09:07:00.000Z'),
    post('5', 'Nestor Wilke', 'Bring coffee.', '2026-11-02T09:08:00.000Z'),
  ],
};

describe('the Teams archive’s messages', () => {
  it('lists channels and chats by name, and shows a channel’s threads with replies under their post', async () => {
    signIn();
    const asked: Record<string, string>[] = [];
    const { user, portal } = await renderPortal('/teams/archive', {
      'legacy.workers.client': client,
      'apollo.archive.teams': respond('apollo.archive.teams', tree),
      'apollo.archive.teamsThreads': ({ request }) => {
        asked.push(Object.fromEntries(new URL(request.url).searchParams));
        return HttpResponse.json({ items: [thread], total: 12, page: 1, pageSize: 10 });
      },
    });
    const choice = await screen.findByLabelText('Choose a channel or chat');
    expect(
      within(choice)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Choose a channel or chat',
      'Mark 8 Project Team › General (5 messages)',
      'Adele Vance, Alex Wilber (2 messages)',
    ]);
    await user.selectOptions(choice, 'Mark 8 Project Team › General (5 messages)');
    await waitFor(() =>
      expect(asked.at(-1)).toEqual({ source: 'team-1', channel: 'General', page: '1', pageSize: '10' }),
    );
    expect(await screen.findByRole('heading', { name: 'Messages of Mark 8 Project Team › General' })).toBeTruthy();
    // Beside the messages on wide screens, the same places as a list, the one shown marked.
    const places = screen.getByRole('navigation', { name: 'Teams and chats' });
    expect(
      within(places)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['General (5 messages)', 'Adele Vance, Alex Wilber (2 messages)']);
    await waitFor(() =>
      expect(within(places).getByRole('link', { name: 'General (5 messages)' }).getAttribute('aria-current')).toBe(
        'page',
      ),
    );

    const article = await screen.findByTestId('teams-thread');
    const first = within(article).getByTestId('teams-post');
    expect(first.textContent).toContain('Megan Bowen');
    expect(first.textContent).toContain(formatDateTime('2026-11-02T09:00:00.000Z'));
    expect(first.textContent).toContain('Kick-off at nine.');
    const agenda = within(first).getByRole('link', { name: 'Open Agenda.docx in Microsoft 365' });
    expect(agenda.getAttribute('href')).toBe(
      'https://contoso.sharepoint.com/sites/mark8/Shared%20Documents/Agenda.docx',
    );
    expect(agenda.getAttribute('rel')).toBe('noopener noreferrer');
    expect(first.textContent).toContain('size unknown');
    expect(first.textContent).toContain('Card2 KB');
    expect(within(article).getByText('4 replies')).toBeTruthy();
    // The first three replies, oldest first, then the rest on request.
    expect(
      within(article)
        .getAllByTestId('teams-reply')
        .map((r) => r.querySelector('p')?.textContent),
    ).toEqual(['Adele Vance', 'Alex Wilber', 'Lee Gu']);
    await user.click(within(article).getByRole('button', { name: 'Show 1 more reply' }));
    expect(within(article).getAllByTestId('teams-reply')).toHaveLength(4);

    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ page: '2' }));
    expect(portal.router.state.location.search).toMatchObject({ at: 't/team-1/General', page: 2 });
  });

  it('opens a chat from the address and says when it cannot be read, and when nothing is archived', async () => {
    signIn();
    const first = await renderPortal('/teams/archive?at=c%2F19%3Achat%40thread.v2', {
      'legacy.workers.client': client,
      'apollo.archive.teams': respond('apollo.archive.teams', tree),
      'apollo.archive.teamsThreads': () => refuse(404, { message: 'Team or chat not found' }),
    });
    expect(await screen.findByRole('heading', { name: 'Messages of Adele Vance, Alex Wilber' })).toBeTruthy();
    expect((await screen.findByTestId('teams-no-threads')).textContent).toBe('No archived message here.');
    first.view.unmount();

    const failing = await renderPortal('/teams/archive?at=t%2Fteam-1%2FGeneral', {
      'legacy.workers.client': client,
      'apollo.archive.teams': respond('apollo.archive.teams', tree),
      'apollo.archive.teamsThreads': () => refuse(500, { message: 'Internal error' }),
    });
    // A server failure is tried again (twice, a few seconds apart) before it is said.
    expect(await screen.findByText('The archived messages could not be loaded.', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    failing.view.unmount();

    await renderPortal('/teams/archive', {
      'legacy.workers.client': client,
      'apollo.archive.teams': respond('apollo.archive.teams', []),
    });
    expect((await screen.findByTestId('teams-archive-empty')).textContent).toBe(
      'Nothing has been archived from Teams yet.',
    );
  });
});
