import type {
  ArchivedMail,
  ArchivedMailboxItem,
  ArchivedMailboxItemRow,
  ArchivedMailboxItemsBrowse,
  JobCreate,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../components/ui/save-blob';
import { storeUser, storeWorker } from '../../session/storage';
import { createdJob, testClient, testLocation, testMailbox, testPage, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

// jsdom cannot download: the saved file is caught here.
vi.mock('../../components/ui/save-blob', () => ({ saveBlob: vi.fn() }));

startMsw();

const signIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};

const row = (over: Partial<ArchivedMailboxItemRow> = {}): ArchivedMailboxItemRow => ({
  itemId: 'e1',
  kind: 'event',
  title: 'Quarterly review',
  container: 'Calendar',
  start: '2026-11-03T09:00:00.000Z',
  end: '2026-11-03T10:00:00.000Z',
  organizer: 'Megan Bowen',
  attendees: 3,
  email: null,
  status: null,
  due: null,
  versions: 2,
  deleted: false,
  deletedAt: null,
  archivedAt: '2026-11-04T08:00:00.000Z',
  ...over,
});

const event: ArchivedMailboxItem = {
  itemId: 'e1',
  kind: 'event',
  mailboxId: 'm1',
  container: 'Calendar',
  version: 2,
  jobId: 'archive-job',
  deleted: false,
  deletedAt: null,
  versions: [
    { version: 2, title: 'Quarterly review', archivedAt: '2026-11-04T08:00:00.000Z', deletedAt: null, sizeBytes: 900 },
    { version: 1, title: 'Review', archivedAt: '2026-11-02T08:00:00.000Z', deletedAt: null, sizeBytes: 800 },
  ],
  event: {
    subject: 'Quarterly review',
    eventType: 'seriesMaster',
    organizer: { name: 'Megan Bowen', address: 'megan@contoso.example', type: null, response: null },
    attendees: [
      { name: 'Alex Wilber', address: 'alex@contoso.example', type: 'required', response: 'accepted' },
      { name: 'Lee Gu', address: 'lee@contoso.example', type: 'optional', response: 'declined' },
    ],
    start: '2026-11-03T09:00:00.000Z',
    end: '2026-11-03T10:00:00.000Z',
    isAllDay: false,
    timeZone: 'W. Europe Standard Time',
    location: 'Room 12',
    recurrence: {
      type: 'weekly',
      interval: 2,
      daysOfWeek: ['monday', 'thursday'],
      dayOfMonth: 0,
      month: 0,
      index: null,
      range: 'numbered',
      startDate: '2026-11-03',
      endDate: null,
      occurrences: 6,
    },
    body: 'Figures <b>first</b>.',
    attachments: [{ name: 'agenda.pdf', contentType: 'application/pdf', sizeBytes: 2048, url: null }],
  },
  contact: null,
  task: null,
};

const contact: ArchivedMailboxItem = {
  itemId: 'c1',
  kind: 'contact',
  mailboxId: 'm1',
  container: 'Contacts/Suppliers',
  version: 1,
  jobId: 'archive-job',
  deleted: true,
  deletedAt: '2026-11-05T08:00:00.000Z',
  versions: [
    {
      version: 1,
      title: 'Pradeep Gupta',
      archivedAt: '2026-11-02T08:00:00.000Z',
      deletedAt: '2026-11-05T08:00:00.000Z',
      sizeBytes: 700,
    },
  ],
  event: null,
  contact: {
    displayName: 'Pradeep Gupta',
    givenName: 'Pradeep',
    middleName: '',
    surname: 'Gupta',
    emails: [{ name: 'Pradeep Gupta', address: 'pradeep@fabrikam.example' }],
    phones: [{ kind: 'mobile', number: '+49 170 1234567' }],
    addresses: [
      {
        kind: 'business',
        street: 'Hauptstr. 1',
        city: 'Berlin',
        state: '',
        postalCode: '10115',
        countryOrRegion: 'DE',
      },
    ],
    companyName: 'Fabrikam',
    department: 'Sales',
    jobTitle: 'Buyer',
    birthday: null,
    notes: '',
  },
  task: null,
};

/** The answers the mailbox's archive page reads, and what it asked for. */
function answers(asked: { browse: ArchivedMailboxItemsBrowse[]; items: unknown[] }): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'legacy.mailboxes.list': respond('legacy.mailboxes.list', testPage([testMailbox()])),
    'legacy.mailboxes.meta': respond('legacy.mailboxes.meta', {
      mailboxId: 'm1',
      folders: [],
      oldest: null,
      newest: null,
    }),
    'apollo.archive.browseMail': respond('apollo.archive.browseMail', testPage<ArchivedMail>([])),
    'apollo.archive.browseMailboxItems': async ({ request }) => {
      const body = (await request.json()) as ArchivedMailboxItemsBrowse;
      asked.browse.push(body);
      return HttpResponse.json(
        body.kind === 'event'
          ? testPage([
              row(),
              row({ itemId: 'e2', title: 'Lunch', deleted: true, deletedAt: '2026-11-05T08:00:00.000Z' }),
            ])
          : testPage([
              row({
                itemId: 'c1',
                kind: 'contact',
                title: 'Pradeep Gupta',
                container: 'Contacts/Suppliers',
                start: null,
                end: null,
                organizer: null,
                attendees: null,
                email: 'pradeep@fabrikam.example',
                versions: 1,
                deleted: true,
                deletedAt: '2026-11-05T08:00:00.000Z',
              }),
            ]),
      );
    },
    'apollo.archive.mailboxItem': async ({ request }) => {
      const body = (await request.json()) as { kind: string; version?: number };
      asked.items.push(body);
      if (body.kind === 'contact') return HttpResponse.json(contact);
      return HttpResponse.json(body.version === 1 ? { ...event, version: 1 } : event);
    },
    'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
    'apollo.discovery.users': respond('apollo.discovery.users', {
      items: [
        {
          sourceId: 'm1',
          kind: 'mailbox',
          displayName: 'Adele Vance',
          email: 'adele@contoso.example',
          protected: true,
        },
        { sourceId: 'm2', kind: 'mailbox', displayName: 'Alex Wilber', email: 'alex@contoso.example', protected: true },
      ],
      total: 2,
      page: 1,
      pageSize: 500,
    }),
  };
}

describe('a mailbox’s archived calendar, contacts and tasks', () => {
  it('switches tabs by keyboard, keeps the tab in the address and lists the items, deleted ones marked', async () => {
    signIn();
    const asked = { browse: [] as ArchivedMailboxItemsBrowse[], items: [] as unknown[] };
    const { user, portal } = await renderPortal('/archive/mailboxes/m1', answers(asked));
    const tabs = await screen.findByRole('tablist', { name: 'What is archived of the mailbox' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Mail', 'Calendar', 'Contacts', 'Tasks']);
    // By keyboard: from the chosen tab, the arrow key goes to the next and Enter chooses it.
    await user.click(within(tabs).getByRole('tab', { name: 'Mail' }));
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Calendar'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(portal.router.state.location.search).toMatchObject({ tab: 'calendar' }));
    expect(within(tabs).getByRole('tab', { name: 'Calendar' }).getAttribute('aria-selected')).toBe('true');
    expect((await screen.findByTestId('items-protects')).textContent).toContain(
      "The archive keeps this mailbox's calendars",
    );
    const table = await screen.findByRole('table', { name: 'Archived calendar events' });
    await waitFor(() => expect(asked.browse.at(-1)).toMatchObject({ mailboxId: 'm1', kind: 'event', sort: 'start' }));
    const review = within(table).getByRole('row', { name: /Quarterly review/ });
    expect(within(review).getByText('2 versions')).toBeTruthy();
    expect(within(review).getByText('3 attendees')).toBeTruthy();
    expect(within(review).queryByText('Deleted')).toBeNull();
    expect(within(within(table).getByRole('row', { name: /Lunch/ })).getByText('Deleted')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Deleted or not'), 'deleted');
    await waitFor(() => expect(asked.browse.at(-1)).toMatchObject({ kind: 'event', deleted: true, page: 1 }));
    await user.type(screen.getByLabelText('Search subject or calendar'), 'review');
    await waitFor(() => expect(asked.browse.at(-1)).toMatchObject({ search: 'review', deleted: true }));
    expect(portal.router.state.location.search).toMatchObject({
      tab: 'calendar',
      deleted: 'deleted',
      search: 'review',
    });

    // Another tab starts its own list afresh.
    await user.click(within(tabs).getByRole('tab', { name: 'Contacts' }));
    await waitFor(() => expect(asked.browse.at(-1)).toMatchObject({ kind: 'contact', sort: 'title', order: 'asc' }));
    expect(asked.browse.at(-1)?.search).toBeUndefined();
    expect(portal.router.state.location.search).toEqual({ tab: 'contacts' });
  });

  it('opens an event with its attendees, series in words and versions, and downloads it as .ics', async () => {
    signIn();
    const asked = { browse: [] as ArchivedMailboxItemsBrowse[], items: [] as unknown[] };
    const files: unknown[] = [];
    const { user } = await renderPortal('/archive/mailboxes/m1?tab=calendar', {
      ...answers(asked),
      'apollo.archive.mailboxItemFile': async ({ request }) => {
        files.push(await request.json());
        return new HttpResponse('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', {
          headers: {
            'Content-Type': 'text/calendar; charset=utf-8',
            'Content-Disposition': 'attachment; filename="Quarterly review.ics"',
          },
        });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Quarterly review' }));
    const drawer = await screen.findByRole('dialog');
    const fields = await within(drawer).findByTestId('item-fields');
    expect(fields.textContent).toContain('Organiser Megan Bowen <megan@contoso.example>');
    expect(fields.textContent).toContain('Location Room 12');
    expect(fields.textContent).toContain('Repeats Every 2 weeks on Monday and Thursday, from');
    expect(fields.textContent).toContain('6 times');
    expect(
      Array.from(
        within(drawer).getByRole('list', { name: 'Attendees' }).querySelectorAll('li'),
        (li) => li.textContent,
      ),
    ).toEqual([
      'Alex Wilber <alex@contoso.example> (required) · Accepted',
      'Lee Gu <lee@contoso.example> (optional) · Declined',
    ]);
    expect(within(drawer).getByRole('list', { name: 'Attachments' }).textContent).toBe('agenda.pdf (2 KB)');
    const body = within(drawer).getByTestId('item-body');
    expect(body.textContent).toBe('Figures <b>first</b>.');
    expect(body.querySelector('b')).toBeNull();

    const versions = within(drawer).getByLabelText('Version shown');
    expect(
      within(versions)
        .getAllByRole('option')
        .map((o) => o.textContent?.split(',')[0]),
    ).toEqual(['Version 2 (latest)', 'Version 1']);
    await user.selectOptions(versions, '1');
    await waitFor(() =>
      expect(asked.items.at(-1)).toEqual({ mailboxId: 'm1', kind: 'event', itemId: 'e1', version: 1 }),
    );

    await user.click(within(drawer).getByRole('button', { name: 'Download (.ics)' }));
    await waitFor(() => expect(vi.mocked(saveBlob)).toHaveBeenCalled());
    expect(files).toEqual([{ mailboxId: 'm1', kind: 'event', itemId: 'e1' }]);
    expect(vi.mocked(saveBlob).mock.calls.at(-1)?.[1]).toBe('Quarterly review.ics');

    // Its restore says beforehand that Microsoft 365 invites the attendees again.
    await user.click(within(drawer).getByRole('button', { name: 'Restore…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(
      'Microsoft 365 sends the attendees the invitation again and their answers start anew',
    );
  });

  it('restores a deleted contact into its own mailbox as a restore job of its archive job, with the policy chosen', async () => {
    signIn();
    const asked = { browse: [] as ArchivedMailboxItemsBrowse[], items: [] as unknown[] };
    let created: JobCreate | undefined;
    const { user } = await renderPortal('/archive/mailboxes/m1?tab=contacts', {
      ...answers(asked),
      'apollo.jobs.create': async ({ request }) => {
        created = (await request.json()) as JobCreate;
        return HttpResponse.json(createdJob(created));
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Pradeep Gupta' }));
    const drawer = await screen.findByRole('dialog');
    expect((await within(drawer).findByTestId('item-deleted')).textContent).toContain('Deleted in the mailbox on');
    const fields = within(drawer).getByTestId('item-fields');
    expect(fields.textContent).toContain('Company Fabrikam, Sales');
    expect(within(drawer).getByRole('list', { name: 'Phone numbers' }).textContent).toBe('Mobile: +49 170 1234567');
    expect(within(drawer).getByRole('list', { name: 'Addresses' }).textContent).toBe(
      'Business: Hauptstr. 1, 10115 Berlin, DE',
    );
    expect(within(drawer).getByRole('button', { name: 'Download (.vcf)' })).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: 'Restore…' }));

    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading', { name: 'Restore 1 item from Adele Vance?' })).toBeTruthy();
    expect(dialog.textContent).toContain('The contact "Pradeep Gupta" is put back into its folder');
    const into = within(dialog).getByLabelText('Into the mailbox');
    await waitFor(() =>
      expect(
        within(into)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Adele Vance (the original mailbox)', 'Alex Wilber']),
    );
    // A contact invites nobody; another mailbox says where in it the contact goes.
    expect(dialog.textContent).not.toContain('sends the attendees the invitation again');
    await user.selectOptions(into, 'Alex Wilber');
    expect(dialog.textContent).toContain('a contact folder named "Restored"');
    await user.selectOptions(into, 'Adele Vance (the original mailbox)');
    expect(dialog.textContent).not.toContain('named "Restored"');
    const policy = within(dialog).getByLabelText('When it is there already');
    expect((policy as HTMLSelectElement).value).toBe('keepBoth');
    await user.selectOptions(policy, 'overwrite');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      type: 'restore',
      application: 'exchange',
      sources: ['m1'],
      restore: {
        sourceJobId: 'archive-job',
        sourceId: 'm1',
        nodeIds: ['contact:c1'],
        target: 'original',
        conflictPolicy: 'overwrite',
      },
    });
    expect(created?.restore?.targetId).toBeUndefined();
    const started = await screen.findByTestId('restore-started');
    expect(started.textContent).toContain('Restoring "Pradeep Gupta" into Adele Vance.');
  });

  it('says so in words when the caller may not read the mailbox', async () => {
    signIn();
    const asked = { browse: [] as ArchivedMailboxItemsBrowse[], items: [] as unknown[] };
    await renderPortal('/archive/mailboxes/m1?tab=tasks', {
      ...answers(asked),
      'apollo.archive.browseMailboxItems': () =>
        refuse(403, { message: "You need a proxy right to read this mailbox's archive." }),
    });
    expect((await screen.findByTestId('items-refused')).textContent).toContain('You need a proxy right');
  });
});
