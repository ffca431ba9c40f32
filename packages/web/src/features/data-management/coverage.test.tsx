import { respond } from '@compliance-portal/sdk/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testDataManagementDashboard, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};
const client = respond('legacy.workers.client', testClient());

/** Every site in a clean-up job, two of them with old versions the jobs' rules keep, one of them in none. */
const allCovered = testDataManagementDashboard({
  coverage: { sites: 3, covered: 3, withOldVersions: 2, coveredWithOldVersions: 2 },
  topCleanupCandidates: [
    {
      sourceId: 'g1',
      kind: 'team',
      displayName: 'Project Falcon',
      eligibleVersions: 30,
      reclaimableBytes: 9000,
      covered: true,
    },
    {
      sourceId: 's1',
      kind: 'site',
      displayName: 'Marketing',
      eligibleVersions: 12,
      reclaimableBytes: 8192,
      covered: true,
    },
  ],
});

const someCovered = testDataManagementDashboard({
  coverage: { sites: 5, covered: 2, withOldVersions: 2, coveredWithOldVersions: 1 },
  topSitesWithoutDataManagement: [
    { siteId: 's2', displayName: 'Finance', bytes: 4096 },
    { siteId: 's3', displayName: 'Legal', bytes: 2048 },
    { siteId: 's4', displayName: 'Sales', bytes: 1024 },
  ],
  topCleanupCandidates: [
    {
      sourceId: 's2',
      kind: 'site',
      displayName: 'Finance',
      eligibleVersions: 7,
      reclaimableBytes: 700,
      covered: false,
    },
    {
      sourceId: 's1',
      kind: 'site',
      displayName: 'Marketing',
      eligibleVersions: 3,
      reclaimableBytes: 300,
      covered: true,
    },
  ],
});

describe('the data-management dashboard’s coverage statement', () => {
  it('agrees with its table: every site is in a job, and the sites with old versions say so', async () => {
    signedIn();
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', allCovered),
    });
    expect((await screen.findByTestId('coverage-statement')).textContent).toBe(
      'All 3 sites and team sites the storage analysis read are in a version clean-up job.',
    );
    expect(screen.getByTestId('coverage-old-versions').textContent).toBe(
      '2 sites and team sites have old versions: 2 are in a clean-up job (its rule keeps these versions, or it has not run since the analysis), 0 are in none.',
    );
    expect(screen.queryByText(/Every site is covered/)).toBeNull();
    const table = screen.getByRole('table', { name: /Top 20 teams and sites/ });
    expect(within(table).getByRole('columnheader', { name: 'Clean-up job' })).toBeTruthy();
    expect(screen.getByTestId('covered-g1').textContent).toBe('Included');
    expect(screen.getByTestId('covered-s1').textContent).toBe('Included');
  });

  it('counts the sites outside any job beside the list of the largest, and marks them in the candidates', async () => {
    signedIn();
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', someCovered),
    });
    expect((await screen.findByTestId('coverage-statement')).textContent).toBe(
      '2 of 5 sites and team sites are in a version clean-up job; 3 are in none (the largest are listed).',
    );
    const unmanaged = screen.getByRole('table', { name: /Top 10 sites/ });
    expect(within(unmanaged).getAllByRole('row')).toHaveLength(1 + 3);
    expect(screen.getByTestId('coverage-old-versions').textContent).toMatch(
      /^2 sites .*: 1 are in a clean-up job .*, 1 are in none\.$/,
    );
    expect(screen.getByTestId('covered-s2').textContent).toBe('None');
    expect(screen.getByTestId('covered-s1').textContent).toBe('Included');
  });

  it('says the same in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': respond('apollo.dashboards.sharepointDataManagement', someCovered),
    });
    expect((await screen.findByTestId('coverage-statement')).textContent).toBe(
      '2 von 5 Websites und Team-Websites sind in einem Versionsbereinigungsauftrag; 3 sind in keinem (die größten sind aufgeführt).',
    );
    expect(screen.getByTestId('covered-s2').textContent).toBe('Keiner');
    expect(screen.getByRole('columnheader', { name: 'Bereinigungsauftrag' })).toBeTruthy();
  });
});
