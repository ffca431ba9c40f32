import type { Client, PartnerClientCreate, ProvisioningTask, Tenant, TenantCreate } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { readWorker, storeUser, storeWorker } from '../../session/storage';
import { testClient, testFleetClient, testLocation, testWorker } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const signedIn = (role: 'admin' | 'partner' = 'admin') => {
  storeUser({ token: 'session-token', user: { email: `${role}@contoso.example`, role } });
  storeWorker(testWorker());
};
const tenant = (over: Partial<Tenant> = {}): Tenant => ({
  tenantId: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01',
  tenantName: 'contoso.onmicrosoft.com',
  applicationId: '11111111-1111-4111-8111-111111111111',
  objectId: '22222222-2222-4222-8222-222222222222',
  redirectUri: 'https://portal.example/auth',
  organisationId: 'c1',
  hasClientSecret: true,
  isActive: true,
  provisioning: 'notProvisioned',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const task = (status: ProvisioningTask['status'], progress: number): ProvisioningTask => ({
  taskId: 'k1',
  tenantId: '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01',
  kind: 'provision',
  status,
  progress,
  started: '2026-11-23T00:00:00.000Z',
  finished: status === 'succeeded' ? '2026-11-23T00:00:05.000Z' : null,
});

describe('configuration: tenants', () => {
  // Seven fields typed key by key beside the app registration guide: 21.6 s alone on an idle 2-core
  // machine, over the file's 20 s.
  it('checks the seven fields, connects a tenant, and follows its provisioning to the end', {
    timeout: 60_000,
  }, async () => {
    signedIn();
    let created: TenantCreate | undefined;
    let polls = 0;
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.tenants.list': respond('apollo.tenants.list', [
        tenant(),
        tenant({ tenantId: 'other', organisationId: 'c9', tenantName: 'elsewhere' }),
      ]),
      'apollo.tenants.create': async ({ request }) => {
        created = await request.json();
        // A tenant answers whether it has a secret, never the secret.
        const { clientSecret, ...fields } = created;
        return HttpResponse.json(tenant({ ...fields, hasClientSecret: Boolean(clientSecret), isActive: false }));
      },
      'apollo.tenants.provision': respond('apollo.tenants.provision', task('pending', 0)),
      'apollo.tenants.task': () => {
        polls += 1;
        return HttpResponse.json(polls < 2 ? task('running', 50) : task('succeeded', 100));
      },
    });
    const table = await screen.findByRole('table', { name: 'Tenants' });
    await within(table).findByText('contoso.onmicrosoft.com');
    expect(within(table).queryByText('elsewhere')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add tenant' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Tenant name/), 'fabrikam.onmicrosoft.com');
    await user.type(within(dialog).getByLabelText(/Application \(client\) ID/), 'not-a-guid');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // A malformed ID does not match the pattern; the empty fields (secret, tenant and object ID, redirect URI) are empty.
    expect(within(dialog).getByText('Value does not match the required pattern.')).toBeTruthy();
    expect(within(dialog).getAllByText('Field must not be empty.')).toHaveLength(4);
    expect(created).toBeUndefined();
    const app = within(dialog).getByLabelText(/Application \(client\) ID/);
    await user.clear(app);
    await user.type(app, '33333333-3333-4333-8333-333333333333');
    await user.type(within(dialog).getByLabelText(/^Client secret/), 's3cret');
    await user.type(within(dialog).getByLabelText(/^Tenant ID/), '44444444-4444-4444-8444-444444444444');
    await user.type(within(dialog).getByLabelText(/Object ID/), '55555555-5555-4555-8555-555555555555');
    await user.type(within(dialog).getByLabelText(/Redirect URI/), 'https://portal.example/callback');
    expect((within(dialog).getByLabelText(/Organisation ID/) as HTMLInputElement).value).toBe('c1');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toEqual({
      tenantName: 'fabrikam.onmicrosoft.com',
      applicationId: '33333333-3333-4333-8333-333333333333',
      clientSecret: 's3cret',
      tenantId: '44444444-4444-4444-8444-444444444444',
      objectId: '55555555-5555-4555-8555-555555555555',
      redirectUri: 'https://portal.example/callback',
      organisationId: 'c1',
    });

    await user.click(within(table).getByRole('button', { name: 'Provision' }));
    const progress = await screen.findByTestId('task-progress');
    await waitFor(() => expect(within(progress).getByTestId('task-status').textContent).toContain('Done · 100 %'), {
      timeout: 5000,
    });
    expect(polls).toBe(2);
  });
});

describe('configuration: the tenant form’s checks', () => {
  it('refuse a malformed ID and redirect URI with the generic messages, in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    let created: TenantCreate | undefined;
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant()]),
      'apollo.tenants.create': async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(tenant());
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Mandant hinzufügen' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Mandantenname/), 'fabrikam.onmicrosoft.com');
    await user.type(within(dialog).getByLabelText(/Anwendungs-ID/), '33333333-3333-4333-8333');
    await user.type(within(dialog).getByLabelText(/Umleitungs-URI/), 'portal.example/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    // The ID and the address do not match; the secret, the tenant and the object ID are empty.
    expect(within(dialog).getAllByText('Der Wert entspricht nicht dem geforderten Muster.')).toHaveLength(2);
    expect(within(dialog).getAllByText('Das Feld darf nicht leer sein.')).toHaveLength(3);
    const app = within(dialog).getByLabelText(/Anwendungs-ID/);
    expect(app.getAttribute('aria-invalid')).toBe('true');
    expect(created).toBeUndefined();
  });
});

describe('configuration: deprovisioning, the connection test, editing and switching', () => {
  it('deprovisions after a confirmation with its progress, tests connections, edits a tenant and makes one active', async () => {
    signedIn();
    const calls: string[] = [];
    let polls = 0;
    const second = tenant({
      tenantId: '9b2d7d4f-1c0a-4e8e-8b62-2d1f6e7c3b02',
      tenantName: 'fabrikam',
      isActive: false,
    });
    // The server's worker acts for the organisation's active tenant: switching changes it, and testing
    // that tenant's connection reads its domain.
    let active = testWorker().stagingtenant_id;
    let domain: string | undefined;
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': () =>
        HttpResponse.json(
          testClient({
            worker: testWorker({ stagingtenant_id: active, ...(domain ? { tenantDomain: domain } : {}) }),
          }),
        ),
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant({ provisioning: 'provisioned' }), second]),
      'apollo.tenants.deprovision': () => {
        calls.push('deprovision');
        return HttpResponse.json({ ...task('pending', 0), kind: 'deprovision' }, { status: 202 });
      },
      'apollo.tenants.task': () => {
        polls += 1;
        return HttpResponse.json(
          polls < 2
            ? { ...task('running', 40), kind: 'deprovision' }
            : { ...task('failed', 40), kind: 'deprovision', message: 'Graph refused' },
        );
      },
      'apollo.tenants.update': async ({ request, params }) => {
        const body = await request.json();
        calls.push(`update ${String(params.tenantId)} ${JSON.stringify(body)}`);
        return HttpResponse.json(tenant({ ...body, provisioning: 'provisioned' }));
      },
      'apollo.configuration.switchTenant': async ({ request }) => {
        const body = await request.json();
        calls.push(`switch ${body.tenantId}`);
        active = body.tenantId;
        return HttpResponse.json({ tenantId: body.tenantId, tenantName: 'fabrikam', isActive: true });
      },
      'apollo.configuration.testOnedriveConnection': async ({ request }) => {
        const body = await request.json();
        if (body.tenantId !== second.tenantId) domain = 'contoso.onmicrosoft.com';
        return HttpResponse.json(
          body.tenantId === second.tenantId
            ? {
                ok: false,
                latencyMs: 12,
                message: 'The client secret was refused.',
                checkedAt: '2026-11-23T00:00:00.000Z',
              }
            : { ok: true, latencyMs: 34, checkedAt: '2026-11-23T00:00:00.000Z' },
        );
      },
    });
    const table = await screen.findByRole('table', { name: 'Tenants' });
    const actions = async (name: string) =>
      within(await within(table).findByRole('group', { name: `Actions for ${name}` }));

    // Deprovisioning asks first; cancelling sends nothing.
    await user.click((await actions('contoso.onmicrosoft.com')).getByRole('button', { name: 'Deprovision…' }));
    let confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);
    await user.click((await actions('contoso.onmicrosoft.com')).getByRole('button', { name: 'Deprovision…' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Deprovision' }));
    const progress = await screen.findByTestId('task-progress');
    expect(progress.textContent).toContain('Deprovisioning of contoso.onmicrosoft.com');
    await waitFor(
      () => expect(within(progress).getByTestId('task-status').textContent).toBe('Failed · 40 % · Graph refused'),
      { timeout: 5000 },
    );
    expect(calls).toEqual(['deprovision']);

    await user.click((await actions('contoso.onmicrosoft.com')).getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByTestId('connection-result')).textContent).toBe(
      'The connection to contoso.onmicrosoft.com works (34 ms).',
    );
    // The active tenant's domain, read by its connection test, comes to the header with the worker read again.
    expect((await screen.findByTestId('tenant-domain')).textContent).toBe('contoso.onmicrosoft.com');
    await user.click((await actions('fabrikam')).getByRole('button', { name: 'Test connection' }));
    await waitFor(() =>
      expect(screen.getByTestId('connection-result').textContent).toBe(
        'The connection to fabrikam failed: The client secret was refused.',
      ),
    );

    // Editing keeps the stored secret unless a new one is typed; the tenant and organisation stay.
    await user.click((await actions('contoso.onmicrosoft.com')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(/^Tenant ID/) as HTMLInputElement).disabled).toBe(true);
    const name = within(dialog).getByLabelText(/Tenant name/);
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Field must not be empty.')).toBeTruthy();
    await user.type(name, 'contoso-renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toContain(
      `update 7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01 ${JSON.stringify({
        tenantName: 'contoso-renamed',
        applicationId: '11111111-1111-4111-8111-111111111111',
        objectId: '22222222-2222-4222-8222-222222222222',
        redirectUri: 'https://portal.example/auth',
      })}`,
    );

    await user.click((await actions('fabrikam')).getByRole('button', { name: 'Make active' }));
    await waitFor(() => expect(calls).toContain(`switch ${second.tenantId}`));
    // The session reads the worker again: it acts for the tenant made active.
    await waitFor(() => expect(readWorker()?.stagingtenant_id).toBe(second.tenantId));
  });
});

describe('configuration: locations, users and licence', () => {
  it('creates and edits locations, refuses to delete one used by a job, synchronises users, shows the trial limits left', async () => {
    signedIn();
    let syncFails = false;
    const saved: Record<string, unknown>[] = [];
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant()]),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation({ usedByJobs: 2 })]),
      'apollo.locations.create': async ({ request }) => {
        const body = await request.json();
        saved.push({ create: body });
        return HttpResponse.json(testLocation({ ...body, locationId: 'l2' }));
      },
      'apollo.locations.update': async ({ request, params }) => {
        const body = await request.json();
        saved.push({ update: { [String(params.locationId)]: body } });
        return HttpResponse.json(testLocation(body));
      },
      'apollo.locations.delete': () =>
        refuse(409, { title: 'Conflict', status: 409, message: 'Cannot delete location as it is used for a job' }),
      'apollo.configuration.syncUsers': () =>
        syncFails
          ? refuse(502, {
              status: 502,
              message: 'Failures to synchronize users',
              detail: 'The client secret was refused (wrong or expired).',
            })
          : HttpResponse.json({
              tenantId: 't1',
              synchronized: 5,
              added: 2,
              removed: 1,
              finished: '2026-11-23T00:00:00.000Z',
            }),
      'legacy.user.users': respond('legacy.user.users', { items: [], total: 0, page: 1, pageSize: 10 }),
      'apollo.configuration.license': respond('apollo.configuration.license', {
        organisationId: 'c1',
        kind: 'trial',
        validUntil: null,
        limits: {
          backupJobsPerApplication: 1,
          sourcesPerBackup: 10,
          restoresPerApplication: 10,
          canDeleteBackupJobs: false,
        },
        used: {
          backupJobs: { onedrive: 1, sharepoint: 0, teams: 0 },
          restores: { onedrive: 3, sharepoint: 0, teams: 0 },
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Locations' }));
    const locations = await screen.findByRole('table', { name: 'Locations' });
    await within(locations).findByText('Vault');

    // A new location: both fields checked before sending.
    await user.click(screen.getByRole('button', { name: 'Add location' }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Site address/), 'vault.example');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Field must not be empty.')).toBeTruthy();
    expect(within(dialog).getByText('Value does not match the required pattern.')).toBeTruthy();
    expect(saved).toEqual([]);
    await user.type(within(dialog).getByLabelText(/Location name/), 'Archive');
    await user.clear(within(dialog).getByLabelText(/Site address/));
    await user.type(within(dialog).getByLabelText(/Site address/), 'https://contoso.sharepoint.com/sites/archive');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual([
        { create: { name: 'Archive', siteAddress: 'https://contoso.sharepoint.com/sites/archive' } },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Editing starts from the stored values.
    await user.click(within(locations).getByRole('button', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(/Location name/) as HTMLInputElement;
    expect(name.value).toBe('Vault');
    await user.clear(name);
    await user.type(name, 'Vault 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved[1]).toEqual({ update: { l1: { name: 'Vault 2', siteAddress: 'https://x' } } }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(locations).getByRole('button', { name: 'Delete…' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await within(confirm).findByTestId('location-refusal')).textContent).toBe(
      'Cannot delete location as it is used for a job.',
    );
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('tab', { name: 'Users' }));
    await user.click(await screen.findByRole('button', { name: 'Synchronise users' }));
    expect((await screen.findByTestId('sync-result')).textContent).toBe('5 users synchronised: 2 added, 1 removed.');
    syncFails = true;
    await user.click(screen.getByRole('button', { name: 'Synchronise users' }));
    expect((await screen.findByTestId('sync-failed')).textContent).toBe('Failures to synchronize users');
    expect(screen.getByTestId('sync-detail').textContent).toBe('The client secret was refused (wrong or expired).');

    await user.click(screen.getByRole('tab', { name: 'Licence' }));
    const licence = await screen.findByRole('table', { name: 'Licence' });
    const onedrive = within(licence)
      .getAllByRole('row')
      .find((r) => r.textContent?.startsWith('Restores per applicationOneDrive'));
    expect(onedrive?.textContent).toBe('Restores per applicationOneDrive1037');
  });
});

describe('configuration: locations in an object store', () => {
  const blob = testLocation({
    locationId: 'l2',
    name: 'Blob',
    siteAddress: 'https://contosoarchive.blob.core.windows.net/backups',
    store: 'azureBlob',
    hasSecret: true,
  });
  const bucket = testLocation({
    locationId: 'l3',
    name: 'Bucket',
    siteAddress: 's3://contoso-backups',
    store: 's3',
    accessKeyId: 'AKIAOLD',
    hasSecret: true,
  });

  it('shows each location’s store, tests an S3 store with its credentials, and keeps a stored secret', async () => {
    signedIn();
    const saved: Record<string, unknown>[] = [];
    let answer: (() => HttpResponse<never>) | undefined;
    let release: () => void = () => undefined;
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant()]),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation(), blob, bucket]),
      'apollo.locations.create': async ({ request }) => {
        const body = await request.json();
        saved.push({ create: body });
        // The server's probe of the store takes its time: the dialog says what it waits for.
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        if (answer) return answer();
        const { secret, ...fields } = body;
        return HttpResponse.json(
          testLocation({ ...fields, locationId: 'l4', store: 's3', hasSecret: Boolean(secret) }),
        );
      },
      'apollo.locations.update': async ({ request, params }) => {
        const body = await request.json();
        saved.push({ update: { [String(params.locationId)]: body } });
        if (params.locationId === 'l2')
          return refuse(409, {
            status: 409,
            code: 'locationHoldsData',
            message:
              'The site address of a location that holds backed-up or archived data cannot be moved to another store.',
          });
        return HttpResponse.json({ ...bucket, name: body.name, siteAddress: body.siteAddress });
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Locations' }));
    const locations = await screen.findByRole('table', { name: 'Locations' });
    await within(locations).findByText('Vault');
    // Where each location's data is kept; one without a store is in the portal's own.
    expect(within(locations).getByRole('columnheader', { name: 'Where the data goes' })).toBeTruthy();
    const rowOf = (name: string) =>
      within(locations)
        .getAllByRole('row')
        .find((r) => within(r).queryByText(name));
    expect(rowOf('Vault')?.textContent).toContain('The portal’s own store');
    expect(rowOf('Blob')?.textContent).toContain('Azure Blob Storage');
    expect(rowOf('Bucket')?.textContent).toContain('S3');

    // A new S3 location: the address forms are explained, and S3 needs the access key ID and the secret.
    await user.click(screen.getByRole('button', { name: 'Add location' }));
    let dialog = await screen.findByRole('dialog');
    const address = within(dialog).getByLabelText(/Site address/);
    expect(document.getElementById(address.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
      'S3: s3://<bucket>, with ?endpoint=<url> for an S3-compatible service, and the access key ID and secret.',
    );
    await user.type(within(dialog).getByLabelText(/Location name/), 'Offsite');
    await user.type(address, 's3://Not_A_Bucket');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Value does not match the required pattern.')).toBeTruthy();
    await user.clear(address);
    await user.type(address, 's3://contoso-offsite/portal?endpoint=https://minio.example:9000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('Field must not be empty.')).toHaveLength(2);
    expect(saved).toEqual([]);
    const secret = within(dialog).getByLabelText(/^Secret/) as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.autocomplete).toBe('off');
    await user.type(within(dialog).getByLabelText(/Access key ID/), ' AKIANEW ');
    await user.type(secret, 'wrong secret');

    // The store refuses the credentials: the SDK's message, in the dialog.
    answer = () =>
      refuse(400, {
        status: 400,
        code: 'storeCredentialsRefused',
        message: 'The storage service refused the access key or secret.',
        detail: 'InvalidAccessKeyId',
      });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByRole('button', { name: /Testing the store…/ });
    release();
    expect((await within(dialog).findByTestId('location-failure')).textContent).toBe(
      'Failed to create the location. The storage service refused the access key or secret.',
    );
    expect(saved).toEqual([
      {
        create: {
          name: 'Offsite',
          siteAddress: 's3://contoso-offsite/portal?endpoint=https://minio.example:9000',
          accessKeyId: 'AKIANEW',
          secret: 'wrong secret',
        },
      },
    ]);
    answer = undefined;
    await user.clear(secret);
    // The secret as typed, spaces and all.
    await user.type(secret, ' right secret');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    release();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved[1]).toEqual({
      create: {
        name: 'Offsite',
        siteAddress: 's3://contoso-offsite/portal?endpoint=https://minio.example:9000',
        accessKeyId: 'AKIANEW',
        secret: ' right secret',
      },
    });

    // Editing a location with a stored secret: it says so, and an empty secret is not sent (kept).
    await user.click(
      within(await within(locations).findByRole('group', { name: 'Actions for Bucket' })).getByRole('button', {
        name: 'Edit',
      }),
    );
    dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(/Access key ID/) as HTMLInputElement).value).toBe('AKIAOLD');
    const kept = within(dialog).getByLabelText(/^Secret/) as HTMLInputElement;
    expect(kept.value).toBe('');
    expect(kept.placeholder).toBe('A secret is stored');
    expect(document.getElementById(kept.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'A secret is stored. Leave the field empty to keep it, or enter a new one to replace it.',
    );
    const name = within(dialog).getByLabelText(/Location name/);
    await user.clear(name);
    await user.type(name, 'Bucket 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved[2]).toEqual({
      update: { l3: { name: 'Bucket 2', siteAddress: 's3://contoso-backups', accessKeyId: 'AKIAOLD' } },
    });

    // A location holding data cannot move to another store: the server's refusal, in words.
    await user.click(
      within(await within(locations).findByRole('group', { name: 'Actions for Blob' })).getByRole('button', {
        name: 'Edit',
      }),
    );
    dialog = await screen.findByRole('dialog');
    const moved = within(dialog).getByLabelText(/Site address/);
    await user.clear(moved);
    await user.type(moved, 'https://contoso.sharepoint.com/sites/archive');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByTestId('location-failure')).textContent).toBe(
      'Failed to update the location. The site address of a location that holds backed-up or archived data cannot be moved to another store.',
    );
    expect(saved[3]).toEqual({
      update: { l2: { name: 'Blob', siteAddress: 'https://contoso.sharepoint.com/sites/archive' } },
    });
  });

  it('tests an Azure container and says the store’s refusal in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    let created: Record<string, unknown> | undefined;
    let release: () => void = () => undefined;
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant()]),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation(), blob, bucket]),
      'apollo.locations.create': async ({ request }) => {
        created = await request.json();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return refuse(400, {
          status: 400,
          code: 'storeCredentialsRefused',
          message: 'The storage service refused the access key or secret.',
        });
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Speicherorte' }));
    const locations = await screen.findByRole('table', { name: 'Speicherorte' });
    await within(locations).findByText('Vault');
    expect(within(locations).getByRole('columnheader', { name: 'Wohin die Daten gehen' })).toBeTruthy();
    expect(within(locations).getByText('Eigener Speicher des Portals')).toBeTruthy();
    expect(within(locations).getByText('Azure Blob Storage')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Speicherort hinzufügen' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Name des Speicherorts/), 'Archiv');
    await user.type(
      within(dialog).getByLabelText(/Websiteadresse/),
      'https://contosoarchive.blob.core.windows.net/archive/portal',
    );
    // An Azure account key is the secret; there is no access key ID.
    await user.type(within(dialog).getByLabelText(/^Geheimnis/), 'account-key==');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await within(dialog).findByRole('button', { name: /Speicher wird getestet…/ });
    release();
    expect((await within(dialog).findByTestId('location-failure')).textContent).toBe(
      'Der Speicherort konnte nicht angelegt werden. Der Speicherdienst hat den Zugriffsschlüssel oder das Geheimnis abgelehnt.',
    );
    expect(created).toEqual({
      name: 'Archiv',
      siteAddress: 'https://contosoarchive.blob.core.windows.net/archive/portal',
      secret: 'account-key==',
    });
  });
});

describe('configuration offline', () => {
  it('disables the tenant, location and user actions with the reason, and enables them online', async () => {
    signedIn();
    const { user } = await renderPortal('/configuration', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.tenants.list': respond('apollo.tenants.list', [tenant({ isActive: false })]),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
    });
    const table = await screen.findByRole('table', { name: 'Tenants' });
    const tenantActions = within(
      await within(table).findByRole('group', { name: 'Actions for contoso.onmicrosoft.com' }),
    );
    const buttons = [
      screen.getByRole('button', { name: 'Add tenant' }),
      ...['Make active', 'Provision', 'Test connection', 'Edit', 'Delete…'].map((name) =>
        tenantActions.getByRole('button', { name }),
      ),
    ];
    await user.click(screen.getByRole('tab', { name: 'Locations' }));
    const locations = await screen.findByRole('table', { name: 'Locations' });
    await within(locations).findByText('Vault');
    buttons.push(
      screen.getByRole('button', { name: 'Add location' }),
      within(locations).getByRole('button', { name: 'Edit' }),
      within(locations).getByRole('button', { name: 'Delete…' }),
    );
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    buttons.push(
      await screen.findByRole('button', { name: 'Synchronise users' }),
      screen.getByRole('button', { name: 'Invite a user' }),
    );
    for (const button of buttons) expectServerAction(button, false);
    setOnline(false);
    for (const button of buttons) expectServerAction(button, true);
    // The tabs only show what is in the page.
    expect((screen.getByRole('tab', { name: 'Tenants' }) as HTMLButtonElement).disabled).toBe(false);
    setOnline(true);
    for (const button of buttons) expectServerAction(button, false);
  });
});

describe('partner setup', () => {
  it('lists clients with their tenant domain (never the worker’s address), adds one, and works as a client', async () => {
    storeUser({ token: 'session-token', user: { email: 'partner@fabrikam.example', role: 'partner' } });
    let added: PartnerClientCreate | undefined;
    const litware: Client = {
      ...testClient(),
      clientId: 'c2',
      name: 'Litware',
      license: 'trial',
      worker: { ...testWorker(), workerId: 'w2', workerIp: '10.64.0.9', clientId: 'c2', abbr: 'litware' },
    };
    const contoso = testClient({ worker: { ...testWorker(), tenantDomain: 'contoso.onmicrosoft.com' } });
    const fleetOf = (c: Client) =>
      testFleetClient({
        clientId: c.clientId,
        name: c.name,
        abbr: c.worker.abbr,
        license: c.license,
        workerIp: c.worker.workerIp,
        tenantDomain: c.worker.tenantDomain ?? null,
      });
    const { user, path } = await renderPortal('/partner-setup', {
      'legacy.workers.clients': () => HttpResponse.json(added ? [contoso, litware] : [contoso]),
      'legacy.workers.fleet': ({ request }) => {
        const text = new URL(request.url).searchParams.get('search') ?? '';
        const items = (added ? [contoso, litware] : [contoso])
          .filter((c) => c.name.toLowerCase().includes(text))
          .map(fleetOf);
        return HttpResponse.json({
          items,
          total: items.length,
          page: 1,
          pageSize: 25,
          counts: { critical: 0, warning: 0, ok: items.length },
          generatedAt: '2026-11-23T12:00:00.000Z',
        });
      },
      'legacy.workers.addPartnerClient': async ({ request }) => {
        added = await request.json();
        return HttpResponse.json(litware);
      },
    });
    const table = await screen.findByRole('table', { name: 'Client organisations' });
    await within(table).findByText('Contoso');
    expect(table.textContent).toContain('contoso.onmicrosoft.com');
    expect(table.textContent).not.toContain('10.64.0.2');
    expect(readWorker()).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add a client…' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Organisation name/), 'L');
    await user.click(within(dialog).getByRole('button', { name: 'Add a client' }));
    expect(within(dialog).getByText('Value too short (2 characters minimum).')).toBeTruthy();
    expect(within(dialog).getAllByText('Field must not be empty.')).toHaveLength(2);
    await user.type(within(dialog).getByLabelText(/Organisation name/), 'itware');
    await user.type(within(dialog).getByLabelText(/Short name/), 'Lit Ware');
    await user.type(within(dialog).getByLabelText(/Administrator/), 'admin@litware.example');
    await user.click(within(dialog).getByRole('button', { name: 'Add a client' }));
    expect(within(dialog).getByText('Value does not match the required pattern.')).toBeTruthy();
    expect(added).toBeUndefined();
    const abbr = within(dialog).getByLabelText(/Short name/);
    await user.clear(abbr);
    await user.type(abbr, 'litware');
    await user.click(within(dialog).getByRole('button', { name: 'Add a client' }));
    await waitFor(() =>
      expect(added).toEqual({
        name: 'Litware',
        abbr: 'litware',
        license: 'trial',
        adminEmail: 'admin@litware.example',
      }),
    );
    // The fleet is read again and shows the new client, its tenant not connected yet.
    await within(table).findByText('Litware');
    expect(within(table).getByRole('row', { name: /Litware/ }).textContent).toContain('No tenant connected');
    expect(table.textContent).not.toContain('10.64.0.9');

    await user.type(screen.getByRole('searchbox', { name: 'Search clients' }), 'lit');
    await waitFor(() => expect(within(table).queryByText('Contoso')).toBeNull());
    await user.click(within(table).getByRole('button', { name: 'Work as Litware' }));
    await waitFor(() => expect(path()).toBe('/'));
    expect(readWorker()).toMatchObject({ workerId: 'w2', workerIp: '10.64.0.9', clientId: 'c2' });
  });
});
