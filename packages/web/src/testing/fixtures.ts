/**
 * Shared answers of the component tests, typed by the SDK's contract: a contract change breaks them
 * at compile time.
 */
import type {
  Client,
  DataManagementDashboard,
  FleetClient,
  Job,
  JobCreate,
  Mailbox,
  Page,
  StorageLocation,
  Worker,
} from '@compliance-portal/sdk';

/** The customer worker of the tests (Contoso), with whatever a test changes. */
export function testWorker(overrides: Partial<Worker> = {}): Worker {
  return {
    workerId: 'w1',
    workerIp: '10.64.0.2',
    indexIp: '10.65.0.2',
    clientId: 'c1',
    organisationName: 'Contoso',
    abbr: 'contoso',
    stagingtenant_id: 't1',
    cloud_portal_license: 'full',
    ...overrides,
  };
}

/** The legacy `/client` answer for the test worker's organisation (full licence). */
export function testClient(overrides: Partial<Client> = {}): Client {
  return {
    clientId: 'c1',
    name: 'Contoso',
    license: 'full',
    partnerId: null,
    worker: testWorker(),
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The test tenant's storage location ("Vault"). */
export function testLocation(overrides: Partial<StorageLocation> = {}): StorageLocation {
  return {
    locationId: 'l1',
    name: 'Vault',
    siteAddress: 'https://x',
    usedByJobs: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** What the server answers to a job creation: the posted body with what the server adds. */
export function createdJob(body: JobCreate): Job {
  return {
    jobId: 'j1',
    status: 'pending',
    enabled: true,
    progress: 0,
    started: null,
    finished: null,
    nextRun: null,
    recurrence: null,
    retention: null,
    locationId: null,
    createdAt: '2026-11-23T00:00:00.000Z',
    updatedAt: '2026-11-23T00:00:00.000Z',
    ...body,
  };
}

/** One page of a server-side list holding these items (the first page of 25 unless told). */
export function testPage<T>(
  items: T[],
  total = items.length,
  at: Partial<Omit<Page<T>, 'items' | 'total'>> = {},
): Page<T> {
  return { items, total, page: 1, pageSize: 25, ...at };
}

/** An archived mailbox of the test organisation (Adele Vance's, 5 MB). */
export function testMailbox(overrides: Partial<Mailbox> = {}): Mailbox {
  return {
    mailboxId: 'm1',
    name: 'Adele Vance',
    email: 'adele@contoso.example',
    sizeBytes: 5 * 1024 ** 2,
    kind: 'primary',
    items: 1200,
    held: 0,
    lastArchived: '2026-11-22T02:00:00.000Z',
    ...overrides,
  };
}

/** The data-management dashboard's answer for the test tenant: 3 GB used, nothing saved, empty top lists. */
export function testDataManagementDashboard(overrides: Partial<DataManagementDashboard> = {}): DataManagementDashboard {
  return {
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
    ...overrides,
  };
}

/** A client of the partner's fleet (Contoso, fine: nothing needs attention), with whatever a test changes. */
export function testFleetClient(overrides: Partial<FleetClient> = {}): FleetClient {
  return {
    clientId: 'c1',
    name: 'Contoso',
    abbr: 'contoso',
    license: 'full',
    licenseValidUntil: null,
    workerIp: '10.64.0.2',
    tenantDomain: 'contoso.onmicrosoft.com',
    attention: 'ok',
    issues: [],
    runs24h: { failed: 0, warnings: 0 },
    runs7d: { failed: 0, warnings: 0 },
    lastSuccess: {
      oneDrive: '2026-11-22T02:00:00.000Z',
      sharePoint: '2026-11-22T02:00:00.000Z',
      teams: null,
      mailArchive: '2026-11-22T03:00:00.000Z',
      teamsArchive: null,
    },
    coverage: {
      accounts: { protected: 10, found: 10 },
      sites: { protected: 3, found: 4 },
      teams: { protected: 0, found: 2 },
      mailboxes: { protected: 10, found: 10 },
    },
    storedBytes: 5 * 1024 ** 3,
    growthBytes7d: 200 * 1024 ** 2,
    connection: { state: 'ok', testedAt: '2026-11-20T09:00:00.000Z' },
    runningJobs: 0,
    ...overrides,
  };
}
