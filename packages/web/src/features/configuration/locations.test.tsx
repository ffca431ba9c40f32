/**
 * What the locations say and where the setup guide leads: the kind of store a location's data goes to
 * and its address (never a credential), what a site address is for, whether and when its store was
 * tested and with what result, the form's texts, in English and German; the guide's links, each to
 * the screen (and tab) where its step is done.
 */
import type { AuditEntry, OverviewDashboard, StorageLocation, Tenant } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../components/ui/format';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testLocation, testPage, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};
const tenant: Tenant = {
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
};

const TESTED_AT = '2026-11-02T08:00:00.000Z';
const vault = testLocation({
  name: 'Vault',
  siteAddress: 'https://contoso.sharepoint.com/sites/vault',
  store: 'server',
});
const blob = testLocation({
  locationId: 'l2',
  name: 'Blob',
  // A SAS in the site address: the list shows where the bytes go, never the signature.
  siteAddress: 'https://contosoarchive.blob.core.windows.net/backups/portal?sv=2024-05-04&sig=SECRETSIG',
  store: 'azureBlob',
  storeAddress: 'https://contosoarchive.blob.core.windows.net/backups/portal/',
  probe: { at: TESTED_AT, ok: true },
  hasSecret: false,
});
const bucket = testLocation({
  locationId: 'l3',
  name: 'Bucket',
  siteAddress: 's3://contoso-backups?endpoint=https://minio.example:9000',
  store: 's3',
  storeAddress: 's3://contoso-backups/ (https://minio.example:9000)',
  probe: { at: TESTED_AT, ok: false, code: 'storeCredentialsRefused', reason: 'InvalidAccessKeyId' },
  accessKeyId: 'AKIA',
  hasSecret: true,
});
const untested = testLocation({
  locationId: 'l4',
  name: 'Untested',
  siteAddress: 's3://contoso-old',
  store: 's3',
  storeAddress: 's3://contoso-old/',
  probe: null,
  accessKeyId: 'AKIA',
  hasSecret: true,
});

/** The configuration's answers, the locations as the server has them (changed by a test of a store). */
function configuration(locations: StorageLocation[], probed: string[] = []): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.tenants.list': respond('apollo.tenants.list', [tenant]),
    'apollo.locations.list': () => HttpResponse.json(locations),
    'apollo.locations.probe': ({ params }) => {
      probed.push(String(params.locationId));
      const index = locations.findIndex((l) => l.locationId === params.locationId);
      const tested = { ...(locations[index] as StorageLocation), probe: { at: '2026-11-03T09:30:00.000Z', ok: true } };
      locations.splice(index, 1, tested);
      return HttpResponse.json(tested);
    },
  };
}

const rowOf = (table: HTMLElement, name: string) => {
  const row = within(table)
    .getAllByRole('row')
    .find((r) => within(r).queryByText(name));
  if (!row) throw new Error(`no row of ${name}`);
  return row;
};

describe('storage locations', () => {
  it('say where each location’s data goes, what its site address is for, and how its store’s last test went', async () => {
    signedIn();
    const probed: string[] = [];
    const { user, portal } = await renderPortal(
      '/configuration?tab=locations',
      configuration([vault, blob, bucket, untested], probed),
    );
    // The address opens the Locations tab.
    expect(screen.getByRole('tab', { name: 'Locations' }).getAttribute('aria-selected')).toBe('true');
    const table = await screen.findByRole('table', { name: 'Locations' });
    await within(table).findByText('Vault');
    expect(screen.getByTestId('locations-intro').textContent).toBe(
      'A location says where a job keeps what it backs up or archives. Wherever that is, the data is encrypted with your organisation’s key.',
    );
    expect(within(table).getByRole('columnheader', { name: 'Where the data goes' })).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Last test' })).toBeTruthy();
    const store = (name: string) => within(rowOf(table, name)).getByTestId('location-store').textContent;
    const probe = (name: string) => within(rowOf(table, name)).getByTestId('location-probe').textContent;

    // A SharePoint site's location: the portal's own store; the site only names it.
    expect(store('Vault')).toBe(
      'The portal’s own store' +
        'Run by the portal’s operator: on the portal server or in the storage the operator chose.' +
        'Site address https://contoso.sharepoint.com/sites/vault' +
        'It only names the location, such as the SharePoint site the data belongs to: the portal never writes to it.',
    );
    expect(probe('Vault')).toBe('Not tested per location');
    expect(within(rowOf(table, 'Vault')).queryByRole('button', { name: /Test the store/ })).toBeNull();

    // Object stores: the container or bucket the bytes go to, without the SAS; the test's time and result.
    expect(store('Blob')).toBe('Azure Blob Storage' + 'https://contosoarchive.blob.core.windows.net/backups/portal/');
    expect(rowOf(table, 'Blob').textContent).not.toContain('SECRETSIG');
    const at = formatDateTime(TESTED_AT, 'en');
    expect(probe('Blob')).toBe(`WorksTested ${at}`);
    expect(store('Bucket')).toBe('S3' + 's3://contoso-backups/ (https://minio.example:9000)');
    expect(probe('Bucket')).toBe(
      `FailedTested ${at}The storage service refused the access key or secret. (InvalidAccessKeyId)`,
    );
    expect(probe('Untested')).toBe('Not tested yet');

    // Testing a store again: the server's new result replaces the old, with a toast.
    await user.click(within(rowOf(table, 'Bucket')).getByRole('button', { name: 'Test the store of “Bucket”' }));
    await waitFor(() =>
      expect(probe('Bucket')).toBe(`WorksTested ${formatDateTime('2026-11-03T09:30:00.000Z', 'en')}`),
    );
    expect(probed).toEqual(['l3']);
    expect(await screen.findByText('“Bucket”: the store works.')).toBeTruthy();

    // The tenants' tab is the one without a name in the address.
    await user.click(screen.getByRole('tab', { name: 'Tenants' }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({}));
    await user.click(screen.getByRole('tab', { name: 'Locations' }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ tab: 'locations' }));
  });

  it('say in the form where the data will go and whether it is tested, as the address is typed', async () => {
    signedIn();
    const { user } = await renderPortal('/configuration?tab=locations', configuration([vault]));
    await user.click(await screen.findByRole('button', { name: 'Add location' }));
    const dialog = await screen.findByRole('dialog');
    const address = within(dialog).getByLabelText(/Site address/);
    expect(document.getElementById(address.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'The address chooses where the data goes:' +
        'Azure Blob Storage: the container’s URL, https://<account>.blob.core.windows.net/<container>, with the account key as the secret.' +
        'S3: s3://<bucket>, with ?endpoint=<url> for an S3-compatible service, and the access key ID and secret.' +
        'Any other address, such as a SharePoint site: the portal’s own store. The address then only names the location; the portal never writes to the site.',
    );
    expect(within(dialog).queryByTestId('location-goes-to')).toBeNull();
    await user.type(address, 'https://contoso.sharepoint.com/sites/archive');
    expect(within(dialog).getByTestId('location-goes-to').textContent).toBe(
      'Where the data goes: The portal’s own store. The portal’s own store is run by the portal’s operator and not tested here.',
    );
    await user.clear(address);
    await user.type(address, 's3://contoso-offsite');
    expect(within(dialog).getByTestId('location-goes-to').textContent).toBe(
      'Where the data goes: S3. Saving tests the store: a test object is written, read back and deleted.',
    );
  });

  it('speak German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    const { user } = await renderPortal('/configuration?tab=locations', configuration([vault, blob, bucket]));
    const table = await screen.findByRole('table', { name: 'Speicherorte' });
    await within(table).findByText('Vault');
    expect(within(table).getByRole('columnheader', { name: 'Wohin die Daten gehen' })).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Letzter Test' })).toBeTruthy();
    const vaultRow = rowOf(table, 'Vault');
    expect(within(vaultRow).getByTestId('location-store').textContent).toBe(
      'Eigener Speicher des Portals' +
        'Vom Betreiber des Portals betrieben: auf dem Portalserver oder in dem Speicher, den der Betreiber gewählt hat.' +
        'Websiteadresse https://contoso.sharepoint.com/sites/vault' +
        'Sie benennt den Speicherort nur, etwa nach der SharePoint-Website, zu der die Daten gehören: Das Portal schreibt nie dorthin.',
    );
    expect(within(vaultRow).getByTestId('location-probe').textContent).toBe('Nicht je Speicherort getestet');
    const at = formatDateTime(TESTED_AT, 'de');
    expect(within(rowOf(table, 'Blob')).getByTestId('location-probe').textContent).toBe(
      `FunktioniertGetestet am ${at}`,
    );
    expect(within(rowOf(table, 'Bucket')).getByTestId('location-probe').textContent).toBe(
      `FehlgeschlagenGetestet am ${at}Der Speicherdienst hat den Zugriffsschlüssel oder das Geheimnis abgelehnt. (InvalidAccessKeyId)`,
    );
    expect(within(rowOf(table, 'Bucket')).getByRole('button', { name: 'Speicher von „Bucket“ testen' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Speicherort hinzufügen' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(
      within(dialog).getByLabelText(/Websiteadresse/),
      'https://contosoarchive.blob.core.windows.net/archiv',
    );
    expect(within(dialog).getByTestId('location-goes-to').textContent).toBe(
      'Wohin die Daten gehen: Azure Blob Storage. Beim Speichern wird der Speicher getestet: Ein Testobjekt wird geschrieben, zurückgelesen und gelöscht.',
    );
  });
});

describe('the setup guide', () => {
  const overview: OverviewDashboard = {
    periodDays: 30,
    backup: { lastJob: null, failedRuns: 0, protectedCount: 0, bytes: 0 },
    emailArchive: { lastJob: null, failedRuns: 0, protectedCount: 0, bytes: 0 },
    teamsArchive: { lastJob: null, failedRuns: 0, protectedCount: 0, bytes: 0 },
    dataManagement: { savedBytes: 0, monthlySaving: 0, currency: 'EUR' },
    license: { kind: 'full', backupJobsLeft: {}, restoresLeft: {} },
    recentFailures: [],
  };
  const tested: AuditEntry = {
    seq: 1,
    at: TESTED_AT,
    actorUserId: 'u1',
    actorEmail: 'admin@contoso.example',
    actorName: null,
    organisationId: 'c1',
    action: 'tenant.connectionTest',
    target: 't1',
    targetName: null,
    outcome: 'success',
    ip: '127.0.0.1',
    details: {},
    prevHash: '0'.repeat(64),
    hash: '1'.repeat(64),
  };
  /** A connected, tested tenant without a location or a job: the guide's third step is next. */
  const resolvers = (): Resolvers => ({
    ...configuration([]),
    'apollo.audit.list': respond('apollo.audit.list', testPage([tested])),
    'apollo.jobs.list': () => HttpResponse.json(testPage([], 0, { pageSize: 1 })),
    'apollo.dashboards.overview': respond('apollo.dashboards.overview', overview),
    'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([])),
  });

  it('links every step to the screen where it is done, and “Add a storage location” opens the Locations tab', async () => {
    signedIn();
    const { user, path, portal } = await renderPortal('/', resolvers());
    const guide = await screen.findByTestId('first-run-guide');
    expect(within(guide).getByTestId('step-locations').textContent).toContain(
      'Under Configuration, Locations: choose where backups and archives go: the portal’s own store, an Azure Blob Storage container or an S3 bucket.',
    );
    expect(
      within(guide)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Connect a tenant', '/configuration'],
      ['Test the connection', '/configuration'],
      ['Add a storage location', '/configuration?tab=locations'],
      ['Create a backup job', '/backup-and-restore/backup-jobs'],
      ['Create an archive job', '/archive/jobs'],
    ]);
    await user.click(within(guide).getByRole('link', { name: 'Add a storage location' }));
    await waitFor(() => expect(path()).toBe('/configuration'));
    expect(portal.router.state.location.search).toEqual({ tab: 'locations' });
    expect((await screen.findByRole('tab', { name: 'Locations' })).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('button', { name: 'Add location' })).toBeTruthy();
    expect(screen.queryByText('No Tenant was found in the Configuration. Please configure one.')).toBeNull();
    expect(screen.queryByRole('table', { name: 'Tenants' })).toBeNull();
  });

  it('says where the locations keep their data once there are some', async () => {
    signedIn();
    const done = { ...resolvers(), ...configuration([vault, blob, bucket]) };
    await renderPortal('/', done);
    const step = await screen.findByTestId('step-locations');
    await waitFor(() =>
      expect(step.textContent).toContain(
        '3 storage locations: 1 in the portal’s own store, 1 in Azure Blob Storage, and 1 in S3.',
      ),
    );
  });

  it('says in German where data can go', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    await renderPortal('/', resolvers());
    const guide = await screen.findByTestId('first-run-guide');
    expect(within(guide).getByTestId('step-locations').textContent).toContain(
      'Unter Konfiguration, Speicherorte: wählen, wohin Sicherungen und Archive gehen: in den eigenen Speicher des Portals, einen Azure-Blob-Storage-Container oder einen S3-Bucket.',
    );
    expect(within(guide).getByRole('link', { name: 'Speicherort hinzufügen' }).getAttribute('href')).toBe(
      '/configuration?tab=locations',
    );
  });

  it('says in German where the locations keep their data', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    await renderPortal('/', { ...resolvers(), ...configuration([vault, blob]) });
    const step = await screen.findByTestId('step-locations');
    await waitFor(() =>
      expect(step.textContent).toContain(
        '2 Speicherorte: 1 im eigenen Speicher des Portals und 1 in Azure Blob Storage.',
      ),
    );
  });
});
