/**
 * The figures defined once: each screen names the figure it shows with the same words, in English
 * and German, and says what it means with the same definition as the help center.
 */
import type {
  ArchiveStatistics,
  DashboardApplication,
  OverviewDashboard,
  TeamsArchiveStatistics,
} from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
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

const backupDashboard: Resolvers = {
  'legacy.workers.client': client,
  'apollo.dashboards.application': ({ params }) => {
    const base = { ...period, application: params.application as DashboardApplication };
    if (params.view === 'basic')
      return HttpResponse.json({
        ...base,
        view: 'basic',
        protectedCount: 1,
        discoveredCount: 2,
        items: 40,
        lastSuccessfulJob: null,
        jobsByStatus: { finished: 1, running: 0, failed: 0, pending: 0 },
      });
    if (params.view === 'size')
      return HttpResponse.json({
        ...base,
        view: 'size',
        storedBytes: 5 * 1024 ** 2,
        growthBytes: 1024 ** 2,
        series: [
          { date: '2026-10-24', bytes: 4 * 1024 ** 2, items: 30 },
          { date: '2026-11-23', bytes: 5 * 1024 ** 2, items: 40 },
        ],
      });
    return HttpResponse.json({
      ...base,
      view: 'details',
      entries: [
        {
          sourceId: 'u1',
          displayName: 'Adele Vance',
          items: 40,
          bytes: 5 * 1024 ** 2,
          lastBackup: '2026-11-22T02:10:00.000Z',
          lastStatus: 'finished',
        },
      ],
    });
  },
};

/** The definitions a screen lists, as [term, definition]. */
const definitions = () =>
  within(screen.getByTestId('figure-definitions'))
    .getAllByRole('term')
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);

describe('the figures, defined once', () => {
  it('name the backup dashboard’s figures, columns and charts, with their definitions', async () => {
    signedIn();
    await renderPortal('/backup-and-restore/dashboard', backupDashboard);
    expect((await screen.findByTestId('figure-Items protected')).textContent).toBe('40');
    expect(screen.getByTestId('figure-Stored size (after deduplication)').textContent).toBe('5 MB');
    expect(screen.getByRole('img', { name: /^Items protected at the end of each day: / })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Protected accounts' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        // A header's text, without its sort arrow.
        .map((h) => h.textContent?.replace(/\s*[↕▲▼]$/, '')),
    ).toEqual(['Name', 'Items protected', 'Stored size', 'Last backup', 'Status']);
    expect(definitions()).toEqual([
      ['Items protected', en.figures.itemsProtected.definition],
      ['Stored size (after deduplication)', en.figures.storedBytes.definition],
    ]);
    expect(en.figures.storedBytes.definition).toMatch(/each content counted once however many jobs back it up/);
  });

  it('say the same in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    await renderPortal('/backup-and-restore/dashboard', backupDashboard);
    expect((await screen.findByTestId('figure-Geschützte Elemente')).textContent).toBe('40');
    expect(screen.getByTestId('figure-Gespeicherte Größe (nach Deduplizierung)').textContent).toBe('5 MB');
    expect(definitions()).toEqual([
      ['Geschützte Elemente', de.figures.itemsProtected.definition],
      ['Gespeicherte Größe (nach Deduplizierung)', de.figures.storedBytes.definition],
    ]);
  });

  it('show a mail deletion on its own day, as a deletion, beside what each day archived', async () => {
    signedIn();
    const stats: ArchiveStatistics = {
      periodDays: 30,
      mailboxes: 2,
      items: 80,
      bytes: 1024 ** 2,
      growth: [
        { date: '2026-11-21', items: 60, bytes: 600, deletedItems: 0, deletedBytes: 0 },
        { date: '2026-11-22', items: 40, bytes: 400, deletedItems: 0, deletedBytes: 0 },
        { date: '2026-11-23', items: 0, bytes: 0, deletedItems: 20, deletedBytes: 200 },
      ],
      lastSuccessfulJob: null,
    };
    await renderPortal('/archive/dashboard', {
      'legacy.workers.client': client,
      'legacy.email.statistics': respond('legacy.email.statistics', stats),
      'legacy.mailboxes.top': respond('legacy.mailboxes.top', []),
    });
    expect((await screen.findByTestId('figure-Items protected')).textContent).toBe('80');
    expect(screen.getByTestId('figure-Stored size (after deduplication)').textContent).toBe('1 MB');
    expect(screen.getByRole('img', { name: /: Archived per day: .* 0$/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: /: Deleted by retention per day: .* 20$/ })).toBeTruthy();
    expect(screen.getByTestId('archive-deletions').textContent).toMatch(
      /^Retention deleted 20 items in the period: .*23.*: 20\.$/,
    );
    expect(definitions().map(([term]) => term)).toEqual(['Items protected', 'Stored size (after deduplication)']);
  });

  it('show a Teams archive without deletions as such, in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    const stats: TeamsArchiveStatistics = {
      configured: true,
      periodDays: 30,
      teams: 1,
      channels: 2,
      chats: 0,
      messages: 9,
      bytes: 900,
      held: 0,
      heldSources: 0,
      growth: [
        { date: '2026-11-22', messages: 4, deletedMessages: 0 },
        { date: '2026-11-23', messages: 5, deletedMessages: 0 },
      ],
    };
    await renderPortal('/teams/dashboard', {
      'legacy.workers.client': client,
      'legacy.teams.statistics': respond('legacy.teams.statistics', stats),
    });
    expect((await screen.findByTestId('figure-Geschützte Elemente')).textContent).toBe('9');
    expect(screen.getByTestId('archive-deletions').textContent).toBe(
      'Die Aufbewahrung hat im Zeitraum nichts gelöscht.',
    );
  });

  it('name the overview’s stored size as the dashboards do', async () => {
    signedIn();
    const area: OverviewDashboard['backup'] = { lastJob: null, failedRuns: 0, protectedCount: 3, bytes: 2 * 1024 ** 2 };
    await renderPortal('/', {
      'legacy.workers.client': client,
      'apollo.dashboards.overview': respond('apollo.dashboards.overview', {
        periodDays: 30,
        backup: area,
        emailArchive: area,
        teamsArchive: area,
        dataManagement: { savedBytes: 0, monthlySaving: 0, currency: 'EUR' },
        license: { kind: 'full', backupJobsLeft: {}, restoresLeft: {} },
        recentFailures: [],
      }),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
    });
    const backup = await screen.findByTestId('area-backup');
    expect(within(backup).getByText('Stored size')).toBeTruthy();
    await waitFor(() =>
      expect(definitions()).toEqual([['Stored size (after deduplication)', en.figures.storedBytes.definition]]),
    );
  });

  it('are the help center’s answers, word for word', async () => {
    signedIn();
    const { user } = await renderPortal('/helpcenter', { 'legacy.workers.client': client });
    await user.type(await screen.findByLabelText('Search the help'), 'however many jobs');
    const topic = await screen.findByTestId('topic-figures');
    expect(within(topic).getByText(en.figures.storedBytes.definition)).toBeTruthy();
    expect(within(topic).getByText(en.figures.itemsProtected.definition)).toBeTruthy();
  });
});
