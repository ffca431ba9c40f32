import type {
  DashboardApplication,
  Job,
  JobCreate,
  JobRun,
  JobStatus,
  JobUpdate,
  StorageLocation,
} from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testPage as page, testClient, testWorker } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { isPolling } from '../../testing/polling';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const worker = (license: 'full' | 'trial' = 'full') => testWorker({ cloud_portal_license: license });
function signedIn(license: 'full' | 'trial' = 'full') {
  storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
  storeWorker(worker(license) as never);
}
const clientAnswer = respond('legacy.workers.client', testClient());
/** The server's answer for a trial organisation: the session reads the worker again at start. */
const trialClientAnswer = respond('legacy.workers.client', testClient({ license: 'trial', worker: worker('trial') }));
const period = { periodDays: 30, from: '2026-10-24T00:00:00.000Z', to: '2026-11-23T00:00:00.000Z' };
const job = (over: Partial<Job> = {}): Job => ({
  jobId: 'j1',
  name: 'Nightly OneDrive',
  type: 'backup',
  application: 'onedrive',
  sources: ['u1', 'u2'],
  locationId: 'l1',
  recurrence: { kind: 'daily', hours: [2] },
  retention: { unit: 'months', value: 6 },
  status: 'finished',
  enabled: true,
  progress: 100,
  started: null,
  finished: null,
  nextRun: '2026-11-24T02:00:00.000Z',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});
const location: StorageLocation = {
  locationId: 'l1',
  name: 'Vault',
  siteAddress: 'https://x',
  usedByJobs: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('the backup dashboard', () => {
  it('shows the figures of the last 30 days with the period, a chart and the protected accounts', async () => {
    signedIn();
    const asked: string[] = [];
    await renderPortal('/backup-and-restore/dashboard', {
      'legacy.workers.client': clientAnswer,
      'apollo.dashboards.application': ({ params }) => {
        asked.push(`${params.application}/${params.view}`);
        const base = { ...period, application: params.application as DashboardApplication };
        if (params.view === 'basic')
          return HttpResponse.json({
            ...base,
            view: 'basic',
            protectedCount: 2,
            discoveredCount: 5,
            items: 1234,
            lastSuccessfulJob: { jobId: 'j1', jobName: 'Nightly OneDrive', finished: '2026-11-22T02:10:00.000Z' },
            jobsByStatus: { finished: 7, running: 1, failed: 2, pending: 0 },
          });
        if (params.view === 'size')
          return HttpResponse.json({
            ...base,
            view: 'size',
            storedBytes: 3 * 1024 ** 3,
            growthBytes: 1024 ** 3,
            series: [
              { date: '2026-10-24', bytes: 2 * 1024 ** 3, items: 1000 },
              { date: '2026-11-23', bytes: 3 * 1024 ** 3, items: 1234 },
            ],
          });
        return HttpResponse.json({
          ...base,
          view: 'details',
          entries: [
            {
              sourceId: 'u1',
              displayName: 'Adele Vance',
              items: 600,
              bytes: 1024 ** 3,
              lastBackup: '2026-11-22T02:10:00.000Z',
              lastStatus: 'failed',
            },
          ],
        });
      },
    });
    expect(await screen.findByText('2 / 5')).toBeTruthy();
    expect(screen.getByTestId('figure-Items protected').textContent).toBe('1,234');
    expect(screen.getByTestId('figure-Stored size (after deduplication)').textContent).toBe('3 GB');
    expect(screen.getByText('+1 GB in the period')).toBeTruthy();
    expect(screen.getByTestId('dashboard-period').textContent).toMatch(/^Last 30 days: /);
    expect(
      screen.getByRole('img', { name: /^Stored size at the end of each day \(after deduplication\)/ }),
    ).toBeTruthy();
    expect(screen.getByTestId('bar-failed').textContent).toBe('2 runs');
    expect(
      screen.getByRole('img', {
        name: 'Job runs by status: Finished 7 runs, Running 1 run, Failed 2 runs, Pending 0 runs',
      }),
    ).toBeTruthy();
    const details = screen.getByRole('table', { name: 'Protected accounts' });
    expect(within(details).getByText('Adele Vance')).toBeTruthy();
    expect(within(details).getByText('Failed')).toBeTruthy();
    // Only the open tab's workload is asked for.
    expect([...new Set(asked)].sort()).toEqual(['onedrive/basic', 'onedrive/details', 'onedrive/size']);
  });
});

describe('the backup jobs', () => {
  it('lists jobs, sorts on the server, and removes one only after the confirmation', async () => {
    signedIn();
    const queries: string[] = [];
    let deleted = 0;
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': clientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond('apollo.discovery.users', page([])),
      'apollo.jobs.list': ({ request }) => {
        queries.push(new URL(request.url).search);
        return HttpResponse.json(page([job()]));
      },
      'apollo.jobs.delete': () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      },
    });
    const row = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    expect(within(row).getByText('Daily · 02:00')).toBeTruthy();
    expect(within(row).getByText('6 months')).toBeTruthy();
    expect(within(row).getByText('Vault')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Sort by Name' }));
    await waitFor(() => expect(queries.some((q) => q.includes('sort=name') && q.includes('order=asc'))).toBe(true));

    await user.click(within(row).getByRole('button', { name: 'Remove…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Remove "Nightly OneDrive"?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(deleted).toBe(0);

    await user.click(within(row).getByRole('button', { name: 'Remove…' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(deleted).toBe(1));
    expect(await screen.findByText('"Nightly OneDrive" was removed.')).toBeTruthy();
  });

  it('edits a job through the guided form and sends only what the form changes', async () => {
    signedIn();
    let body: JobUpdate | undefined;
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': clientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond(
        'apollo.discovery.users',
        page([
          { sourceId: 'u1', kind: 'user', displayName: 'Adele Vance', protected: true },
          { sourceId: 'u2', kind: 'user', displayName: 'Alex Wilber', protected: true },
          { sourceId: 'u3', kind: 'user', displayName: 'Megan Bowen', protected: false },
        ]),
      ),
      'apollo.jobs.list': respond('apollo.jobs.list', page([job()])),
      'apollo.jobs.update': async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(job({ ...body }));
      },
    });
    const row = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(/Job name/) as HTMLInputElement;
    expect(name.value).toBe('Nightly OneDrive');
    await user.clear(name);
    await user.type(name, 'Nightly OneDrive (all)');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(await within(dialog).findByLabelText('Select Megan Bowen'));
    expect(within(dialog).getByTestId('selected-count').textContent).toBe('3 selected');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(body).toBeDefined());
    expect(body).toEqual({
      name: 'Nightly OneDrive (all)',
      sources: ['u1', 'u2', 'u3'],
      locationId: 'l1',
      recurrence: { kind: 'daily', hours: [2] },
      retention: { unit: 'months', value: 6 },
    });
    expect(await screen.findByText('The backup job "Nightly OneDrive (all)" was saved.')).toBeTruthy();
  });

  it('shows a trial organisation its limits before it hits them', async () => {
    signedIn('trial');
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': trialClientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond('apollo.discovery.users', page([])),
      'apollo.jobs.list': respond('apollo.jobs.list', page([job()])),
    });
    await user.click(await screen.findByRole('button', { name: 'Understood' }));
    const limits = await screen.findByTestId('trial-limits');
    expect(limits.textContent).toContain('Applications with a job: OneDrive.');
    const row = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    const remove = within(row).getByRole('button', { name: 'Remove…' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    expect(remove.title).toBe('Backup jobs cannot be deleted on a trial licence.');
    // The reason is text on the page, not only a tooltip a phone never shows: the button names it.
    const reason = document.getElementById(remove.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toContain('no deletion');
    expect(limits.contains(reason)).toBe(true);
  });

  it('lets a trial organisation rename and reschedule its job, and offers no other application nor deletion', async () => {
    signedIn('trial');
    let body: JobUpdate | undefined;
    let deleted = 0;
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': trialClientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond(
        'apollo.discovery.users',
        page([
          { sourceId: 'u1', kind: 'user', displayName: 'Adele Vance', protected: true },
          { sourceId: 'u2', kind: 'user', displayName: 'Alex Wilber', protected: true },
        ]),
      ),
      'apollo.jobs.list': respond('apollo.jobs.list', page([job()])),
      'apollo.jobs.update': async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(job({ ...body }));
      },
      'apollo.jobs.delete': () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Understood' }));
    const row = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    // No deletion on a trial licence: the button says why and does nothing.
    const remove = within(row).getByRole('button', { name: 'Remove…' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    await user.click(remove);
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    // The application stays: no other is offered.
    const applications = within(dialog).getAllByRole('radio') as HTMLInputElement[];
    expect(applications.map((r) => [r.value, r.checked, r.disabled])).toEqual([
      ['onedrive', true, true],
      ['sharepoint', false, true],
      ['teams', false, true],
    ]);
    const name = within(dialog).getByLabelText(/Job name/) as HTMLInputElement;
    await user.clear(name);
    await user.type(name, 'Weekly OneDrive');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    // The accounts stay within the trial's limit.
    expect((await within(dialog).findByTestId('selected-count')).textContent).toBe('2 of at most 10 selected');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.selectOptions(within(dialog).getByLabelText('Recurrence'), 'weekly');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(body).toBeDefined());
    expect(body).toEqual({
      name: 'Weekly OneDrive',
      sources: ['u1', 'u2'],
      locationId: 'l1',
      recurrence: { kind: 'weekly', hours: [2] },
      retention: { unit: 'months', value: 6 },
    });
    expect(await screen.findByText('The backup job "Weekly OneDrive" was saved.')).toBeTruthy();
    expect(deleted).toBe(0);
  });
});

describe('the backup job form’s checks', () => {
  it('gives the generic messages for the name, the sources, a trial’s limit of 10 and the schedule', async () => {
    signedIn('trial');
    let created = 0;
    const sources = Array.from({ length: 11 }, (_, i) => ({
      sourceId: `u${i + 1}`,
      kind: 'user' as const,
      displayName: `Account ${String(i + 1).padStart(2, '0')}`,
      protected: false,
    }));
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': trialClientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond('apollo.discovery.users', page(sources)),
      'apollo.jobs.list': respond('apollo.jobs.list', page([])),
      'apollo.jobs.create': () => {
        created += 1;
        return HttpResponse.json(job(), { status: 201 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Understood' }));
    await user.click(await screen.findByRole('button', { name: 'Create backup job' }));
    const dialog = await screen.findByRole('dialog');
    const next = () => user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await next();
    expect(within(dialog).getAllByText('Field must not be empty.').length).toBeGreaterThan(0);
    await user.type(within(dialog).getByLabelText(/Job name/), 'Nightly OneDrive');
    await next();

    // No source, then more than the trial's 10.
    await within(dialog).findByText('Account 01');
    await next();
    expect(within(dialog).getByRole('alert').textContent).toBe('At least one item must be selected.');
    await user.click(within(dialog).getByRole('button', { name: 'Select all 11' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('selected-count').textContent).toBe('11 of at most 10 selected'),
    );
    await next();
    expect(within(dialog).getByRole('alert').textContent).toBe('Maximum 10 items.');
    await user.click(within(dialog).getByLabelText('Select Account 11'));
    await next();

    // A schedule on days of the week without a day, then on a specific date without the date.
    const kind = within(dialog).getByLabelText('Recurrence');
    await user.selectOptions(kind, 'daysOfWeek');
    await next();
    expect(within(dialog).getByText('At least one item must be selected.')).toBeTruthy();
    await user.selectOptions(kind, 'specificDate');
    await next();
    expect(within(dialog).getByText('Field must not be empty.')).toBeTruthy();
    expect(within(dialog).getByTestId('form-step').textContent).toBe('Step 3 of 4: Schedule');
    expect(created).toBe(0);
  });

  it('asks a SharePoint backup what to include of each site, at least one, and shows it in the list', async () => {
    signedIn();
    let created: JobCreate | undefined;
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': clientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.discovery.users': respond(
        'apollo.discovery.users',
        page([{ sourceId: 's1', kind: 'site', displayName: 'Marketing', protected: false }]),
      ),
      'apollo.jobs.list': respond(
        'apollo.jobs.list',
        page([
          job(),
          job({ jobId: 'j2', name: 'Sites without lists', application: 'sharepoint', include: ['libraries', 'pages'] }),
          job({ jobId: 'j3', name: 'Whole sites', application: 'sharepoint' }),
        ]),
      ),
      'apollo.jobs.create': async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(job({ ...created, jobId: 'j4' }));
      },
    });
    const without = await screen.findByRole('row', { name: /Sites without lists/ });
    expect(within(without).getByText('Document libraries, Site pages')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Whole sites/ })).getByText('Everything')).toBeTruthy();
    // A OneDrive backup chooses nothing: its row says nothing of it.
    expect(within(screen.getByRole('row', { name: /Nightly OneDrive/ })).queryByText('Everything')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Create backup job' }));
    const dialog = await screen.findByRole('dialog');
    const next = () => user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('radio', { name: 'SharePoint' }));
    await user.type(within(dialog).getByLabelText(/Job name/), 'Marketing');
    await next();
    await user.click(await within(dialog).findByLabelText('Select Marketing'));
    const group = within(dialog).getByRole('group', { name: 'What to include' });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, true, true]);
    // By keyboard: Space on each focused box.
    for (const box of boxes) {
      box.focus();
      await user.keyboard(' ');
    }
    await next();
    expect(await within(group).findByText('Choose at least one thing to include.')).toBeTruthy();
    expect(within(dialog).getByTestId('form-step').textContent).toBe('Step 2 of 4: Sources');
    await user.click(within(group).getByRole('checkbox', { name: 'Site pages' }));
    await user.click(within(group).getByRole('checkbox', { name: 'Document libraries' }));
    await next();
    await next();
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      type: 'backup',
      application: 'sharepoint',
      sources: ['s1'],
      include: ['libraries', 'pages'],
    });
  });
});

describe('the backup jobs offline', () => {
  it('disables creating, starting, editing and removing a job with the reason, and enables them online', async () => {
    signedIn();
    await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': clientAnswer,
      'apollo.locations.list': respond('apollo.locations.list', [location]),
      'apollo.jobs.list': respond('apollo.jobs.list', page([job()])),
    });
    const row = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    const buttons = () => [
      screen.getByRole('button', { name: 'Create backup job' }),
      ...['Start…', 'Edit', 'Remove…'].map((name) => within(row).getByRole('button', { name })),
    ];
    for (const button of buttons()) expectServerAction(button, false);
    setOnline(false);
    for (const button of buttons()) expectServerAction(button, true);
    // Sorting acts on the page and stays available.
    expect((screen.getByRole('button', { name: 'Sort by Name' }) as HTMLButtonElement).disabled).toBe(false);
    setOnline(true);
    for (const button of buttons()) expectServerAction(button, false);
  });
});

describe('the job monitor', () => {
  it('polls while a run is running and stops when nothing runs', async () => {
    signedIn();
    let calls = 0;
    let firstAt = 0;
    const run = (status: JobStatus, progress: number): JobRun => ({
      reportId: 'r1',
      jobId: 'j1',
      jobName: 'Nightly OneDrive',
      jobType: 'backup',
      application: 'onedrive',
      status,
      progress,
      started: '2026-11-23T02:00:00.000Z',
      finished: status === 'finished' ? '2026-11-23T02:05:00.000Z' : null,
      itemsProcessed: 10,
      itemsFailed: 0,
      bytesProcessed: 100,
    });
    const { portal } = await renderPortal('/backup-and-restore/job-monitor', {
      'legacy.workers.client': clientAnswer,
      'apollo.monitoring.list': () => {
        calls += 1;
        firstAt ||= Date.now();
        // Running for the first second, then finished.
        const running = Date.now() - firstAt < 1000;
        return HttpResponse.json(page([running ? run('running', 40) : run('finished', 100)]));
      },
    });
    await waitFor(() =>
      expect(screen.getByTestId('monitor-polling').textContent).toBe('Updating every 3 seconds while jobs run.'),
    );
    await waitFor(() => expect(screen.getByTestId('run-progress').textContent).toBe('100%'), { timeout: 6000 });
    expect(screen.getByTestId('monitor-polling').textContent).toBe('Nothing is running.');
    expect(calls).toBeGreaterThanOrEqual(2);
    // Nothing runs any more: no query polls (asked of the query cache; it slept 3.5 s and counted
    // requests, which a busy machine makes racy, issue 44).
    expect(isPolling(portal.queryClient)).toBe(false);
  });
});
