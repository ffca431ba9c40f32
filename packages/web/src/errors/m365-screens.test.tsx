/**
 * Every screen that reads Microsoft 365 says a failure where it happened, with the cause and its
 * remedy (the one alert of shared/m365-failure.tsx): the connection test and user synchronisation,
 * the backup wizard (each workload its own words), the archive wizard, the Teams archive's dashboard
 * (not "not configured"), proxy rights, eDiscovery's mailbox and team filters (loading, none found,
 * the failure, no location), the file manager's versions and clean-up preview.
 */
import {
  type ConnectionTestResult,
  type DiscoveredSource,
  errorTexts,
  type FileNode,
  germanErrorMessages,
  type Microsoft365Failure,
  type Microsoft365FailureCode,
  type Tenant,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../session/storage';
import { testClient, testLocation, testPage, testWorker } from '../testing/fixtures';
import { renderPortal, startMsw } from '../testing/portal';

startMsw();
afterEach(() => localStorage.removeItem('language'));

const client = respond('legacy.workers.client', testClient());
const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};
/** A failure of Microsoft 365 as the server answers it: 502 with the cause as code and microsoft365. */
const m365 = (failure: Microsoft365Failure) =>
  refuse(502, {
    title: 'Bad Gateway',
    status: 502,
    code: failure.code,
    message: errorTexts[failure.code](),
    microsoft365: failure,
    traceId: 'req-1',
  });
const failed = (code: Microsoft365FailureCode) => () => m365({ code });
const source = (sourceId: string, displayName: string, kind: DiscoveredSource['kind']): DiscoveredSource => ({
  sourceId,
  kind,
  displayName,
  protected: false,
});
/** The alert with this title, and its cause's sentence (German first loads its texts: a while on a busy machine). */
async function alertNamed(title: string, within_: Pick<typeof screen, 'findByRole'> = screen) {
  const alert = await within_.findByRole('alert', { name: title }, { timeout: 10_000 });
  return { alert, cause: within(alert).getByTestId('m365-cause').textContent };
}

describe('configuration', () => {
  const tenant: Tenant = {
    tenantId: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01',
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

  it('says a failed connection test by its cause, in English and German, with Microsoft’s ids', async () => {
    signedIn();
    const result: ConnectionTestResult = {
      ok: false,
      latencyMs: 80,
      checkedAt: '2026-11-23T00:00:00.000Z',
      message: errorTexts.m365SecretExpired(),
      failure: { code: 'm365SecretExpired', status: 401, aadsts: 'AADSTS7000222', correlationId: 'corr-1' },
    };
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': client,
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant]),
      'apollo.configuration.testOnedriveConnection': respond('apollo.configuration.testOnedriveConnection', result),
    });
    const table = await screen.findByRole('table', { name: 'Tenants' });
    await user.click(await within(table).findByRole('button', { name: 'Test connection' }));
    const { alert, cause } = await alertNamed('The connection to contoso.onmicrosoft.com failed.');
    expect(cause).toBe(
      "The client secret has expired. Create a new client secret in the app registration's Certificates & secrets and enter its value in the tenant's settings.",
    );
    expect(within(alert).getByText('AADSTS7000222')).toBeTruthy();
    expect(screen.queryByTestId('connection-result')).toBeNull();
    await user.selectOptions(screen.getByTestId('language-switch'), 'de');
    const german = await alertNamed('Die Verbindung zu contoso.onmicrosoft.com ist fehlgeschlagen.');
    expect(german.cause).toBe(germanErrorMessages.m365SecretExpired);
  });

  it('says why user synchronisation failed, under its own title', async () => {
    signedIn();
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': client,
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant]),
      'legacy.user.users': respond('legacy.user.users', { items: [], total: 0, page: 1, pageSize: 10 }),
      'apollo.configuration.syncUsers': () =>
        refuse(502, {
          title: 'Bad Gateway',
          status: 502,
          message: 'Failures to synchronize users',
          detail: errorTexts.m365HostNotFound(),
          code: 'm365HostNotFound',
          microsoft365: { code: 'm365HostNotFound', error: 'ENOTFOUND', host: 'graph.microsoft.com' },
        }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Users' }));
    await user.click(await screen.findByRole('button', { name: 'Synchronise users' }));
    const { alert, cause } = await alertNamed('Failures to synchronize users');
    expect(cause).toBe(errorTexts.m365HostNotFound());
    expect(within(alert).getByText('Address: graph.microsoft.com')).toBeTruthy();
  });
});

describe('the job wizards', () => {
  it('the backup wizard says what each workload could not load, and why', async () => {
    signedIn();
    const { user } = await renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': ({ request }) => {
        const application = new URL(request.url).searchParams.get('application');
        return application === 'onedrive'
          ? m365({ code: 'm365Unreachable', error: 'ECONNREFUSED' })
          : application === 'sharepoint'
            ? m365({
                code: 'm365PermissionMissing',
                missingPermissions: [{ permission: 'Sites.Read.All', areas: ['backup', 'cleanup'] }],
              })
            : m365({ code: 'm365Throttled', retryAfter: 30 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create backup job' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Nightly');
    const choose = async (application: string) => {
      await user.click(within(dialog).getByText(application));
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    };
    await choose('OneDrive');
    expect((await alertNamed('The OneDrive accounts could not be loaded.', within(dialog))).cause).toBe(
      errorTexts.m365Unreachable(),
    );
    expect(within(dialog).queryByText(/teams, channels, folder or site/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    await choose('SharePoint');
    const sites = await alertNamed('The SharePoint sites could not be loaded.', within(dialog));
    expect(sites.cause).toBe(errorTexts.m365PermissionMissing());
    expect(
      within(sites.alert).getByText('Missing: Sites.Read.All, needed by Backup and Clean-up of old file versions.'),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    await choose('Teams');
    const teams = await alertNamed('The teams could not be loaded.', within(dialog));
    expect(within(teams.alert).getByText('Microsoft asks to wait 30 seconds before the next try.')).toBeTruthy();
  });

  it('the mail archive wizard says why the mailboxes could not be loaded', async () => {
    signedIn();
    const { user } = await renderPortal('/archive/jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': failed('m365ConsentMissing'),
    });
    await user.click(await screen.findByRole('button', { name: 'Create archive job' }));
    const dialog = await screen.findByRole('dialog');
    expect((await alertNamed('The mailboxes could not be loaded.', within(dialog))).cause).toBe(
      errorTexts.m365ConsentMissing(),
    );
  });
});

describe('the Teams archive and proxy rights', () => {
  it('the Teams dashboard says why Microsoft 365 could not be read, not that Teams is not set up', async () => {
    signedIn();
    await renderPortal('/teams/dashboard', {
      'legacy.workers.client': client,
      'legacy.teams.statistics': failed('m365TenantUnknown'),
    });
    expect((await alertNamed('The Teams archive figures could not be loaded.')).cause).toBe(
      errorTexts.m365TenantUnknown(),
    );
    expect(screen.queryByTestId('teams-not-configured')).toBeNull();
  });

  it('proxy rights say why the mailboxes and groups could not be loaded, and read them again', async () => {
    signedIn();
    let fail = true;
    const { user } = await renderPortal('/archive/proxy-rights', {
      'legacy.workers.client': client,
      'legacy.proxyRights.accounts': () =>
        fail
          ? m365({ code: 'm365Outage', status: 503 })
          : HttpResponse.json([
              { principalId: 'm1', kind: 'account', displayName: 'Adele Vance', email: 'adele@contoso.example' },
            ]),
    });
    const { alert, cause } = await alertNamed(
      'The mailboxes and groups that can hold proxy rights could not be loaded.',
    );
    expect(cause).toBe(errorTexts.m365Outage());
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('option', { name: 'Adele Vance (adele@contoso.example)' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('eDiscovery’s filters', () => {
  const page = (items: DiscoveredSource[]) => testPage(items);

  it('say they are loading, then offer the mailboxes and teams found', async () => {
    signedIn();
    let release: () => void = () => undefined;
    const answered = new Promise<void>((done) => {
      release = done;
    });
    await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': async ({ request }) => {
        await answered;
        return new URL(request.url).searchParams.get('application') === 'exchange'
          ? HttpResponse.json(page([source('m1', 'Adele Vance', 'mailbox')]))
          : HttpResponse.json(page([source('t1', 'Mark 8 Project Team', 'team')]));
      },
    });
    const mailbox = (await screen.findByLabelText('Mailbox')) as HTMLSelectElement;
    await waitFor(() => expect(mailbox.disabled).toBe(true));
    expect(within(mailbox).getByRole('option').textContent).toBe('Loading mailboxes…');
    const team = screen.getByLabelText('Team') as HTMLSelectElement;
    expect(within(team).getByRole('option').textContent).toBe('Loading teams…');
    release();
    expect(await within(mailbox).findByRole('option', { name: 'Adele Vance' })).toBeTruthy();
    expect(mailbox.disabled).toBe(false);
    expect(await within(team).findByRole('option', { name: 'Mark 8 Project Team' })).toBeTruthy();
  });

  it('say when none was found, and why one could not be read', async () => {
    signedIn();
    await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': ({ request }) =>
        new URL(request.url).searchParams.get('application') === 'exchange'
          ? m365({
              code: 'm365PermissionMissing',
              missingPermissions: [{ permission: 'User.Read.All', areas: ['mailArchive'] }],
            })
          : HttpResponse.json(page([])),
    });
    const { alert, cause } = await alertNamed('The mailboxes could not be loaded.');
    expect(cause).toBe(errorTexts.m365PermissionMissing());
    expect(within(alert).getByText('Missing: User.Read.All, needed by Mail archive.')).toBeTruthy();
    expect(await screen.findByText('No team was found in Microsoft 365.')).toBeTruthy();
    const mailbox = screen.getByLabelText('Mailbox') as HTMLSelectElement;
    expect(mailbox.disabled).toBe(false);
    expect(within(mailbox).getByRole('option').textContent).toBe('All mailboxes I may read');
  });

  it('say that a tenant without a storage location lists none', async () => {
    signedIn();
    await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.locations.list': respond('apollo.locations.list', []),
    });
    expect(
      await screen.findByText('Mailboxes and teams are listed once the tenant has a storage location.'),
    ).toBeTruthy();
  });
});

describe('the file manager', () => {
  const node = (over: Pick<FileNode, 'nodeId' | 'kind' | 'name' | 'path'> & Partial<FileNode>): FileNode => ({
    sizeBytes: 1000,
    modified: '2026-11-01T09:00:00.000Z',
    versions: 4,
    eligibleVersions: 1,
    reclaimableBytes: 2048,
    ...over,
  });

  it('says why a file’s versions and a clean-up’s preview could not be read', async () => {
    signedIn();
    const { user } = await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([source('s1', 'Marketing', 'site')])),
      'apollo.dataManagement.browse': respond(
        'apollo.dataManagement.browse',
        testPage([node({ nodeId: 'd1:i1', kind: 'file', name: 'budget.xlsx', path: 'd1:/budget.xlsx' })]),
      ),
      'apollo.dataManagement.versions': failed('m365Throttled'),
      'apollo.dataManagement.preview': failed('m365AccessDenied'),
    });
    await user.click(await screen.findByRole('button', { name: 'Marketing' }));
    await user.click(await screen.findByRole('button', { name: 'budget.xlsx' }));
    const dialog = await screen.findByRole('dialog');
    expect((await alertNamed('The versions of budget.xlsx could not be loaded.', within(dialog))).cause).toBe(
      errorTexts.m365Throttled(),
    );
    await user.keyboard('{Escape}');
    await user.click(screen.getByLabelText('Select budget.xlsx'));
    await user.click(screen.getByRole('button', { name: 'Clean up selected' }));
    expect((await alertNamed('What the clean-up would remove could not be worked out.')).cause).toBe(
      errorTexts.m365AccessDenied(),
    );
  });
});
