/**
 * Product-spec.md section 8, the error catalogue's own texts where their calls fail: each test makes
 * a call fail (MSW) and reads the literal text the user sees.
 */
import {
  type DiscoveredSource,
  errorTexts,
  type Job,
  type JobRun,
  type Mailbox,
  type Microsoft365FailureCode,
  type Tenant,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../session/storage';
import { testClient, testLocation, testPage, testWorker } from '../testing/fixtures';
import { renderPortal, startMsw } from '../testing/portal';

startMsw();

const NO_TENANT = 'No Tenant was found in the Configuration. Please configure one.';
const CONTENT_FAILED = 'Failed to retrieve teams, channels, folder or site content.';
const LOCATION_NEEDED = 'Could not retrieve data, make sure you have a SharePoint location.';
/** A failure of Microsoft 365 as the server answers it: 502 with the cause as code and microsoft365. */
const m365Refusal = (code: Microsoft365FailureCode) =>
  refuse(502, { title: 'Bad Gateway', status: 502, code, message: errorTexts[code](), microsoft365: { code } });
const client = respond('legacy.workers.client', testClient());
const signedIn = (license: 'full' | 'trial' = 'full') => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker({ cloud_portal_license: license }));
};
const job = (over: Partial<Job> = {}): Job => ({
  jobId: 'j1',
  name: 'Nightly OneDrive',
  type: 'backup',
  application: 'onedrive',
  sources: ['u1'],
  locationId: 'l1',
  recurrence: { kind: 'daily', hours: [2] },
  retention: { unit: 'months', value: 6 },
  status: 'finished',
  enabled: true,
  progress: 100,
  started: null,
  finished: null,
  nextRun: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});
const source = (sourceId: string, displayName: string, kind: DiscoveredSource['kind'] = 'user'): DiscoveredSource => ({
  sourceId,
  kind,
  displayName,
  protected: false,
});
const serverError = () => refuse(500, { message: 'boom' });

describe('section 8: the 404 texts of their own', () => {
  it('a mailbox whose archive job is gone reads "Exchange Backup Job not found.", not "no tenant"', async () => {
    signedIn();
    const mailbox: Mailbox = {
      mailboxId: 'm1',
      name: 'Adele Vance',
      email: 'adele@contoso.example',
      sizeBytes: 1024,
      kind: 'primary',
      items: 12,
      held: 0,
      lastArchived: '2026-11-22T02:00:00.000Z',
    };
    const { user } = await renderPortal('/archive/mailboxes', {
      'legacy.workers.client': client,
      'legacy.mailboxes.list': respond('legacy.mailboxes.list', testPage([mailbox])),
      'legacy.mailboxes.meta': () => refuse(404, { message: 'Exchange Backup Job not found.' }),
    });
    await user.click(await screen.findByRole('row', { name: /Adele Vance/ }));
    expect((await screen.findByTestId('mailbox-meta-failure')).textContent).toBe('Exchange Backup Job not found.');
    expect(screen.queryByText(NO_TENANT)).toBeNull();
  });

  it('starting an Exchange archive job that is gone reads "Exchange Backup Job not found."', async () => {
    signedIn();
    const { user } = await renderPortal('/archive/jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([])),
      'apollo.jobs.list': respond(
        'apollo.jobs.list',
        testPage([job({ name: 'Mail', type: 'exchangeArchive', application: 'exchange' })]),
      ),
      'apollo.jobs.start': () => refuse(404, { message: 'Job not found' }),
    });
    const row = await screen.findByRole('row', { name: /Mail/ });
    await user.click(within(row).getByRole('button', { name: 'Start…' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('Failed to start "Mail". Exchange Backup Job not found.')).toBeTruthy();
    expect(screen.queryByText(NO_TENANT)).toBeNull();
  });

  it('restoring mails whose archive job is gone reads "Exchange Backup Job not found."', async () => {
    signedIn();
    const { user } = await renderPortal('/ediscovery/portal', {
      'legacy.workers.client': client,
      'apollo.ediscovery.cases': respond('apollo.ediscovery.cases', []),
      'apollo.ediscovery.search': respond('apollo.ediscovery.search', {
        items: [
          {
            itemId: '42',
            kind: 'mail',
            source: 'm1',
            sourceName: 'Adele Vance',
            container: 'Inbox',
            subject: 'Quarterly figures',
            sender: 'megan@contoso.example',
            recipients: 'adele@contoso.example',
            sentAt: '2026-11-01T09:00:00.000Z',
            sizeBytes: 2048,
            hasAttachments: false,
            snippet: 'the figures',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 25,
        searchedMailboxes: 1,
      }),
      'apollo.locations.list': respond('apollo.locations.list', []),
      'legacy.email.restore': () => refuse(404, { message: 'Exchange Backup Job not found.' }),
    });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.click(await screen.findByLabelText('Select Quarterly figures'));
    await user.click(screen.getByRole('button', { name: 'Restore mails…' }));
    const restore = await screen.findByRole('alertdialog');
    await user.click(within(restore).getByRole('button', { name: 'Restore mails' }));
    await waitFor(() => expect(within(restore).getByRole('alert').textContent).toBe('Exchange Backup Job not found.'));
    expect(screen.queryByText(NO_TENANT)).toBeNull();
  });

  it('a snapshot folder that is not there reads "No folder found for this worker.", other failures the content text', async () => {
    signedIn();
    let status = 404;
    const run: JobRun = {
      reportId: 'r1',
      jobId: 'j1',
      jobName: 'Nightly OneDrive',
      jobType: 'backup',
      application: 'onedrive',
      status: 'finished',
      progress: 100,
      started: '2026-11-23T02:00:00.000Z',
      finished: '2026-11-23T02:05:00.000Z',
      itemsProcessed: 10,
      itemsFailed: 0,
      bytesProcessed: 100,
    };
    const { user } = await renderPortal('/backup-and-restore/restore', {
      'legacy.workers.client': client,
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([job()])),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([source('u1', 'Adele Vance')])),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage([run])),
      'apollo.discovery.items': () =>
        status === 404 ? refuse(404, { message: 'No folder found for this worker.' }) : refuse(403, {}),
    });
    await user.selectOptions(await screen.findByLabelText('Backup job'), 'j1');
    await user.selectOptions(screen.getByLabelText('Source'), 'u1');
    await waitFor(() => expect(screen.getAllByRole('option', { name: /2026/ }).length).toBeGreaterThan(0));
    await user.selectOptions(screen.getByLabelText('Snapshot date'), '2026-11-23T02:05:00.000Z');
    expect(await screen.findByText('No folder found for this worker.')).toBeTruthy();
    expect(screen.queryByText(NO_TENANT)).toBeNull();
    status = 403;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(CONTENT_FAILED)).toBeTruthy();
  });

  it('a file-manager folder that is not there reads "No folder found for this worker."', async () => {
    signedIn();
    const { user } = await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([source('s1', 'Marketing', 'site')])),
      'apollo.dataManagement.browse': () => refuse(404, { message: 'Folder not found' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Marketing' }));
    expect(await screen.findByText('No folder found for this worker.')).toBeTruthy();
    expect(screen.queryByText(NO_TENANT)).toBeNull();
  });

  it('signing in as a user that no longer exists reads "User Does Not Exist"', async () => {
    const { user } = await renderPortal('/signin', {
      'legacy.auth.signin': () => refuse(404, { message: errorTexts.userDoesNotExist(), code: 'userDoesNotExist' }),
    });
    await user.type(screen.getByLabelText('Email address', { exact: false }), 'gone@contoso.example');
    await user.type(screen.getByLabelText('Password', { exact: false }), 'Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByTestId('signin-error')).textContent).toBe('User Does Not Exist');
    expect(screen.queryByText(NO_TENANT)).toBeNull();
  });

  it('resetting the password of a user that no longer exists reads "User Does Not Exist"', async () => {
    const { user } = await renderPortal('/reset-password/abc123', {
      'legacy.auth.resetPassword': () => refuse(404, { message: errorTexts.userDoesNotExist() }),
    });
    await user.type(screen.getByLabelText('New password', { exact: false }), 'New-Passw0rd!');
    await user.type(screen.getByLabelText('Confirm password', { exact: false }), 'New-Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User Does Not Exist')).toBeTruthy();
    expect(screen.queryByText('Failed to reset password')).toBeNull();
  });
});

describe('section 8: failures to create, update, start, stop or delete jobs', () => {
  const backupJobs = (extra: Parameters<typeof renderPortal>[1] = {}) =>
    renderPortal('/backup-and-restore/backup-jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([source('u1', 'Adele Vance')])),
      'apollo.jobs.list': respond(
        'apollo.jobs.list',
        testPage([job(), job({ jobId: 'j2', name: 'Weekly SharePoint', status: 'running', progress: 40 })]),
      ),
      'apollo.jobs.start': serverError,
      'apollo.jobs.stop': serverError,
      'apollo.jobs.delete': serverError,
      ...extra,
    });
  const confirm = async (user: Awaited<ReturnType<typeof backupJobs>>['user'], row: RegExp, action: string) => {
    // The row's button opens the confirmation ("Start…"), whose own button does it ("Start").
    await user.click(within(await screen.findByRole('row', { name: row })).getByRole('button', { name: `${action}…` }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: action }));
  };

  it('a backup job that fails to start, stop or be removed says so, each in its own words', async () => {
    signedIn();
    const { user } = await backupJobs();
    await confirm(user, /Nightly OneDrive/, 'Start');
    expect(await screen.findByText('Failed to start "Nightly OneDrive". Internal server error')).toBeTruthy();
    await confirm(user, /Weekly SharePoint/, 'Stop');
    expect(await screen.findByText('Failed to stop "Weekly SharePoint". Internal server error')).toBeTruthy();
    await confirm(user, /Nightly OneDrive/, 'Remove');
    expect(await screen.findByText('Failed to delete "Nightly OneDrive". Internal server error')).toBeTruthy();
    // The request's own text only: no generic toast beside it.
    expect(screen.queryByText('Internal server error')).toBeNull();
  });

  it('a backup job that fails to be created or updated says so in the form, with why', async () => {
    signedIn();
    const { user } = await backupJobs({
      'apollo.jobs.create': () =>
        refuse(403, { message: errorTexts.trialBackupJobs('OneDrive'), code: 'trialBackupJobs' }),
      'apollo.jobs.update': serverError,
    });
    await user.click(await screen.findByRole('button', { name: 'Create backup job' }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Mail');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(await within(dialog).findByLabelText('Select Adele Vance'));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    expect(
      await within(dialog).findByText(
        'Failures to create or update the job. Your trial licence allows one backup job per application, and this application already has one.',
      ),
    ).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const row = await screen.findByRole('row', { name: /Nightly OneDrive/ });
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog');
    for (let step = 0; step < 3; step++) await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failures to create or update the job. Internal server error')).toBeTruthy();
  });

  it('an archive job that fails to be created says so in the form', async () => {
    signedIn();
    const { user } = await renderPortal('/archive/jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([source('m1', 'Adele Vance', 'mailbox')])),
      'apollo.jobs.create': serverError,
    });
    await user.click(await screen.findByRole('button', { name: 'Create archive job' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Mail');
    await user.click(await within(dialog).findByLabelText('Select Adele Vance'));
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    expect(await within(dialog).findByText('Failures to create or update the job. Internal server error')).toBeTruthy();
  });

  it('a Teams archive job that fails to be removed says so', async () => {
    signedIn();
    const { user } = await renderPortal('/teams/jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([])),
      'apollo.jobs.list': respond(
        'apollo.jobs.list',
        testPage([job({ name: 'Teams', type: 'teamsArchive', application: 'teams' })]),
      ),
      'apollo.jobs.delete': serverError,
    });
    await user.click(
      within(await screen.findByRole('row', { name: /Teams/ })).getByRole('button', { name: 'Remove…' }),
    );
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Failed to delete "Teams". Internal server error')).toBeTruthy();
  });

  it('a deletion job that fails to be updated says so in the form', async () => {
    signedIn();
    const { user } = await renderPortal('/archive/deletion-jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([source('m1', 'Adele Vance', 'mailbox')])),
      'apollo.jobs.list': respond(
        'apollo.jobs.list',
        testPage([
          job({
            name: 'Old mail',
            type: 'archiveDeletion',
            application: 'exchange',
            sources: ['m1'],
            retention: { unit: 'year', value: 1 },
          }),
        ]),
      ),
      'apollo.jobs.deletionPreview': respond('apollo.jobs.deletionPreview', {
        before: '2025-11-23T00:00:00.000Z',
        items: 1,
        bytes: 1,
        sources: 1,
        held: 0,
        heldCustodians: [],
      }),
      'apollo.jobs.update': serverError,
    });
    await user.click(
      within(await screen.findByRole('row', { name: /Old mail/ })).getByRole('button', { name: 'Edit' }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // A deletion job is saved only once its confirmation says what it will delete.
    const confirm = await screen.findByRole('alertdialog', { name: 'Save the deletion job "Old mail"?' });
    await user.click(within(confirm).getByRole('button', { name: 'Save deletion job' }));
    // The failure is said where the user acted: in the confirmation, which stays open.
    expect(
      await within(confirm).findByText('Failures to create or update the job. Internal server error'),
    ).toBeTruthy();
  });
});

describe('section 8: configuration, content and SharePoint data texts', () => {
  it('reads "Couldn\'t retrieve configuration." wherever the configuration cannot be read', async () => {
    signedIn();
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': client,
      'apollo.tenants.list': () => refuse(403, {}),
      'apollo.locations.list': () => refuse(403, {}),
      'apollo.configuration.license': () => refuse(403, {}),
    });
    // In the tenants, the locations and the licence tab, each.
    const shown = () => within(screen.getByRole('tabpanel')).findByText("Couldn't retrieve configuration.");
    expect(await shown()).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Locations' }));
    expect(await shown()).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Licence' }));
    expect(await shown()).toBeTruthy();
    expect(screen.queryByText('The list could not be loaded.')).toBeNull();
    expect(screen.queryByText('Couldn’t retrieve configuration.')).toBeNull();
  });

  it('says in each picker of a Teams archive job what it could not load, and the cause', async () => {
    signedIn();
    const { user } = await renderPortal('/teams/jobs', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': () => m365Refusal('m365SecretExpired'),
    });
    await user.click(await screen.findByRole('button', { name: 'Create Teams archive job' }));
    const dialog = await screen.findByRole('dialog');
    // The teams, and the accounts whose chats are archived: each its own words, no workload's but its own.
    expect(await within(dialog).findByRole('alert', { name: 'The teams could not be loaded.' })).toBeTruthy();
    expect(await within(dialog).findByRole('alert', { name: 'The accounts could not be loaded.' })).toBeTruthy();
    expect(within(dialog).getAllByText(errorTexts.m365SecretExpired())).toHaveLength(2);
    expect(within(dialog).queryByText(/OneDrive/)).toBeNull();
    expect(within(dialog).queryByText(CONTENT_FAILED)).toBeNull();
  });

  it('reads the content text, with the cause, when the file manager cannot read a site', async () => {
    signedIn();
    let sites = false;
    const { user } = await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.discovery.users': () =>
        sites ? HttpResponse.json(testPage([source('s1', 'Marketing', 'site')])) : m365Refusal('m365Outage'),
      'apollo.dataManagement.browse': () => m365Refusal('m365AccessDenied'),
    });
    const list = await screen.findByRole('alert', { name: 'The SharePoint sites could not be loaded.' });
    expect(within(list).getByText(errorTexts.m365Outage())).toBeTruthy();
    sites = true;
    await user.click(within(list).getByRole('button', { name: 'Try again' }));
    await user.click(await screen.findByRole('button', { name: 'Marketing' }));
    const site = await screen.findByRole('alert', { name: CONTENT_FAILED });
    expect(within(site).getByText(errorTexts.m365AccessDenied())).toBeTruthy();
  });

  it('says why the data-management dashboard failed, never a storage location it does not need', async () => {
    signedIn();
    await renderPortal('/compliance/dashboard', {
      'legacy.workers.client': client,
      'apollo.dashboards.sharepointDataManagement': () => m365Refusal('m365Unreachable'),
    });
    const alert = await screen.findByRole('alert', {
      name: 'The storage analysis could not read the tenant’s SharePoint sites.',
    });
    expect(within(alert).getByText(errorTexts.m365Unreachable())).toBeTruthy();
    expect(screen.queryByText(LOCATION_NEEDED)).toBeNull();
    expect(screen.queryByText(NO_TENANT)).toBeNull();
  });

  it('reads "Could not retrieve data, make sure you have a SharePoint location." where a list needs a location and the tenant has none', async () => {
    signedIn();
    await renderPortal('/compliance', {
      'legacy.workers.client': client,
      'apollo.locations.list': respond('apollo.locations.list', []),
    });
    expect(await screen.findByText(LOCATION_NEEDED)).toBeTruthy();
  });
});

describe('section 8: failures to switch, delete, deprovision, create or update a tenant or location', () => {
  const tenant = (over: Partial<Tenant> = {}): Tenant => ({
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
    ...over,
  });

  // Five dialogs and a form typed key by key: 18 s on main, 29 s with the tenant form's field help, on
  // a 2-core machine under a test run (the file's 20 s would fail it there).
  it('each tenant action that fails says so in its own words', { timeout: 60_000 }, async () => {
    signedIn();
    const second = tenant({
      tenantId: '9b2d7d4f-1c0a-4e8e-8b62-2d1f6e7c3b02',
      tenantName: 'fabrikam',
      isActive: false,
    });
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': client,
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant(), second]),
      'apollo.configuration.switchTenant': serverError,
      'apollo.tenants.delete': serverError,
      'apollo.tenants.deprovision': serverError,
      'apollo.tenants.create': serverError,
      'apollo.tenants.update': serverError,
    });
    const table = await screen.findByRole('table', { name: 'Tenants' });
    const actions = async (name: string) =>
      within(await within(table).findByRole('group', { name: `Actions for ${name}` }));

    await user.click((await actions('fabrikam')).getByRole('button', { name: 'Make active' }));
    expect(await screen.findByText('Failed to switch the tenant. Internal server error')).toBeTruthy();

    await user.click((await actions('fabrikam')).getByRole('button', { name: 'Delete…' }));
    let confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await within(confirm).findByText('Failed to delete the tenant. Internal server error')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click((await actions('contoso.onmicrosoft.com')).getByRole('button', { name: 'Deprovision…' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Deprovision' }));
    expect(await within(confirm).findByText('Failed to deprovision the tenant. Internal server error')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click((await actions('contoso.onmicrosoft.com')).getByRole('button', { name: 'Edit' }));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to update the tenant. Internal server error')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Add tenant' }));
    dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Tenant name/), 'litware.onmicrosoft.com');
    await user.type(within(dialog).getByLabelText(/Application \(client\) ID/), '33333333-3333-4333-8333-333333333333');
    await user.type(within(dialog).getByLabelText(/^Client secret/), 's3cret');
    await user.type(within(dialog).getByLabelText(/^Tenant ID/), '44444444-4444-4444-8444-444444444444');
    await user.type(within(dialog).getByLabelText(/Object ID/), '55555555-5555-4555-8555-555555555555');
    await user.type(within(dialog).getByLabelText(/Redirect URI/), 'https://portal.example/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to create the tenant. Internal server error')).toBeTruthy();
    expect(screen.queryByText('Internal server error')).toBeNull();
  });

  it('each location action that fails says so, and a location used by a job cannot be deleted', async () => {
    signedIn();
    let inUse = true;
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': client,
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant()]),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation({ usedByJobs: 2 })]),
      'apollo.locations.create': serverError,
      'apollo.locations.update': serverError,
      'apollo.locations.delete': () =>
        inUse
          ? refuse(409, { title: 'Conflict', status: 409, message: 'Cannot delete location as it is used for a job' })
          : serverError(),
    });
    await user.click(await screen.findByRole('tab', { name: 'Locations' }));
    const locations = await screen.findByRole('table', { name: 'Locations' });
    await within(locations).findByText('Vault');

    await user.click(screen.getByRole('button', { name: 'Add location' }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Location name/), 'Archive');
    await user.type(within(dialog).getByLabelText(/Site address/), 'https://contoso.sharepoint.com/sites/archive');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to create the location. Internal server error')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(locations).getByRole('button', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to update the location. Internal server error')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(locations).getByRole('button', { name: 'Delete…' }));
    let confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await within(confirm).findByTestId('location-refusal')).textContent).toBe(
      'Cannot delete location as it is used for a job.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    inUse = false;
    await user.click(within(locations).getByRole('button', { name: 'Delete…' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await within(confirm).findByTestId('location-refusal')).textContent).toBe(
      'Failed to delete the location. Internal server error',
    );
    expect(screen.queryByText('Internal server error')).toBeNull();
  });
});
