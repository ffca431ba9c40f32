import type {
  BackupConfigUpdate,
  BrowseRequest,
  CleanupPreviewRequest,
  FileNode,
  JobCreate,
  JobRun,
  OverviewDashboard,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import {
  createdJob,
  testClient,
  testDataManagementDashboard,
  testLocation,
  testPage,
  testWorker,
} from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';
import { ruleOf } from './file-manager/rule';

startMsw();
restoreOnline();

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};
const client = respond('legacy.workers.client', testClient());
const node = (over: Pick<FileNode, 'nodeId' | 'kind' | 'name' | 'path'> & Partial<FileNode>): FileNode => ({
  sizeBytes: 1000,
  modified: '2026-11-01T09:00:00.000Z',
  versions: null,
  eligibleVersions: null,
  reclaimableBytes: null,
  ...over,
});

describe('the clean-up rule', () => {
  it('takes a count from 1 to 500 or a date, nothing else', () => {
    expect(ruleOf({ kind: 'keepNewest', count: '3', date: '' })).toEqual({ kind: 'keepNewest', count: 3 });
    expect(ruleOf({ kind: 'keepNewest', count: '0', date: '' })).toBeNull();
    expect(ruleOf({ kind: 'keepNewest', count: '2.5', date: '' })).toBeNull();
    expect(ruleOf({ kind: 'keepNewest', count: '501', date: '' })).toBeNull();
    expect(ruleOf({ kind: 'olderThan', count: '', date: '2026-01-31' })).toEqual({
      kind: 'olderThan',
      date: '2026-01-31T00:00:00.000Z',
    });
    expect(ruleOf({ kind: 'olderThan', count: '', date: '' })).toBeNull();
  });
});

describe('the file manager', () => {
  it('browses a site, selects a folder and a file, states what a clean-up removes and runs it on confirmation', async () => {
    signedIn();
    const browsed: BrowseRequest[] = [];
    let previewed: CleanupPreviewRequest | undefined;
    let created: JobCreate | undefined;
    const { user } = await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', {
        items: [{ sourceId: 's1', kind: 'site', displayName: 'Marketing', url: 'https://x/sites/m', protected: false }],
        total: 1,
        page: 1,
        pageSize: 10,
      }),
      'apollo.dataManagement.browse': async ({ request }) => {
        const body = await request.json();
        browsed.push(body);
        const items =
          body.nodeId === 'root'
            ? [node({ nodeId: 'drive:d1', kind: 'library', name: 'Documents', path: 'd1:/' })]
            : [
                node({ nodeId: 'd1:f1', kind: 'folder', name: 'Plans', path: 'd1:/Plans' }),
                node({
                  nodeId: 'd1:i1',
                  kind: 'file',
                  name: 'budget.xlsx',
                  path: 'd1:/budget.xlsx',
                  versions: 4,
                  eligibleVersions: 1,
                  reclaimableBytes: 2048,
                }),
              ];
        return HttpResponse.json(testPage(items));
      },
      'apollo.dataManagement.versions': respond('apollo.dataManagement.versions', [
        { versionId: '4.0', modified: '2026-11-01T09:00:00.000Z', sizeBytes: 1000, current: true, eligible: false },
        { versionId: '3.0', modified: '2026-10-01T09:00:00.000Z', sizeBytes: 900, current: false, eligible: true },
      ]),
      'apollo.dataManagement.preview': async ({ request }) => {
        previewed = await request.json();
        return HttpResponse.json({
          files: 7,
          versions: 20,
          eligibleVersions: 13,
          reclaimableBytes: 5 * 1024 ** 2,
          pricePerGbMonth: 0.2,
          currency: 'EUR',
          monthlySaving: 0.001,
        });
      },
      'apollo.jobs.create': async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(createdJob({ ...created }));
      },
    });
    const count = await screen.findByLabelText('Versions to keep');
    await user.clear(count);
    await user.type(count, '3');
    await user.click(await screen.findByRole('button', { name: 'Marketing' }));
    await user.click(await screen.findByRole('button', { name: 'Documents' }));
    await user.click(await screen.findByLabelText('Select Plans'));
    await user.click(screen.getByLabelText('Select budget.xlsx'));
    expect(screen.getByTestId('selected-count').textContent).toBe('2 items selected');
    expect(browsed.at(-1)).toMatchObject({
      sourceId: 's1',
      nodeId: 'drive:d1',
      rule: { kind: 'keepNewest', count: 3 },
    });

    await user.click(screen.getByRole('button', { name: 'budget.xlsx' }));
    const versions = await screen.findByRole('dialog');
    await waitFor(() => expect(within(versions).getAllByTestId('version-row')).toHaveLength(2));
    expect(within(versions).getByText('Current')).toBeTruthy();
    expect(within(versions).getByText('Removed by the rule')).toBeTruthy();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Clean up selected' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(previewed).toMatchObject({
      application: 'sharepoint',
      sourceId: 's1',
      paths: ['d1:/Plans', 'd1:/budget.xlsx'],
      rule: { kind: 'keepNewest', count: 3 },
    });
    expect(within(confirm).getByTestId('cleanup-confirm-text').textContent).toContain(
      'removes 13 old versions of 7 files, freeing 5 MB',
    );
    expect(created).toBeUndefined();
    await user.click(within(confirm).getByRole('button', { name: 'Remove versions' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      type: 'versionCleanup',
      application: 'sharepoint',
      sources: ['s1'],
      paths: ['d1:/Plans', 'd1:/budget.xlsx'],
      cleanupRule: { kind: 'keepNewest', count: 3 },
      recurrence: { kind: 'afterCreation' },
    });
  });

  it('says so when nothing in the selection would be removed, and asks nothing', async () => {
    signedIn();
    let created = false;
    const { user } = await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', {
        items: [{ sourceId: 's1', kind: 'site', displayName: 'Marketing', protected: false }],
        total: 1,
        page: 1,
        pageSize: 10,
      }),
      'apollo.dataManagement.browse': respond(
        'apollo.dataManagement.browse',
        testPage([node({ nodeId: 'drive:d1', kind: 'library', name: 'Documents', path: 'd1:/' })]),
      ),
      'apollo.dataManagement.preview': respond('apollo.dataManagement.preview', {
        files: 3,
        versions: 3,
        eligibleVersions: 0,
        reclaimableBytes: 0,
        pricePerGbMonth: 0.2,
        currency: 'EUR',
        monthlySaving: 0,
      }),
      'apollo.jobs.create': () => {
        created = true;
        return refuse(500, {});
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Marketing' }));
    await user.click(await screen.findByLabelText('Select Documents'));
    await user.click(screen.getByRole('button', { name: 'Clean up selected' }));
    expect((await screen.findByTestId('nothing-to-remove')).textContent).toContain('no version would be removed');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(created).toBe(false);
  });
});

describe('the file manager in the address', () => {
  const sources = (items: { sourceId: string; displayName: string }[]) =>
    testPage(items.map((s) => ({ ...s, kind: 'site' as const, protected: false })));

  it('opens the sources on the page, search and application of the address, and writes a new application there', async () => {
    signedIn();
    const asked: URLSearchParams[] = [];
    const { user, portal } = await renderPortal('/compliance?application=onedrive&page=2&search=Mark', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json(sources([{ sourceId: 'u1', displayName: 'Mark Example' }]));
      },
    });
    await screen.findByRole('button', { name: 'Mark Example' });
    // Read once: before the page opens, with the options the page reads with.
    expect(asked).toHaveLength(1);
    expect(asked[0]?.get('application')).toBe('onedrive');
    expect(asked[0]?.get('page')).toBe('2');
    expect(asked[0]?.get('search')).toBe('Mark');
    expect((screen.getByLabelText('Application') as HTMLSelectElement).value).toBe('onedrive');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('Mark');

    await user.selectOptions(screen.getByLabelText('Application'), 'sharepoint');
    // The default application is left out of the address; another application starts on page 1.
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ search: 'Mark' }));
    await waitFor(() => expect(asked.at(-1)?.get('application')).toBe('sharepoint'));
    expect(asked.at(-1)?.get('page')).toBe('1');
  });

  it('opens a source at the folder of the address, and keeps the folders opened there, Back going up again', async () => {
    signedIn();
    const browsed: BrowseRequest[] = [];
    const path = encodeURIComponent(JSON.stringify([{ id: 'drive:d1', name: 'Documents' }]));
    const { user, portal } = await renderPortal(`/compliance?source=s1&sourceName=Marketing&path=${path}&page=2`, {
      'legacy.workers.client': client,
      'apollo.dataManagement.browse': async ({ request }) => {
        const body = await request.json();
        browsed.push(body);
        const items =
          body.nodeId === 'drive:d1'
            ? [node({ nodeId: 'd1:f1', kind: 'folder', name: 'Plans', path: 'd1:/Plans' })]
            : [node({ nodeId: 'd1:f2', kind: 'folder', name: 'Q3', path: 'd1:/Plans/Q3' })];
        return HttpResponse.json(testPage(items, 60, { page: body.page, pageSize: body.pageSize }));
      },
    });
    await screen.findByRole('button', { name: 'Plans' });
    expect(browsed).toHaveLength(1);
    expect(browsed[0]).toMatchObject({ sourceId: 's1', nodeId: 'drive:d1', page: 2, pageSize: 25 });
    const trail = screen.getByRole('navigation', { name: 'Files' });
    expect(within(trail).getByText('Marketing')).toBeTruthy();
    expect(within(trail).getByRole('button', { name: 'Documents' }).getAttribute('aria-current')).toBe('location');

    await user.click(screen.getByRole('button', { name: 'Plans' }));
    await screen.findByRole('button', { name: 'Q3' });
    expect(browsed.at(-1)).toMatchObject({ nodeId: 'd1:f1', page: 1 });
    expect(portal.router.state.location.search).toEqual({
      source: 's1',
      sourceName: 'Marketing',
      path: [
        { id: 'drive:d1', name: 'Documents' },
        { id: 'd1:f1', name: 'Plans' },
      ],
    });

    portal.router.history.back();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Q3' })).toBeNull());
    expect(screen.getAllByRole('button', { name: 'Plans' })).toHaveLength(1);
    expect(portal.router.state.location.search).toMatchObject({
      page: 2,
      path: [{ id: 'drive:d1', name: 'Documents' }],
    });

    await user.click(within(trail).getByRole('button', { name: 'Top' }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ source: 's1', sourceName: 'Marketing' }));
    await waitFor(() => expect(browsed.at(-1)).toMatchObject({ nodeId: 'root', page: 1 }));
  });
});

describe('the data-management dashboard', () => {
  it('shows used and saved storage, the saving at the price, and saves a new price', async () => {
    signedIn();
    let saved: BackupConfigUpdate | undefined;
    const { user } = await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', {
        periodDays: 30,
        from: '2026-10-24T00:00:00.000Z',
        to: '2026-11-23T00:00:00.000Z',
        storageUsedBytes: 3 * 1024 ** 3,
        storageSavedBytes: 2 * 1024 ** 2,
        pricePerGbMonth: 0.2,
        currency: 'EUR',
        monthlySaving: 0.0004,
        series: [
          { date: '2026-11-22', usedBytes: 10, savedBytes: 0 },
          { date: '2026-11-23', usedBytes: 8, savedBytes: 2 },
        ],
        topSitesWithoutDataManagement: [{ siteId: 's2', displayName: 'Finance', bytes: 4096 }],
        topCleanupCandidates: [
          { sourceId: 's1', kind: 'site', displayName: 'Marketing', eligibleVersions: 12, reclaimableBytes: 8192 },
        ],
      }),
      'apollo.configuration.updateBackupConfig': async ({ request }) => {
        saved = await request.json();
        return HttpResponse.json({
          tenantId: 't1',
          defaultLocationId: null,
          pricePerGbMonth: 0.35,
          currency: 'EUR',
          teamsConfigured: true,
          exchangeConfigured: true,
          maxConcurrency: 4,
        });
      },
    });
    expect((await screen.findByTestId('figure-Storage used')).textContent).toBe('3 GB');
    expect(screen.getByTestId('figure-Saved by clean-ups').textContent).toBe('2 MB');
    expect(within(screen.getByRole('table', { name: /Top 10 sites/ })).getByText('Finance')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: /Top 20 teams and sites/ })).getByText('12')).toBeTruthy();
    const price = screen.getByLabelText(/Price per GB per month/);
    await user.clear(price);
    await user.type(price, '-1');
    expect(screen.getByRole('button', { name: 'Save price' })).toHaveProperty('disabled', true);
    await user.clear(price);
    await user.type(price, '0,35');
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(saved).toEqual({ tenantId: 't1', pricePerGbMonth: 0.35 }));
  });
});

describe('the data-management forms’ checks', () => {
  it('give the generic messages for the count of versions to keep and the date of the rule', async () => {
    signedIn();
    const { user } = await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([])),
    });
    const count = await screen.findByLabelText('Versions to keep');
    await user.clear(count);
    expect(screen.getByText('Field must not be empty.')).toBeTruthy();
    expect(count.getAttribute('aria-invalid')).toBe('true');
    await user.type(count, '0');
    expect(screen.getByText('Minimum value 1.')).toBeTruthy();
    await user.clear(count);
    await user.type(count, '501');
    expect(screen.getByText('Maximum value 500.')).toBeTruthy();
    await user.clear(count);
    await user.type(count, '2.5');
    expect(screen.getByText('Not a valid number.')).toBeTruthy();
    await user.clear(count);
    await user.type(count, '500');
    expect(screen.queryByText('Maximum value 500.')).toBeNull();
    expect(count.getAttribute('aria-invalid')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Kind of rule'), 'olderThan');
    const date = screen.getByLabelText('Date');
    expect(screen.getByText('Field must not be empty.')).toBeTruthy();
    await user.type(date, '2026-01-31');
    expect(screen.queryByText('Field must not be empty.')).toBeNull();
  });

  it('give them for the price in German, reading a decimal comma', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    let saved = 0;
    const { user } = await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', {
        periodDays: 30,
        from: '2026-10-24T00:00:00.000Z',
        to: '2026-11-23T00:00:00.000Z',
        storageUsedBytes: 0,
        storageSavedBytes: 0,
        pricePerGbMonth: 0.2,
        currency: 'EUR',
        monthlySaving: 0,
        series: [],
        topSitesWithoutDataManagement: [],
        topCleanupCandidates: [],
      }),
      'apollo.configuration.updateBackupConfig': () => {
        saved += 1;
        return refuse(500, { message: 'not expected' });
      },
    });
    const price = await screen.findByLabelText(/Preis pro GB und Monat/);
    // The price as German writes it.
    expect((price as HTMLInputElement).value).toBe('0,2');
    await user.clear(price);
    expect(screen.getByText('Das Feld darf nicht leer sein.')).toBeTruthy();
    await user.type(price, '1000,5');
    expect(screen.getByText('Höchstwert 1000.')).toBeTruthy();
    await user.clear(price);
    await user.type(price, '-1');
    expect(screen.getByText('Mindestwert 0.')).toBeTruthy();
    await user.clear(price);
    await user.type(price, '0,3x');
    expect(screen.getByText('Keine gültige Zahl.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Preis speichern' })).toHaveProperty('disabled', true);
    await user.type(price, '{Enter}');
    expect(saved).toBe(0);
  });
});

describe('the data-management dashboard’s top lists', () => {
  /** The first cell of each row of the table's body. */
  const firstCells = (name: RegExp) =>
    [...screen.getByRole('table', { name }).querySelectorAll('tbody tr')].map(
      (row) => row.querySelector('td')?.textContent,
    );

  it('shows no more than the top 10 sites without data management and the top 20 candidates', async () => {
    signedIn();
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond(
        'apollo.dashboards.sharepointDataManagement',
        // More than the server sends, largest first.
        testDataManagementDashboard({
          topSitesWithoutDataManagement: Array.from({ length: 12 }, (_, i) => ({
            siteId: `u${i}`,
            displayName: `Unmanaged ${i}`,
            bytes: (12 - i) * 1024,
          })),
          topCleanupCandidates: Array.from({ length: 25 }, (_, i) => ({
            sourceId: `c${i}`,
            kind: 'site' as const,
            displayName: `Candidate ${i}`,
            eligibleVersions: 25 - i,
            reclaimableBytes: (25 - i) * 1024,
          })),
        }),
      ),
    });
    await screen.findByRole('table', { name: /Top 10 sites/ });
    expect(firstCells(/Top 10 sites/)).toEqual(Array.from({ length: 10 }, (_, i) => `Unmanaged ${i}`));
    expect(firstCells(/Top 20 teams and sites/)).toEqual(Array.from({ length: 20 }, (_, i) => `Candidate ${i}Site`));
  });

  const teamAndSite = testDataManagementDashboard({
    topCleanupCandidates: [
      { sourceId: 'g1', kind: 'team', displayName: 'Project Falcon', eligibleVersions: 30, reclaimableBytes: 9000 },
      { sourceId: 's1', kind: 'site', displayName: 'Marketing', eligibleVersions: 12, reclaimableBytes: 8192 },
    ],
  });

  it('labels a team as a team and a site as a site', async () => {
    signedIn();
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', teamAndSite),
    });
    await screen.findByRole('table', { name: /Top 20 teams and sites/ });
    expect(firstCells(/Top 20 teams and sites/)).toEqual(['Project FalconTeam', 'MarketingSite']);
  });

  it('labels them in German too', async () => {
    signedIn();
    localStorage.setItem('language', 'de');
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', teamAndSite),
    });
    const name = /Die 20 besten Teams und Websites/;
    await screen.findByRole('table', { name });
    expect(firstCells(name)).toEqual(['Project FalconTeam', 'MarketingWebsite']);
  });
});

describe('data management offline', () => {
  it('disables the clean-up of a selection with the reason while browsing and selecting stay', async () => {
    signedIn();
    const { user } = await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', {
        items: [{ sourceId: 's1', kind: 'site', displayName: 'Marketing', protected: false }],
        total: 1,
        page: 1,
        pageSize: 10,
      }),
      'apollo.dataManagement.browse': respond(
        'apollo.dataManagement.browse',
        testPage([node({ nodeId: 'drive:d1', kind: 'library', name: 'Documents', path: 'd1:/' })]),
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Marketing' }));
    await user.click(await screen.findByLabelText('Select Documents'));
    const cleanUp = screen.getByRole('button', { name: 'Clean up selected' });
    expectServerAction(cleanUp, false);
    setOnline(false);
    expectServerAction(cleanUp, true);
    await user.click(screen.getByLabelText('Select Documents'));
    expect(screen.getByTestId('selected-count').textContent).toBe('0 items selected');
    setOnline(true);
    // Online again, the button follows its own condition: nothing is selected.
    expect((cleanUp as HTMLButtonElement).disabled).toBe(true);
    expect(cleanUp.getAttribute('title')).toBeNull();
  });

  it('disables saving the price with the reason, and enables it online', async () => {
    signedIn();
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', {
        periodDays: 30,
        from: '2026-10-24T00:00:00.000Z',
        to: '2026-11-23T00:00:00.000Z',
        storageUsedBytes: 3 * 1024 ** 3,
        storageSavedBytes: 0,
        pricePerGbMonth: 0.2,
        currency: 'EUR',
        monthlySaving: 0,
        series: [],
        topSitesWithoutDataManagement: [],
        topCleanupCandidates: [],
      }),
    });
    const save = await screen.findByRole('button', { name: 'Save price' });
    expectServerAction(save, false);
    setOnline(false);
    expectServerAction(save, true);
    setOnline(true);
    expectServerAction(save, false);
  });
});

describe('the overview', () => {
  it('shows every area, the licence left and the recent failures, with links into the areas', async () => {
    signedIn();
    const run = (name: string): JobRun => ({
      reportId: 'r1',
      jobId: 'j1',
      jobName: name,
      jobType: 'backup',
      application: 'onedrive',
      status: 'finished',
      progress: 100,
      started: '2026-11-22T02:00:00.000Z',
      finished: '2026-11-22T02:05:00.000Z',
      itemsProcessed: 1,
      itemsFailed: 0,
      bytesProcessed: 1,
    });
    const area = (name: string | null): OverviewDashboard['backup'] => ({
      lastJob: name ? run(name) : null,
      failedRuns: 2,
      protectedCount: 5,
      bytes: 1024 ** 2,
    });
    await renderPortal('/', {
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', {
        periodDays: 30,
        backup: area('Nightly OneDrive'),
        emailArchive: area(null),
        teamsArchive: area(null),
        dataManagement: { savedBytes: 1024 ** 3, monthlySaving: 0.2, currency: 'EUR' },
        license: {
          kind: 'trial',
          backupJobsLeft: { onedrive: 0, sharepoint: 1, teams: 1 },
          restoresLeft: { onedrive: 7 },
        },
        recentFailures: [{ ...run('Mail archive'), status: 'failed', message: 'Mailbox not found' }],
      }),
    });
    const backup = await screen.findByTestId('area-backup');
    expect(within(backup).getByText('Nightly OneDrive')).toBeTruthy();
    expect(within(backup).getByRole('link', { name: 'Open Backup and restore' }).getAttribute('href')).toBe(
      '/backup-and-restore/dashboard',
    );
    expect(within(screen.getByTestId('area-emailArchive')).getByText('No job has run yet.')).toBeTruthy();
    expect(screen.getByTestId('area-dataManagement').textContent).toContain('1 GB');
    expect(screen.getByTestId('licence').textContent).toContain('OneDrive: 0');
    expect(screen.getByTestId('recent-failures').textContent).toContain('Mailbox not found');
  });
});

describe('the reports of every area', () => {
  it('filter by area, type and dates', async () => {
    signedIn();
    const queries: URLSearchParams[] = [];
    const { user } = await renderPortal('/reports', {
      'legacy.workers.client': client,
      'apollo.reporting.list': ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json(testPage([]));
      },
    });
    await screen.findByTestId('table-empty');
    expect(queries.at(-1)?.getAll('types')).toEqual([]);
    await user.selectOptions(screen.getByLabelText('Area'), 'emailArchive');
    await waitFor(() => expect(queries.at(-1)?.getAll('types')).toEqual(['exchangeArchive', 'archiveDeletion']));
    await user.selectOptions(screen.getByLabelText('Type'), 'archiveDeletion');
    await waitFor(() => expect(queries.at(-1)?.get('type')).toBe('archiveDeletion'));
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-10');
    await waitFor(() => expect(queries.at(-1)?.get('to')).toBe('2026-11-11T00:00:00.000Z'));
    expect(queries.at(-1)?.get('from')).toBe('2026-11-01T00:00:00.000Z');
  });

  it('refuse a "from" after "to" on the field, asking for no list with that range', async () => {
    signedIn();
    const queries: URLSearchParams[] = [];
    const { user } = await renderPortal('/reports', {
      'legacy.workers.client': client,
      'apollo.reporting.list': ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json(testPage([]));
      },
    });
    await screen.findByTestId('table-empty');
    await user.type(screen.getByLabelText('From'), '2026-11-10');
    await waitFor(() => expect(queries.at(-1)?.get('from')).toBe('2026-11-10T00:00:00.000Z'));
    const asked = queries.length;
    const to = screen.getByLabelText('To');
    await user.type(to, '2026-11-01');
    expect(screen.getByText("Must be greater or less than another field's value.")).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    // Given time, still nothing was asked for with the reversed range.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(queries).toHaveLength(asked);
    expect(queries.some((q) => q.get('to') !== null)).toBe(false);

    await user.clear(to);
    await user.type(to, '2026-11-20');
    await waitFor(() => expect(queries.at(-1)?.get('to')).toBe('2026-11-21T00:00:00.000Z'));
    expect(screen.queryByText("Must be greater or less than another field's value.")).toBeNull();
  });
});
