import type {
  EdiscoveryCase,
  EdiscoveryCaseCreate,
  EdiscoveryEventPreview,
  EdiscoveryHit,
  EdiscoveryPreview,
  EdiscoverySearch,
  RestoreEmailRequest,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testLocation, testWorker } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const client = respond('legacy.workers.client', testClient());
const hit: EdiscoveryHit = {
  itemId: '42',
  kind: 'mail',
  source: 'm1',
  sourceName: 'Adele Vance',
  container: 'Inbox',
  subject: 'Quarterly figures',
  sender: 'megan@contoso.example',
  recipients: 'adele@contoso.example',
  sentAt: '2026-11-01T09:00:00.000Z',
  sizeBytes: 2048,
  hasAttachments: false,
  // As the server answers it: the mail's text escaped, its own <mark> around the hits.
  snippet: 'the <mark>quarterly</mark> &lt;img src=x onerror=alert(1)&gt; &amp;lt;b&amp;gt; &quot;figures&quot;',
};

const preview: EdiscoveryPreview = {
  itemId: '42',
  kind: 'mail',
  subject: 'Quarterly figures',
  sender: 'megan@contoso.example',
  recipients: 'adele@contoso.example',
  sentAt: '2026-11-01T09:00:00.000Z',
  body: 'Here are the quarterly figures.',
};

describe('eDiscovery', () => {
  it('searches with the criteria, marks the hits without running markup, previews and saves a case', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const bodies: EdiscoverySearch[] = [];
    let saved: EdiscoveryCaseCreate | undefined;
    let restored: RestoreEmailRequest | undefined;
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': () =>
        HttpResponse.json(
          saved
            ? [
                {
                  caseId: 'k1',
                  createdBy: 'admin@example.com',
                  createdAt: '2026-11-23T00:00:00.000Z',
                  hits: 1,
                  hold: null,
                  custodians: [],
                  ...saved,
                },
              ]
            : [],
        ),
      'apollo.ediscovery.search': async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ items: [hit], total: 1, page: 1, pageSize: 25, searchedMailboxes: 1 });
      },
      'apollo.ediscovery.preview': respond('apollo.ediscovery.preview', preview),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', {
        items: [
          {
            sourceId: 'm2',
            kind: 'mailbox',
            displayName: 'Alex Wilber',
            email: 'alex@contoso.example',
            protected: true,
          },
        ],
        total: 1,
        page: 1,
        pageSize: 500,
      }),
      'legacy.email.restore': async ({ request }) => {
        restored = await request.json();
        return HttpResponse.json({ jobId: 'j9', reportId: 'r9' }, { status: 202 });
      },
      'apollo.ediscovery.createCase': async ({ request }) => {
        saved = await request.json();
        return HttpResponse.json(
          {
            caseId: 'k1',
            createdBy: 'admin@example.com',
            createdAt: '2026-11-23T00:00:00.000Z',
            hits: 1,
            hold: null,
            custodians: [],
            ...saved,
          },
          { status: 201 },
        );
      },
    });
    await user.type(await screen.findByLabelText('Search', { selector: 'input' }), '"quarterly figures" from:megan');
    await user.click(screen.getByRole('checkbox', { name: 'Teams messages' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      query: '"quarterly figures" from:megan',
      kinds: ['mail', 'events'],
      page: 1,
      pageSize: 25,
    });

    const snippet = await screen.findByTestId('snippet');
    expect(within(snippet).getByText('quarterly').tagName).toBe('MARK');
    expect(snippet.querySelector('img')).toBeNull();
    // The mail's text as it was written, escaped once and unescaped once.
    expect(snippet.textContent).toBe('the quarterly <img src=x onerror=alert(1)> &lt;b&gt; "figures"');
    expect(screen.getByTestId('searched-mailboxes').textContent).toBe('Mail searched in 1 mailbox');

    await user.click(screen.getByRole('button', { name: 'Quarterly figures' }));
    expect((await screen.findByTestId('preview-body')).textContent).toBe('Here are the quarterly figures.');
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Save as case' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Case name/), 'Figures');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toBeDefined());
    expect(saved).toEqual({
      name: 'Figures',
      search: { query: '"quarterly figures" from:megan', kinds: ['mail', 'events'] },
    });
    expect(await screen.findByRole('table', { name: 'Cases' })).toBeTruthy();

    // Restore the chosen mail into another mailbox's folder.
    await user.click(screen.getByLabelText('Select Quarterly figures'));
    await user.click(screen.getByRole('button', { name: 'Restore mails…' }));
    const restore = await screen.findByRole('alertdialog');
    const into = within(restore).getByLabelText('Into the mailbox');
    await waitFor(() => expect(within(into).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(into, 'm2');
    await user.click(within(restore).getByRole('button', { name: 'Restore mails' }));
    await waitFor(() =>
      expect(restored).toEqual({
        workerIp: '10.64.0.2',
        mailboxId: 'm1',
        messageIds: ['42'],
        targetMailbox: 'm2',
        targetFolder: 'Restored',
      }),
    );
  });
});

describe('eDiscovery’s checks', () => {
  it('refuse a "from" after "to" on the field and search nothing with it, keeping the last results', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const bodies: EdiscoverySearch[] = [];
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.search': async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ items: [hit], total: 1, page: 1, pageSize: 25, searchedMailboxes: 1 });
      },
      'apollo.locations.list': respond('apollo.locations.list', []),
    });
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    await screen.findByTestId('snippet');
    expect(bodies).toHaveLength(1);

    const to = screen.getByLabelText('To');
    // The date field, not the results' column of the same name.
    const from = screen.getAllByLabelText('From').find((el) => el.tagName === 'INPUT');
    if (!from) throw new Error('no "From" field');
    await user.type(from, '2026-11-10');
    await user.type(to, '2026-11-01');
    expect(screen.getByText("Must be greater or less than another field's value.")).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    // The message is the field's error message, announced as it appears.
    const message = screen.getByText("Must be greater or less than another field's value.");
    await waitFor(() => expect(to.getAttribute('aria-errormessage')).toBe(message.id));
    expect(message.getAttribute('aria-live')).toBe('polite');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.type(screen.getByLabelText('Search', { selector: 'input' }), 'figures{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bodies).toHaveLength(1);
    expect(bodies.some((b) => b.from !== undefined || b.to !== undefined)).toBe(false);
    expect(screen.getByTestId('snippet')).toBeTruthy();

    await user.clear(to);
    await user.type(to, '2026-11-20');
    expect(screen.queryByText("Must be greater or less than another field's value.")).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]?.query).toBe('figures');
    expect(bodies[1]?.from).toBeDefined();
    expect(bodies[1]?.to).toBeDefined();
  });

  it('need a case name', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    let saved = 0;
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
        items: [hit],
        total: 1,
        page: 1,
        pageSize: 25,
        searchedMailboxes: 1,
      }),
      'apollo.locations.list': respond('apollo.locations.list', []),
      'apollo.ediscovery.createCase': () => {
        saved += 1;
        return refuse(500, { message: 'not expected' });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    await screen.findByTestId('snippet');
    await user.click(screen.getByRole('button', { name: 'Save as case' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Field must not be empty.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Case name/), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Field must not be empty.')).toBeTruthy();
    expect(saved).toBe(0);
  });
});

describe('eDiscovery results from strangers', () => {
  it('show a hostile subject and snippet as text, with only the server’s marks highlighted', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const hostile: EdiscoveryHit = {
      ...hit,
      subject: '<img src=x onerror=alert(1)> <mark>Invoice</mark>',
      snippet:
        'pay the <mark>invoice</mark> &lt;script&gt;alert(2)&lt;/script&gt; &lt;mark&gt;now&lt;/mark&gt; &amp; ' +
        '<mark>invoice</mark> again',
    };
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
        items: [hostile],
        total: 1,
        page: 1,
        pageSize: 25,
        searchedMailboxes: 1,
      }),
      'apollo.locations.list': respond('apollo.locations.list', []),
    });
    await user.type(await screen.findByLabelText('Search', { selector: 'input' }), 'invoice');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const snippet = await screen.findByTestId('snippet');
    const row = snippet.closest('tr') as HTMLElement;
    expect(row.querySelector('img, script')).toBeNull();
    expect(within(row).getByRole('button', { name: hostile.subject })).toBeTruthy();
    // Two hits marked; the mail's own "<mark>" is text.
    expect([...snippet.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['invoice', 'invoice']);
    expect(snippet.textContent).toBe('pay the invoice <script>alert(2)</script> <mark>now</mark> & invoice again');
  });
});

describe('eDiscovery without a proxy right', () => {
  it('says why a mail’s preview or restore was refused', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const refusal = () => refuse(403, { message: "You need a proxy right to read this mailbox's archive." });
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
        items: [hit],
        total: 1,
        page: 1,
        pageSize: 25,
        searchedMailboxes: 1,
      }),
      'apollo.ediscovery.preview': () =>
        refuse(403, {
          title: 'Forbidden',
          status: 403,
          detail: "You need a proxy right to read this mailbox's archive.",
          message: "You need a proxy right to read this mailbox's archive.",
        }),
      'apollo.locations.list': respond('apollo.locations.list', []),
      'legacy.email.restore': refusal,
    });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByTestId('snippet');
    await user.click(screen.getByRole('button', { name: 'Quarterly figures' }));
    const drawer = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(within(drawer).getByRole('alert').textContent).toContain(
        "You need a proxy right to read this mailbox's archive.",
      ),
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByLabelText('Select Quarterly figures'));
    await user.click(screen.getByRole('button', { name: 'Restore mails…' }));
    const restore = await screen.findByRole('alertdialog');
    await user.click(within(restore).getByRole('button', { name: 'Restore mails' }));
    await waitFor(() =>
      expect(within(restore).getByRole('alert').textContent).toContain(
        "You need a proxy right to read this mailbox's archive.",
      ),
    );
    expect(screen.queryByText('Access denied')).toBeNull();
  });
});

describe('eDiscovery results of Teams chats', () => {
  it('are marked as chats and named by the chat, without a channel', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const chatHit: EdiscoveryHit = {
      ...hit,
      itemId: '77',
      kind: 'teams',
      chat: true,
      source: '19:abc@thread.v2',
      sourceName: 'Budget planning',
      container: '',
      subject: '',
      snippet: 'the <mark>budget</mark> for next year',
    };
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
        items: [chatHit],
        total: 1,
        page: 1,
        pageSize: 25,
        searchedMailboxes: 1,
      }),
      'apollo.locations.list': respond('apollo.locations.list', []),
    });
    await user.type(await screen.findByLabelText('Search', { selector: 'input' }), 'budget');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const row = (await screen.findByTestId('snippet')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Teams chat')).toBeTruthy();
    expect(within(row).getByText('Budget planning')).toBeTruthy();
    expect(row.textContent).not.toContain('·');
  });
});

describe('eDiscovery results of calendar events', () => {
  const eventHit: EdiscoveryHit = {
    itemId: 'AAMkAGI1AAAt9AHjAAA=',
    kind: 'event',
    source: 'm1',
    sourceName: 'Adele Vance',
    container: 'Calendar',
    subject: 'Budget review',
    sender: 'Megan Bowen <megan@contoso.example>',
    recipients: 'Adele Vance <adele@contoso.example>, Room 4 <room4@contoso.example>',
    sentAt: '2026-11-03T14:00:00.000Z',
    endsAt: '2026-11-03T15:00:00.000Z',
    sizeBytes: 1500,
    hasAttachments: true,
    snippet: 'Room 4 · Adele Vance &lt;adele@contoso.example&gt;',
  };
  const eventPreview: EdiscoveryEventPreview = {
    eventId: eventHit.itemId,
    mailbox: 'm1',
    calendar: 'Calendar',
    subject: 'Budget review',
    organizer: 'Megan Bowen <megan@contoso.example>',
    attendees: [
      { name: 'Adele Vance', address: 'adele@contoso.example', type: 'required', response: 'accepted' },
      { name: 'Room 4', address: 'room4@contoso.example', type: 'resource', response: 'tentativelyAccepted' },
    ],
    start: '2026-11-03T14:00:00.000Z',
    end: '2026-11-03T15:00:00.000Z',
    isAllDay: false,
    location: 'Room 4',
    body: 'The budget for next year.',
    attachments: ['budget.xlsx'],
    deletedAt: null,
  };
  const resolvers = (preview: EdiscoveryEventPreview, calls: string[] = [], searchedMailboxes = 1): Resolvers => ({
    'legacy.workers.client': client,
    'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
    'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
      items: searchedMailboxes > 0 ? [eventHit] : [],
      total: searchedMailboxes > 0 ? 1 : 0,
      page: 1,
      pageSize: 25,
      searchedMailboxes,
    }),
    'apollo.ediscovery.eventPreview': ({ params }) => {
      calls.push(`preview ${params.mailboxId} ${params.eventId}`);
      return HttpResponse.json(preview);
    },
    'apollo.ediscovery.eventFile': ({ params }) => {
      calls.push(`ics ${params.mailboxId} ${params.eventId}`);
      return new HttpResponse('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', {
        headers: { 'Content-Type': 'text/calendar', 'Content-Disposition': 'attachment; filename="Budget review.ics"' },
      });
    },
    'apollo.locations.list': respond('apollo.locations.list', []),
  });

  it('are searched with mail, marked as events with their organiser and start, and previewed with .ics', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const calls: string[] = [];
    const { user } = await renderPortal('/ediscovery/portal', resolvers(eventPreview, calls));
    expect(((await screen.findByRole('checkbox', { name: 'Calendar events' })) as HTMLInputElement).checked).toBe(true);
    await user.type(screen.getByLabelText('Search', { selector: 'input' }), 'budget');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const row = (await screen.findByTestId('snippet')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Event')).toBeTruthy();
    expect(within(row).getByText('Megan Bowen <megan@contoso.example>')).toBeTruthy();
    expect(within(row).getByText('Adele Vance · Calendar')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Sent or starts' })).toBeTruthy();
    // An event is not a mail: it cannot be restored from here.
    await user.click(within(row).getByLabelText('Select Budget review'));
    expect((screen.getByRole('button', { name: 'Restore mails…' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(row).getByRole('button', { name: 'Budget review' }));
    const drawer = await screen.findByRole('dialog');
    expect((await within(drawer).findByTestId('preview-body')).textContent).toBe('The budget for next year.');
    expect(drawer.textContent).toContain('Organiser Megan Bowen <megan@contoso.example>');
    expect(drawer.textContent).toContain('Location Room 4');
    expect(drawer.textContent).toContain('Attachments budget.xlsx');
    expect(within(drawer).getByTestId('event-when').textContent).toMatch(/^When .*2026.* – .*2026/);
    expect(
      within(within(drawer).getByTestId('event-attendees'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Adele Vance <adele@contoso.example> · Required · Accepted',
      'Room 4 <room4@contoso.example> · Resource · Tentative',
    ]);
    expect(within(drawer).queryByTestId('event-deleted')).toBeNull();
    await user.click(within(drawer).getByRole('button', { name: 'Download as .ics' }));
    // Read by the hit's mailbox and Graph id (the preview may be read again on focus: a read, nothing more).
    await waitFor(() => expect(calls.at(-1)).toBe(`ics m1 ${eventHit.itemId}`));
    expect(new Set(calls)).toEqual(new Set([`preview m1 ${eventHit.itemId}`, `ics m1 ${eventHit.itemId}`]));
  });

  it('say that no mailbox may be read when only events are searched and none is open to the reader', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const { user } = await renderPortal('/ediscovery/portal', resolvers(eventPreview, [], 0));
    await user.click(await screen.findByRole('checkbox', { name: 'Mail' }));
    await user.click(screen.getByRole('checkbox', { name: 'Teams messages' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByTestId('no-mailboxes')).toBeTruthy();
  });

  it('read in German, a deleted one said so', async () => {
    localStorage.setItem('language', 'de');
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const deleted = { ...eventPreview, deletedAt: '2026-11-05T08:00:00.000Z' };
    const { user } = await renderPortal('/ediscovery/portal', resolvers(deleted));
    expect(((await screen.findByRole('checkbox', { name: 'Kalendertermine' })) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Suchen' }));
    const row = (await screen.findByTestId('snippet')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Termin')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Gesendet oder Beginn' })).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Budget review' }));
    const drawer = await screen.findByRole('dialog');
    await within(drawer).findByTestId('preview-body');
    expect(drawer.textContent).toContain('Organisator Megan Bowen <megan@contoso.example>');
    expect(drawer.textContent).toContain('Ort Room 4');
    expect(within(drawer).getByTestId('event-attendees').textContent).toContain('Erforderlich · Zugesagt');
    expect(within(drawer).getByTestId('event-attendees').textContent).toContain('Ressource · Mit Vorbehalt');
    expect(within(drawer).getByTestId('event-deleted').textContent).toContain('In Microsoft 365 gelöscht');
    expect(within(drawer).getByRole('button', { name: 'Als .ics herunterladen' })).toBeTruthy();
    localStorage.removeItem('language');
  });
});

describe('eDiscovery offline', () => {
  it('disables searching, saving, restoring, exporting, removing and the .eml download with the reason', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', [
        {
          caseId: 'k1',
          name: 'Figures',
          search: { query: 'quarterly', kinds: ['mail'] },
          createdBy: 'admin@example.com',
          createdAt: '2026-11-23T00:00:00.000Z',
          hits: 1,
          hold: null,
          custodians: [],
        },
      ]),
      'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
        items: [hit],
        total: 1,
        page: 1,
        pageSize: 25,
        searchedMailboxes: 1,
      }),
      'apollo.ediscovery.preview': respond('apollo.ediscovery.preview', preview),
      'apollo.locations.list': respond('apollo.locations.list', []),
    });
    const search = screen.getByRole('button', { name: 'Search' });
    expectServerAction(search, false);
    await user.click(search);
    await screen.findByTestId('snippet');
    await user.click(screen.getByLabelText('Select Quarterly figures'));
    const cases = await screen.findByRole('table', { name: 'Cases' });
    const buttons = [
      search,
      screen.getByRole('button', { name: 'Save as case' }),
      screen.getByRole('button', { name: 'Restore mails…' }),
      within(cases).getByRole('button', { name: 'Export' }),
      within(cases).getByRole('button', { name: 'Remove…' }),
    ];
    await user.click(screen.getByRole('button', { name: 'Quarterly figures' }));
    buttons.push(await screen.findByRole('button', { name: 'Download as .eml' }));
    for (const button of buttons) expectServerAction(button, false);
    setOnline(false);
    for (const button of buttons) expectServerAction(button, true);
    setOnline(true);
    for (const button of buttons) expectServerAction(button, false);
  });
});

describe('eDiscovery in the address', () => {
  const figures = {
    caseId: 'k1',
    name: 'Figures',
    search: { query: 'quarterly', kinds: ['mail' as const] },
    createdBy: 'admin@example.com',
    createdAt: '2026-11-23T00:00:00.000Z',
    hits: 1,
    hold: null,
    custodians: [],
  };

  it('opens on the search and the page of hits the address says, and writes a new search into it', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const bodies: EdiscoverySearch[] = [];
    const { user, portal } = await renderPortal('/ediscovery/portal?q=figures&kinds=mail&page=2', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.search': async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ items: [hit], total: 60, page: 2, pageSize: 25, searchedMailboxes: 1 });
      },
      'apollo.locations.list': respond('apollo.locations.list', []),
    });
    await screen.findByTestId('snippet');
    expect(bodies).toEqual([{ query: 'figures', kinds: ['mail'], page: 2, pageSize: 25 }]);
    const query = screen.getByLabelText('Search', { selector: 'input' }) as HTMLInputElement;
    expect(query.value).toBe('figures');
    expect((screen.getByRole('checkbox', { name: 'Teams messages' }) as HTMLInputElement).checked).toBe(false);

    await user.type(query, ' budget');
    await user.click(screen.getByRole('checkbox', { name: 'Teams messages' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(portal.router.state.location.search).toEqual({ q: 'figures budget', kinds: 'mail,teams' }),
    );
    await waitFor(() =>
      expect(bodies.at(-1)).toEqual({ query: 'figures budget', kinds: ['mail', 'teams'], page: 1, pageSize: 25 }),
    );
  });

  it('opens a case into the address, and shows the case’s search when the address names it', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const bodies: EdiscoverySearch[] = [];
    const resolvers: Resolvers = {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', [figures]),
      'apollo.ediscovery.search': async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ items: [hit], total: 1, page: 1, pageSize: 25, searchedMailboxes: 1 });
      },
      'apollo.locations.list': respond('apollo.locations.list', []),
    };
    const first = await renderPortal('/ediscovery/portal', resolvers);
    const cases = await screen.findByRole('table', { name: 'Cases' });
    await first.user.click(within(cases).getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(first.portal.router.state.location.search).toEqual({ case: 'k1' }));
    await screen.findByTestId('snippet');
    expect(bodies).toEqual([{ query: 'quarterly', kinds: ['mail'], page: 1, pageSize: 25 }]);
    first.view.unmount();

    // The same address, read again: the case's search and its query in the form.
    bodies.length = 0;
    await renderPortal('/ediscovery/portal?case=k1', resolvers);
    await screen.findByTestId('snippet');
    expect(bodies).toEqual([{ query: 'quarterly', kinds: ['mail'], page: 1, pageSize: 25 }]);
    expect((screen.getByLabelText('Search', { selector: 'input' }) as HTMLInputElement).value).toBe('quarterly');
  });
});

describe('eDiscovery legal hold', () => {
  const board = { kind: 'mailbox' as const, id: 'm-board', name: 'Board Room' };
  const megan = { kind: 'chats' as const, id: 'u-megan', name: 'Megan Bowen' };
  const open: Omit<EdiscoveryCase, 'hold'> = {
    caseId: 'k1',
    name: 'Falcon',
    search: { query: 'falcon', kinds: ['mail', 'teams'], mailboxes: ['m-board'], teams: [], chats: ['u-megan'] },
    createdBy: 'admin@example.com',
    createdAt: '2026-11-23T00:00:00.000Z',
    hits: 3,
    custodians: [board, megan],
  };
  const heldHold: NonNullable<EdiscoveryCase['hold']> = {
    heldAt: '2026-11-24T09:30:00.000Z',
    heldBy: 'admin@example.com',
    items: 3,
    custodians: [
      { ...board, items: 2 },
      { ...megan, items: 1 },
    ],
  };
  /** Cases as the server keeps them: held and released by the endpoints; the caller a manager or not. */
  const resolvers = (
    state: { hold: typeof heldHold | null; manager?: boolean; cases?: EdiscoveryCase[] },
    calls: string[],
  ): Resolvers => ({
    'legacy.workers.client': client,
    'apollo.ediscovery.rights': respond('apollo.ediscovery.rights', { ediscoveryManager: state.manager ?? true }),
    'apollo.ediscovery.cases': () => HttpResponse.json(state.cases ?? [{ ...open, hold: state.hold }]),
    'apollo.ediscovery.holdCase': ({ params }) => {
      calls.push(`hold ${String(params.caseId)}`);
      state.hold = heldHold;
      return HttpResponse.json({ ...open, hold: state.hold });
    },
    'apollo.ediscovery.releaseCase': ({ params }) => {
      calls.push(`release ${String(params.caseId)}`);
      state.hold = null;
      return HttpResponse.json({ ...open, hold: null });
    },
    'apollo.ediscovery.deleteCase': () => {
      calls.push('delete');
      return new HttpResponse(null, { status: 204 });
    },
    'apollo.locations.list': respond('apollo.locations.list', []),
  });

  it('holds a case, shows since when and how many items, keeps it from removal, and releases it after asking', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const calls: string[] = [];
    const state = { hold: null as typeof heldHold | null };
    const { user } = await renderPortal('/ediscovery/portal', resolvers(state, calls));
    const cases = await screen.findByRole('table', { name: 'Cases' });
    expect(within(cases).getByText('Not held')).toBeTruthy();
    expect((within(cases).getByRole('button', { name: 'Remove…' }) as HTMLButtonElement).disabled).toBe(false);

    await user.click(within(cases).getByRole('button', { name: 'Put the case "Falcon" on legal hold' }));
    const placing = await screen.findByRole('alertdialog');
    await user.click(within(placing).getByRole('button', { name: 'Place legal hold' }));
    await waitFor(() => expect(calls).toEqual(['hold k1']));
    const badge = await within(cases).findByTestId('hold-badge');
    expect(badge.textContent).toContain('Legal hold');
    expect(badge.textContent).toContain('3 items');
    expect(badge.textContent).toContain('On hold since');
    const remove = within(cases).getByRole('button', { name: 'Remove…' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    expect(remove.getAttribute('title')).toBe('A case on legal hold cannot be removed; release the hold first.');
    const reason = document.getElementById(remove.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('A case on legal hold cannot be removed; release the hold first.');

    // Release asks first; Cancel changes nothing.
    await user.click(within(cases).getByRole('button', { name: 'Release the legal hold of the case "Falcon"' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('the 3 items the hold keeps');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual(['hold k1']);

    await user.click(within(cases).getByRole('button', { name: 'Release the legal hold of the case "Falcon"' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByTestId('confirm'));
    await waitFor(() => expect(calls).toEqual(['hold k1', 'release k1']));
    await waitFor(() => expect(within(cases).queryByTestId('hold-badge')).toBeNull());
    expect((within(cases).getByRole('button', { name: 'Remove…' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('reads in German, keyboard first', async () => {
    localStorage.setItem('language', 'de');
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const calls: string[] = [];
    const { user } = await renderPortal('/ediscovery/portal', resolvers({ hold: heldHold }, calls));
    const cases = await screen.findByRole('table', { name: 'Fälle' });
    expect((await within(cases).findByTestId('hold-badge')).textContent).toContain('Unter Legal Hold seit');
    expect(within(cases).getByTestId('hold-badge').textContent).toContain('3 Elemente');
    const release = within(cases).getByRole('button', { name: 'Den Legal Hold des Falls „Falcon“ aufheben' });
    release.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Den Legal Hold von „Falcon“ aufheben?')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual([]);
    localStorage.removeItem('language');
  });

  it('lists the custodians by name and, once held, the items the hold keeps of each', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const state = { hold: null as typeof heldHold | null };
    const { user } = await renderPortal('/ediscovery/portal', resolvers(state, []));
    const cases = await screen.findByRole('table', { name: 'Cases' });
    expect(within(cases).getAllByTestId('custodian-names')[0]?.textContent).toBe('Board Room, Megan Bowen');
    await user.click(within(cases).getByRole('button', { name: 'Details of the case "Falcon"' }));
    let drawer = await screen.findByRole('dialog', { name: 'Case "Falcon"' });
    let rows = within(within(drawer).getByRole('table', { name: 'Custodians' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['CustodianCovers', 'Board RoomMailbox', 'Megan BowenChats']);
    expect(within(drawer).getByTestId('case-hold').textContent).toBe('Not held');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(cases).getByRole('button', { name: 'Put the case "Falcon" on legal hold' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Place legal hold' }));
    await within(cases).findByTestId('hold-badge');
    await user.click(within(cases).getByRole('button', { name: 'Details of the case "Falcon"' }));
    drawer = await screen.findByRole('dialog', { name: 'Case "Falcon"' });
    rows = within(within(drawer).getByRole('table', { name: 'Custodians' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'CustodianCoversItems held',
      'Board RoomMailbox2',
      'Megan BowenChats1',
    ]);
    expect(within(drawer).getByTestId('case-hold').textContent).toContain('3 items');
    expect(drawer.textContent).not.toMatch(/m-board|u-megan/);
  });

  it('names the custodians and the items held of each in German', async () => {
    localStorage.setItem('language', 'de');
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const { user } = await renderPortal('/ediscovery/portal', resolvers({ hold: heldHold }, []));
    const cases = await screen.findByRole('table', { name: 'Fälle' });
    await user.click(within(cases).getByRole('button', { name: 'Details des Falls „Falcon“' }));
    const drawer = await screen.findByRole('dialog', { name: 'Fall „Falcon“' });
    const rows = within(within(drawer).getByRole('table', { name: 'Verwahrer' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'VerwahrerUmfasstBewahrte Elemente',
      'Board RoomPostfach2',
      'Megan BowenChats1',
    ]);
    localStorage.removeItem('language');
  });

  it('disables Hold and Release for who is not an eDiscovery manager, and says why', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const calls: string[] = [];
    const second = { ...open, caseId: 'k2', name: 'Merger', hold: heldHold };
    await renderPortal(
      '/ediscovery/portal',
      resolvers({ hold: null, manager: false, cases: [{ ...open, hold: null }, second] }, calls),
    );
    const cases = await screen.findByRole('table', { name: 'Cases' });
    const reason =
      'Only eDiscovery managers place and release legal holds. An administrator grants the role under Configuration › Users.';
    expect((await screen.findByTestId('needs-manager')).textContent).toBe(reason);
    for (const name of ['Put the case "Falcon" on legal hold', 'Release the legal hold of the case "Merger"']) {
      const button = within(cases).getByRole('button', { name }) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(button.getAttribute('title')).toBe(reason);
      expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
    }
    expect(calls).toEqual([]);
  });

  it('disables Hold for a case without custodians, and says why', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const bare = { ...open, search: { query: 'falcon' }, custodians: [], hold: null };
    await renderPortal('/ediscovery/portal', resolvers({ hold: null, cases: [bare] }, []));
    const cases = await screen.findByRole('table', { name: 'Cases' });
    expect(within(cases).getAllByText('No custodians').length).toBeGreaterThan(0);
    const hold = within(cases).getByRole('button', { name: 'Put the case "Falcon" on legal hold' });
    await waitFor(() => expect(hold.getAttribute('title')).toContain('A case without custodians'));
    expect((hold as HTMLButtonElement).disabled).toBe(true);
    expect(document.getElementById(hold.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      hold.getAttribute('title'),
    );
  });
});

describe('eDiscovery case custodians', () => {
  it('saves a case with the custodians picked, and says a refusal in words', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const bodies: EdiscoveryCaseCreate[] = [];
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.rights': respond('apollo.ediscovery.rights', { ediscoveryManager: true }),
      'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
        items: [hit],
        total: 1,
        page: 1,
        pageSize: 25,
        searchedMailboxes: 1,
      }),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': ({ request }) => {
        const teams = new URL(request.url).searchParams.get('application') === 'teams';
        return HttpResponse.json({
          items: [
            teams
              ? { sourceId: 't1', kind: 'team', displayName: 'Project Falcon', protected: false }
              : {
                  sourceId: 'm2',
                  kind: 'mailbox',
                  displayName: 'Alex Wilber',
                  email: 'alex@contoso.example',
                  protected: true,
                },
          ],
          total: 1,
          page: 1,
          pageSize: 10,
        });
      },
      'apollo.ediscovery.createCase': async ({ request }) => {
        bodies.push(await request.json());
        return bodies.length === 1
          ? refuse(404, {
              title: 'Not Found',
              status: 404,
              detail: 'Not a mailbox, team or account of this tenant: m2',
            })
          : refuse(409, { title: 'Conflict', status: 409, message: 'A case with this name already exists.' });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    await screen.findByTestId('snippet');
    await user.click(screen.getByRole('button', { name: 'Save as case' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Case name/), 'Falcon');
    expect(within(dialog).getByTestId('custodian-count').textContent).toContain('No custodian chosen');
    await user.click(await within(dialog).findByLabelText('Select Alex Wilber'));
    await user.click(within(dialog).getByRole('tab', { name: 'Teams (0)' }));
    await user.click(await within(dialog).findByLabelText('Select Project Falcon'));
    await user.click(within(dialog).getByRole('tab', { name: 'Chats (0)' }));
    // The tab shown: the mailboxes' list stays mounted, hidden.
    await user.click(await within(within(dialog).getByRole('tabpanel')).findByLabelText('Select Alex Wilber'));
    expect(within(dialog).getByTestId('custodian-count').textContent).toBe('3 custodians chosen');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'The case was not saved. A custodian chosen is not a mailbox, team or account of this tenant.',
      ),
    ).toBeTruthy();
    expect(bodies[0]).toEqual({
      name: 'Falcon',
      search: { query: '', kinds: ['mail', 'teams', 'events'], mailboxes: ['m2'], teams: ['t1'], chats: ['m2'] },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('The case was not saved. This tenant already has a case of this name.'),
    ).toBeTruthy();
  });
});
