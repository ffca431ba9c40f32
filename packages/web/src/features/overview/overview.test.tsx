import type { AuditEntry, Job, JobRun, JobType, OverviewDashboard, Tenant } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { FIRST_RUN_GUIDE_KEY } from '../../components/first-run-guide-choice';
import { storeUser, storeWorker } from '../../session/storage';
import { createdJob, testClient, testLocation, testPage, testWorker } from '../../testing/fixtures';
import { paletteOf } from '../../testing/palette';
import type { Resolvers } from '../../testing/portal';
import { renderPortal, startMsw } from '../../testing/portal';
import { periodStart, runsPerDay } from './area-health';

startMsw();

const signedIn = (tenantId: string | null = 't1') => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker({ stagingtenant_id: tenantId }));
};

/** An instant `days` calendar days before today at `hour` o'clock local time. */
const daysAgo = (days: number, hour = 2) => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, hour).toISOString();
};
const localDay = (days: number) => daysAgo(days, 12).slice(0, 10);

let seq = 0;
const run = (over: Partial<JobRun> & Pick<JobRun, 'jobType' | 'status'>): JobRun => {
  seq += 1;
  return {
    reportId: `r${seq}`,
    jobId: 'j1',
    jobName: 'Nightly OneDrive',
    application: 'onedrive',
    progress: over.status === 'finished' || over.status === 'failed' ? 100 : 40,
    started: daysAgo(0),
    finished: over.status === 'finished' || over.status === 'failed' ? daysAgo(0, 3) : null,
    itemsProcessed: 10,
    itemsFailed: 0,
    bytesProcessed: 100,
    ...over,
  };
};

const summary = (lastJob: JobRun | null): OverviewDashboard['backup'] => ({
  lastJob,
  failedRuns: lastJob?.status === 'failed' ? 1 : 0,
  protectedCount: 5,
  bytes: 1024 ** 2,
});
const overview = (over: Partial<OverviewDashboard> = {}): OverviewDashboard => ({
  periodDays: 30,
  backup: summary(null),
  emailArchive: summary(null),
  teamsArchive: summary(null),
  dataManagement: { savedBytes: 0, monthlySaving: 0, currency: 'EUR' },
  license: { kind: 'full', backupJobsLeft: {}, restoresLeft: {} },
  recentFailures: [],
  ...over,
});

const tenant = (over: Partial<Tenant> = {}): Tenant => ({
  tenantId: 't1',
  tenantName: 'contoso.onmicrosoft.com',
  applicationId: '11111111-1111-4111-8111-111111111111',
  objectId: '22222222-2222-4222-8222-222222222222',
  redirectUri: 'https://portal.example/auth',
  organisationId: 'c1',
  hasClientSecret: true,
  isActive: true,
  provisioning: 'provisioned',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const connectionTest = (
  target: string,
  outcome: AuditEntry['outcome'],
  details: AuditEntry['details'] = {},
  at = daysAgo(1, 9),
): AuditEntry => ({
  seq: 1,
  at,
  actorUserId: 'u1',
  actorEmail: 'admin@contoso.example',
  actorName: 'Contoso Administrator',
  organisationId: 'c1',
  action: 'tenant.connectionTest',
  target,
  targetName: null,
  outcome,
  ip: '127.0.0.1',
  details,
  prevHash: '0'.repeat(64),
  hash: '1'.repeat(64),
});
const job = (type: JobType): Job =>
  createdJob({
    name: `First ${type}`,
    type,
    application: type === 'exchangeArchive' ? 'exchange' : 'onedrive',
    sources: ['u1'],
  });

/** The setup as the API answers it: which steps are done. */
function setup({
  tenants = [tenant()],
  tests = [connectionTest('t1', 'success')],
  locations = 1,
  jobs = { backup: 1, exchangeArchive: 1 } as Partial<Record<JobType, number>>,
} = {}): Resolvers {
  return {
    'apollo.tenants.list': respond('apollo.tenants.list', tenants),
    'apollo.audit.list': ({ request }) => {
      const query = new URL(request.url).searchParams;
      expect(query.get('action')).toBe('tenant.connectionTest');
      expect(query.get('organisationId')).toBe('c1');
      return HttpResponse.json(testPage(tests));
    },
    'apollo.locations.list': respond(
      'apollo.locations.list',
      Array.from({ length: locations }, (_, i) => testLocation({ locationId: `l${i}` })),
    ),
    'apollo.jobs.list': ({ request }) => {
      const type = new URL(request.url).searchParams.get('type') as JobType;
      const total = jobs[type] ?? 0;
      return HttpResponse.json(testPage(total ? [job(type)] : [], total, { pageSize: 1 }));
    },
  };
}

const client = respond('legacy.workers.client', testClient());

describe('the overview cards', () => {
  it('colour each area by its newest ended run, with the state in words: failed red, warnings amber, fine green', async () => {
    signedIn();
    const failed = run({ jobType: 'backup', status: 'failed', message: 'Token refused' });
    const warned = run({ jobType: 'exchangeArchive', status: 'finished', itemsFailed: 2, jobName: 'Mail' });
    const fine = run({ jobType: 'teamsArchive', status: 'finished', jobName: 'Teams' });
    await renderPortal('/', {
      ...setup(),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond(
        'apollo.dashboards.overview',
        overview({ backup: summary(failed), emailArchive: summary(warned), teamsArchive: summary(fine) }),
      ),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([failed, warned, fine])),
    });
    const expected = [
      ['backup', 'failed', 'Failed', 'red'],
      ['emailArchive', 'warnings', 'Warnings', 'orange'],
      ['teamsArchive', 'fine', 'Fine', 'green'],
      ['dataManagement', 'none', 'No run in 30 days', 'gray'],
    ] as const;
    for (const [area, health, text, palette] of expected) {
      const card = await screen.findByTestId(`area-${area}`);
      await waitFor(() => expect(card.getAttribute('data-health')).toBe(health));
      const badge = within(card).getByTestId('area-health');
      // The state in words beside the colour, named as the card's state for a screen reader.
      expect(badge.textContent).toBe(`State: ${text}`);
      expect(paletteOf(badge)).toBe(palette);
      expect(getComputedStyle(card).getPropertyValue('border-top-color')).toBe(`var(--chakra-colors-${palette}-solid)`);
    }
    // The last run's own badge: finished with warnings, in amber.
    const mail = within(screen.getByTestId('area-emailArchive')).getByText('Finished with warnings');
    expect(paletteOf(mail)).toBe('orange');
    // Links that are actions: to the area's dashboard and its job monitor.
    const backup = screen.getByTestId('area-backup');
    expect(within(backup).getByRole('link', { name: 'Open Backup and restore' }).getAttribute('href')).toBe(
      '/backup-and-restore/dashboard',
    );
    expect(within(backup).getByRole('link', { name: 'Job monitor of Backup and restore' }).getAttribute('href')).toBe(
      '/backup-and-restore/job-monitor',
    );
    expect(
      within(screen.getByTestId('area-dataManagement'))
        .getByRole('link', { name: 'Job monitor of Data management' })
        .getAttribute('href'),
    ).toBe('/compliance/monitoring');
  });

  it('take the newest ended run while one runs, and say "Running" when none has ended yet', async () => {
    signedIn();
    const running = run({ jobType: 'backup', status: 'running', started: daysAgo(0, 4) });
    const earlier = run({ jobType: 'backup', status: 'finished', started: daysAgo(1) });
    const firstTeams = run({ jobType: 'teamsArchive', status: 'running' });
    await renderPortal('/', {
      ...setup(),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond(
        'apollo.dashboards.overview',
        overview({ backup: summary(running), teamsArchive: summary(firstTeams) }),
      ),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([running, firstTeams, earlier])),
    });
    const backup = await screen.findByTestId('area-backup');
    await waitFor(() => expect(backup.getAttribute('data-health')).toBe('fine'));
    expect(within(backup).getByText('Running')).toBeTruthy();
    const teams = screen.getByTestId('area-teamsArchive');
    expect(teams.getAttribute('data-health')).toBe('running');
    expect(paletteOf(within(teams).getByTestId('area-health'))).toBe('blue');
    expect(screen.getByTestId('area-emailArchive').getAttribute('data-health')).toBe('none');
    expect(within(screen.getByTestId('area-emailArchive')).getByTestId('area-health').textContent).toBe(
      'State: No run yet',
    );
  });

  it('draw each area’s runs per day over 30 days from the job monitor’s runs, read page by page', async () => {
    signedIn();
    const queries: URLSearchParams[] = [];
    const runs = [
      run({ jobType: 'backup', status: 'failed', started: daysAgo(0, 1) }),
      run({ jobType: 'backup', status: 'finished', started: daysAgo(0, 2) }),
      run({ jobType: 'backup', status: 'finished', started: daysAgo(0, 3) }),
      run({ jobType: 'backup', status: 'finished', itemsFailed: 1, started: daysAgo(1) }),
      run({ jobType: 'backup', status: 'finished', started: daysAgo(29) }),
      run({ jobType: 'restore', status: 'finished', started: daysAgo(2) }),
      run({ jobType: 'versionCleanup', status: 'finished', started: daysAgo(3) }),
      run({ jobType: 'exchangeArchive', status: 'running', started: daysAgo(0, 0) }),
    ];
    await renderPortal('/', {
      ...setup(),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond(
        'apollo.dashboards.overview',
        overview({ backup: summary(runs[0] ?? null) }),
      ),
      // Three runs a page, as a server that pages smaller than asked.
      'apollo.monitoring.list': ({ request }) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        const page = Number(query.get('page') ?? 1);
        return HttpResponse.json(testPage(runs.slice((page - 1) * 3, page * 3), runs.length, { page, pageSize: 3 }));
      },
    });
    const backup = await screen.findByTestId('runs-backup');
    await waitFor(() => expect(screen.getByTestId('runs-backup').getAttribute('data-runs')).toBe('5'));
    // Every page to the end (a first page may be asked twice: the test mounts the page twice).
    expect(queries.map((q) => q.get('page')).slice(-3)).toEqual(['1', '2', '3']);
    expect(queries[0]?.get('from')).toBe(periodStart(30).toISOString());
    expect(queries[0]?.get('pageSize')).toBe('500');
    const chart = screen.getByTestId('runs-backup');
    expect(chart.querySelectorAll('g[data-date]')).toHaveLength(30);
    const today = chart.querySelector(`g[data-date="${localDay(0)}"]`);
    expect(today?.getAttribute('data-runs')).toBe('3');
    const bars = [...(today?.querySelectorAll('rect') ?? [])].map((r) => [
      r.getAttribute('data-outcome'),
      r.getAttribute('data-count'),
      r.getAttribute('fill'),
    ]);
    expect(bars).toEqual([
      ['fine', '2', 'var(--chakra-colors-green-solid)'],
      ['failed', '1', 'var(--chakra-colors-red-solid)'],
    ]);
    // The busiest day fills the height; the others are drawn to scale.
    expect(today?.querySelector('rect[data-outcome="fine"]')?.getAttribute('height')).toBe(String((2 / 3) * 32));
    const yesterday = chart.querySelector(`g[data-date="${localDay(1)}"] rect`);
    expect(yesterday?.getAttribute('data-outcome')).toBe('warnings');
    expect(yesterday?.getAttribute('fill')).toBe('var(--chakra-colors-orange-solid)');
    expect(chart.querySelector(`g[data-date="${localDay(29)}"]`)?.getAttribute('data-runs')).toBe('1');
    expect(within(backup).getByText('5 runs in 30 days: 1 failed, 1 with warnings, 3 fine.')).toBeTruthy();
    // Restores are not backup runs; each area counts its own type.
    expect(screen.getByTestId('runs-dataManagement').getAttribute('data-runs')).toBe('1');
    expect(screen.getByTestId('area-dataManagement').getAttribute('data-health')).toBe('fine');
    expect(screen.getByTestId('runs-emailArchive').querySelector('figcaption')?.textContent).toBe(
      '1 run in 30 days: 0 failed, 0 with warnings, 0 fine. 1 has not ended yet.',
    );
  });

  it('say so when no run happened in the period, and when the runs could not be read', async () => {
    signedIn();
    await renderPortal('/', {
      ...setup(),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    for (const area of ['backup', 'emailArchive', 'teamsArchive', 'dataManagement']) {
      const runs = await screen.findByTestId(`runs-${area}`);
      expect(runs.textContent).toBe('No run in the last 30 days.');
      expect(runs.querySelector('svg')).toBeNull();
    }
    expect(within(screen.getByTestId('area-backup')).getByText('No job has run yet.')).toBeTruthy();
  });

  it('keep the state of the last run when the period’s runs fail to load', async () => {
    signedIn();
    await renderPortal('/', {
      ...setup(),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond(
        'apollo.dashboards.overview',
        overview({ backup: summary(run({ jobType: 'backup', status: 'failed' })) }),
      ),
      'apollo.monitoring.list': () => refuse(500, { message: 'down' }),
    });
    await waitFor(
      () =>
        expect(screen.getByTestId('runs-backup').textContent).toBe('The runs of the last 30 days could not be loaded.'),
      { timeout: 10_000 },
    );
    expect(screen.getByTestId('area-backup').getAttribute('data-health')).toBe('failed');
    expect(within(screen.getByTestId('area-dataManagement')).queryByTestId('area-health')).toBeNull();
  });

  it('agree with the day buckets of local calendar days', () => {
    const now = new Date(2026, 10, 23, 15);
    const days = runsPerDay(
      [
        run({ jobType: 'backup', status: 'finished', started: new Date(2026, 10, 23, 0, 5).toISOString() }),
        run({ jobType: 'backup', status: 'finished', started: new Date(2026, 10, 22, 23, 55).toISOString() }),
        run({ jobType: 'backup', status: 'pending', started: null }),
        run({ jobType: 'backup', status: 'finished', started: new Date(2026, 9, 24, 23).toISOString() }),
      ],
      30,
      now,
    );
    expect(days).toHaveLength(30);
    expect(days[0]?.date).toBe('2026-10-25');
    expect(days.at(-1)?.date).toBe('2026-11-23');
    expect(days.at(-1)?.runs).toBe(1);
    expect(days.at(-2)?.runs).toBe(1);
    expect(days.reduce((n, d) => n + d.runs, 0)).toBe(2);
  });
});

const steps = () =>
  within(screen.getByTestId('first-run-guide'))
    .getAllByRole('listitem')
    .map((item) => [
      item.getAttribute('data-testid'),
      within(item).getByTestId('step-state').textContent?.replace(/^[✓○]/, ''),
    ]);

describe('the first-run guide', () => {
  it('shows an organisation without a tenant the five steps in order, none done, each linked to its screen', async () => {
    signedIn(null);
    const { user } = await renderPortal('/', {
      ...setup({ tenants: [tenant({ organisationId: 'another' })] }),
      // The server's worker has no tenant either (the session reads it again at start).
      'legacy.workers.client': respond(
        'legacy.workers.client',
        testClient({ worker: testWorker({ stagingtenant_id: null }) }),
      ),
    });
    const guide = await screen.findByTestId('first-run-guide');
    expect(within(guide).getByRole('heading', { level: 2, name: 'Set up the portal' })).toBeTruthy();
    expect(guide.querySelector('ol')).toBeTruthy();
    expect(steps()).toEqual([
      ['step-tenant', 'To do'],
      ['step-connection', 'To do'],
      ['step-locations', 'To do'],
      ['step-backup', 'To do'],
      ['step-mail', 'To do'],
    ]);
    expect(screen.getByTestId('first-run-progress').textContent).toBe('0 of 5 steps done');
    const links = within(guide)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Connect a tenant', '/configuration'],
      ['Test the connection', '/configuration'],
      ['Add a storage location', '/configuration?tab=locations'],
      ['Create a backup job', '/backup-and-restore/backup-jobs'],
      ['Create an archive job', '/archive/jobs'],
    ]);
    // The guide says what to do: no alert about the missing tenant, no empty area cards.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('area-backup')).toBeNull();
    // Keyboard: the first link is reached with Tab after the guide's hide button.
    await user.tab();
    while (document.activeElement && !guide.contains(document.activeElement)) await user.tab();
    expect(document.activeElement?.textContent).toBe('Hide the guide');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Connect a tenant');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Configuration'));
  });

  it('ticks each step from the API’s answers and names the permissions the last test found missing', async () => {
    signedIn();
    await renderPortal('/', {
      ...setup({
        tests: [
          connectionTest('t2', 'success'),
          connectionTest('t1', 'success', { missingPermissions: ['Mail.Read', 'ChannelMessage.Read.All'] }),
          connectionTest('t1', 'failure', { message: 'refused' }, daysAgo(2)),
        ],
        jobs: { backup: 2 },
      }),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    await screen.findByTestId('first-run-guide');
    expect(steps()).toEqual([
      ['step-tenant', 'Done'],
      ['step-connection', 'To do'],
      ['step-locations', 'Done'],
      ['step-backup', 'Done'],
      ['step-mail', 'To do'],
    ]);
    expect(screen.getByTestId('first-run-progress').textContent).toBe('3 of 5 steps done');
    expect(screen.getByTestId('step-tenant').textContent).toContain('Connected: contoso.onmicrosoft.com.');
    expect(screen.getByTestId('step-connection').textContent).toContain(
      'The last test reached Microsoft 365. Missing permissions: Mail.Read and ChannelMessage.Read.All.',
    );
    expect(screen.getByTestId('step-backup').textContent).toContain('2 backup jobs.');
    // The area cards are there below the guide.
    expect(await screen.findByTestId('area-backup')).toBeTruthy();
  });

  it('says why the connection step is left when the last test failed', async () => {
    signedIn();
    await renderPortal('/', {
      ...setup({ tests: [connectionTest('t1', 'failure', { message: 'The client secret was refused.' })] }),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    await screen.findByTestId('first-run-guide');
    expect(screen.getByTestId('step-connection').getAttribute('data-done')).toBe('false');
    expect(screen.getByTestId('step-connection').textContent).toContain(
      'The last test failed: The client secret was refused.',
    );
  });

  it('disappears when every step is done', async () => {
    signedIn();
    await renderPortal('/', {
      ...setup(),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    await screen.findByTestId('runs-backup');
    expect(screen.queryByTestId('first-run-guide')).toBeNull();
  });

  it('hides on request, and comes back from the help center, done or not, for this user only', async () => {
    signedIn();
    const resolvers: Resolvers = {
      ...setup({ locations: 0 }),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    };
    const { user, path } = await renderPortal('/', resolvers);
    await screen.findByTestId('first-run-guide');
    await user.click(screen.getByRole('button', { name: 'Hide the guide' }));
    expect(screen.queryByTestId('first-run-guide')).toBeNull();
    expect(screen.getByTestId('first-run-hidden').textContent).toContain(
      'The guide is hidden. You can show it again from the help center.',
    );
    const help = screen.getByRole('link', { name: 'Open the help center' });
    expect(document.activeElement).toBe(help);
    expect(Object.values(JSON.parse(localStorage.getItem(FIRST_RUN_GUIDE_KEY) ?? '{}'))).toEqual(['hidden']);

    await user.click(help);
    await waitFor(() => expect(path()).toBe('/helpcenter'));
    const reopen = await screen.findByTestId('first-run-reopen');
    expect(within(reopen).getByRole('heading', { name: 'First-run guide' })).toBeTruthy();
    await user.click(within(reopen).getByRole('button', { name: 'Show the first-run guide' }));
    await waitFor(() => expect(path()).toBe('/'));
    expect(await screen.findByTestId('first-run-guide')).toBeTruthy();
    expect(screen.getByTestId('step-locations').getAttribute('data-done')).toBe('false');
  });

  it('comes back from the help center when every step is done, saying so', async () => {
    signedIn();
    const { user, path } = await renderPortal('/helpcenter', {
      ...setup(),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    await user.click(await screen.findByRole('button', { name: 'Show the first-run guide' }));
    await waitFor(() => expect(path()).toBe('/'));
    await screen.findByTestId('first-run-guide');
    expect(steps().every(([, state]) => state === 'Done')).toBe(true);
    expect(screen.getByTestId('first-run-progress').textContent).toBe(
      'Every step is done: the portal protects your organisation.',
    );
  });

  it('keeps one user’s choice from another user of the same browser', async () => {
    signedIn();
    localStorage.setItem(
      FIRST_RUN_GUIDE_KEY,
      JSON.stringify({ 'someone@contoso.example\u0000c1': 'hidden', 'admin@contoso.example\u0000other': 'hidden' }),
    );
    await renderPortal('/', {
      ...setup({ jobs: {} }),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    expect(await screen.findByTestId('first-run-guide')).toBeTruthy();
  });

  it('speaks German', async () => {
    signedIn();
    localStorage.setItem('language', 'de');
    await renderPortal('/', {
      ...setup({ tests: [], locations: 0, jobs: {} }),
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    const guide = await screen.findByTestId('first-run-guide');
    expect(within(guide).getByRole('heading', { name: 'Das Portal einrichten' })).toBeTruthy();
    expect(steps()).toEqual([
      ['step-tenant', 'Erledigt'],
      ['step-connection', 'Offen'],
      ['step-locations', 'Offen'],
      ['step-backup', 'Offen'],
      ['step-mail', 'Offen'],
    ]);
    expect(screen.getByTestId('first-run-progress').textContent).toBe('1 von 5 Schritten erledigt');
    expect(screen.getByTestId('step-connection').textContent).toContain('Die Verbindung wurde noch nicht getestet.');
    expect(within(guide).getByRole('link', { name: 'Sicherungsauftrag anlegen' }).getAttribute('href')).toBe(
      '/backup-and-restore/backup-jobs',
    );
    expect(within(guide).getByRole('button', { name: 'Anleitung ausblenden' })).toBeTruthy();
    const backup = await screen.findByTestId('area-backup');
    expect(within(backup).getByTestId('area-health').textContent).toBe('Zustand: Noch kein Lauf');
    expect(within(backup).getByRole('link', { name: 'Auftragsmonitor: Sicherung und Wiederherstellung' })).toBeTruthy();
  });
});
