/**
 * What each area protects, by kind: the dashboards, the overview, the monitor and the reports give the
 * mails, events, contacts and tasks of the mail archive and the files, list items and pages of the
 * SharePoint backup beside their total, which is their sum, in English and German. An answer without
 * the kinds (an older server, or an offline copy saved before) shows its total alone.
 */
import type {
  ArchiveStatistics,
  DashboardApplication,
  JobRun,
  OverviewDashboard,
  Report,
} from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import type { Resolvers } from '../../testing/portal';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker({ stagingtenant_id: 't1' }));
};
const client = respond('legacy.workers.client', testClient());
const period = { periodDays: 30, from: '2026-10-24T00:00:00.000Z', to: '2026-11-23T00:00:00.000Z' };
const siteKinds = { files: 1200, listItems: 30, pages: 4 };

const backupDashboard: Resolvers = {
  'legacy.workers.client': client,
  'apollo.dashboards.application': ({ params }) => {
    const base = { ...period, application: params.application as DashboardApplication };
    if (params.view === 'basic')
      return HttpResponse.json({
        ...base,
        view: 'basic',
        protectedCount: 1,
        discoveredCount: 1,
        items: 1234,
        itemsByKind: siteKinds,
        lastSuccessfulJob: null,
        jobsByStatus: { finished: 1, running: 0, failed: 0, pending: 0 },
      });
    if (params.view === 'size')
      return HttpResponse.json({
        ...base,
        view: 'size',
        storedBytes: 1024,
        growthBytes: 0,
        series: [{ date: '2026-11-23', bytes: 1024, items: 1234 }],
      });
    return HttpResponse.json({
      ...base,
      view: 'details',
      entries: [
        {
          sourceId: 's1',
          displayName: 'Projects site',
          items: 1234,
          itemsByKind: siteKinds,
          bytes: 1024,
          lastBackup: '2026-11-22T02:10:00.000Z',
          lastStatus: 'finished',
        },
        {
          sourceId: 'u1',
          displayName: 'Adele Vance',
          items: 7,
          itemsByKind: { files: 7 },
          bytes: 10,
          lastBackup: '2026-11-22T02:10:00.000Z',
          lastStatus: 'finished',
        },
      ],
    });
  },
};

const mailStats = (kinds?: ArchiveStatistics['itemsByKind']): ArchiveStatistics => ({
  periodDays: 30,
  mailboxes: 2,
  items: 1054,
  ...(kinds ? { itemsByKind: kinds } : {}),
  bytes: 1024,
  growth: [{ date: '2026-11-23', items: 0, bytes: 0, deletedItems: 0, deletedBytes: 0 }],
  lastSuccessfulJob: null,
});

const run = (over: Partial<JobRun> & Pick<JobRun, 'reportId' | 'jobName'>): JobRun => ({
  jobId: `j-${over.jobName}`,
  jobType: 'exchangeArchive',
  application: 'exchange',
  status: 'finished',
  progress: 100,
  started: '2026-11-23T02:00:00.000Z',
  finished: '2026-11-23T02:05:00.000Z',
  itemsProcessed: 50,
  itemsFailed: 0,
  bytesProcessed: 100,
  ...over,
});

const rowOf = async (name: string) => {
  const row = (await screen.findByText(name)).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row as HTMLElement;
};

describe('the figures by kind', () => {
  it('the SharePoint backup dashboard gives files, list items and pages beside their sum', async () => {
    signedIn();
    await renderPortal('/backup-and-restore/dashboard', backupDashboard);
    const figure = await screen.findByTestId('figure-Items protected');
    expect(figure.textContent).toBe('1,234');
    expect(figure.nextElementSibling?.textContent).toBe('1,200 files, 30 list items, and 4 pages');
    // Per site the same; a row of one kind says its number alone.
    const table = screen.getByRole('table', { name: 'Protected accounts' });
    const site = within(table).getByText('Projects site').closest('tr') as HTMLElement;
    expect(within(site).getByText('1,200 files, 30 list items, and 4 pages')).toBeTruthy();
    const account = within(table).getByText('Adele Vance').closest('tr') as HTMLElement;
    expect(within(account).queryByText(/files/)).toBeNull();
    expect(within(account).getByText('7')).toBeTruthy();
  });

  it('says the same in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    await renderPortal('/backup-and-restore/dashboard', backupDashboard);
    const figure = await screen.findByTestId('figure-Geschützte Elemente');
    expect(figure.textContent).toBe('1.234');
    expect(figure.nextElementSibling?.textContent).toBe('1.200 Dateien, 30 Listenelemente und 4 Seiten');
  });

  it('the mail archive dashboard gives mails, events, contacts and tasks, one of a kind in the singular', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    await renderPortal('/archive/dashboard', {
      'legacy.workers.client': client,
      'legacy.email.statistics': respond(
        'legacy.email.statistics',
        mailStats({ mails: 1000, events: 50, contacts: 1, tasks: 3 }),
      ),
      'legacy.mailboxes.top': respond('legacy.mailboxes.top', []),
    });
    const figure = await screen.findByTestId('figure-Geschützte Elemente');
    expect(figure.textContent).toBe('1.054');
    expect(figure.nextElementSibling?.textContent).toBe('1.000 E-Mails, 50 Termine, 1 Kontakt und 3 Aufgaben');
  });

  it('an archive answer without kinds (an older server or an offline copy) shows its total and its usual note', async () => {
    signedIn();
    await renderPortal('/archive/dashboard', {
      'legacy.workers.client': client,
      'legacy.email.statistics': respond('legacy.email.statistics', mailStats()),
      'legacy.mailboxes.top': respond('legacy.mailboxes.top', []),
    });
    const figure = await screen.findByTestId('figure-Items protected');
    expect(figure.textContent).toBe('1,054');
    expect(figure.nextElementSibling?.textContent).toBe(en.archive.items);
  });

  it('the overview counts each area’s items by kind', async () => {
    signedIn();
    const area: OverviewDashboard['teamsArchive'] = { lastJob: null, failedRuns: 0, protectedCount: 3, bytes: 2048 };
    await renderPortal('/', {
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', {
        periodDays: 30,
        backup: { ...area, items: 1234, itemsByKind: { files: 1200, messages: 0, listItems: 30, pages: 4 } },
        emailArchive: { ...area, items: 14, itemsByKind: { mails: 10, events: 2, contacts: 1, tasks: 1 } },
        teamsArchive: area,
        dataManagement: { savedBytes: 0, monthlySaving: 0, currency: 'EUR' },
        license: { kind: 'full', backupJobsLeft: {}, restoresLeft: {} },
        recentFailures: [],
      }),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    const backup = await screen.findByTestId('area-backup');
    expect(
      within(backup).getByText('1,234 (1,200 files, 0 messages, 30 list items, and 4 pages)', { exact: true }),
    ).toBeTruthy();
    const mail = screen.getByTestId('area-emailArchive');
    expect(within(mail).getByText('14 (10 mails, 2 events, 1 contact, and 1 task)')).toBeTruthy();
    // The Teams archive says no items: its row is not shown.
    expect(within(screen.getByTestId('area-teamsArchive')).queryByText('Items protected')).toBeNull();
  });

  it('the monitor lists a run’s items as the sum of its kinds, and its detail says them', async () => {
    signedIn();
    const { user } = await renderPortal('/archive/job-monitor', {
      'legacy.workers.client': client,
      'apollo.monitoring.list': respond(
        'apollo.monitoring.list',
        testPage([
          run({
            reportId: 'r1',
            jobName: 'Nightly mail',
            itemsByKind: { mails: 50, events: 7, contacts: 2, tasks: 1 },
          }),
          run({ reportId: 'r2', jobName: 'Older', itemsProcessed: 9 }),
        ]),
      ),
      'apollo.monitoring.accounts': respond('apollo.monitoring.accounts', testPage([])),
    });
    const row = await rowOf('Nightly mail');
    expect(within(row).getByText('60')).toBeTruthy();
    expect(within(row).getByText('50 mails, 7 events, 2 contacts, and 1 task')).toBeTruthy();
    expect(within(await rowOf('Older')).getByText('9')).toBeTruthy();
    await user.click(within(row).getByText('Nightly mail'));
    const detail = await screen.findByRole('dialog');
    expect(await within(detail).findByText('60 (50 mails, 7 events, 2 contacts, and 1 task)')).toBeTruthy();
  });

  it('the reports give a run’s items by kind, in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    const report: Report = {
      reportId: 'r1',
      title: 'Site 2026-11-23 02:00',
      jobId: 'j1',
      jobName: 'Site',
      jobType: 'backup',
      application: 'sharepoint',
      status: 'finished',
      started: '2026-11-23T02:00:00.000Z',
      finished: '2026-11-23T02:05:00.000Z',
      totals: { accounts: 1, items: 3, bytes: 10, failures: 0, itemsByKind: { files: 3, listItems: 10, pages: 3 } },
    };
    await renderPortal('/backup-and-restore/reports', {
      'legacy.workers.client': client,
      'apollo.reporting.list': respond('apollo.reporting.list', testPage([report])),
    });
    const row = await rowOf('Site');
    expect(within(row).getByText('16')).toBeTruthy();
    expect(within(row).getByText('3 Dateien, 10 Listenelemente und 3 Seiten')).toBeTruthy();
  });
});
