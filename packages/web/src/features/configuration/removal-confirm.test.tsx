import type { EdiscoveryCase, Job, Tenant } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { createdJob, testClient, testLocation, testPage, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();
// Whole forms filled in, dialog over dialog: up to a minute on a loaded 2-core machine (measured 64 s at a load of 15).
vi.setConfig({ testTimeout: 60_000 });

const CONTOSO = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
const FABRIKAM = '9b2d7d4f-1c0a-4e8e-8b62-2d1f6e7c3b02';

const tenant = (over: Partial<Tenant> = {}): Tenant => ({
  tenantId: CONTOSO,
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

const heldCase = (caseId: string, held: boolean): EdiscoveryCase => ({
  caseId,
  name: `Case ${caseId}`,
  search: { query: 'x' },
  createdBy: 'admin@contoso.example',
  createdAt: '2026-11-23T00:00:00.000Z',
  hits: 1,
  custodians: [],
  hold: held ? { heldAt: '2026-11-24T00:00:00.000Z', heldBy: 'admin@contoso.example', items: 2, custodians: [] } : null,
});

const job = createdJob({ name: 'Nightly', type: 'backup', application: 'onedrive', sources: ['u1'] }) as Job;

function signIn() {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
}

/** Two tenants; fabrikam holds 12 jobs, 2 locations and 3 cases, 1 of them on legal hold. */
function resolvers(calls: string[]): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.tenants.list': () =>
      HttpResponse.json([
        tenant(),
        tenant({ tenantId: FABRIKAM, tenantName: 'fabrikam.onmicrosoft.com', isActive: false }),
      ]),
    'apollo.jobs.list': ({ params }) =>
      HttpResponse.json(testPage(params.tenantId === FABRIKAM ? [job] : [], params.tenantId === FABRIKAM ? 12 : 0)),
    'apollo.locations.list': ({ params }) =>
      HttpResponse.json(
        params.tenantId === FABRIKAM
          ? [testLocation(), testLocation({ locationId: 'l2', name: 'Cold' })]
          : [
              testLocation({ usedByJobs: 2 }),
              testLocation({
                locationId: 'l2',
                name: 'Blob',
                store: 'azureBlob',
                storeAddress: 'https://contoso.blob.core.windows.net/backups',
                usedByJobs: 0,
              }),
            ],
      ),
    'apollo.ediscovery.cases': () =>
      HttpResponse.json([heldCase('k1', true), heldCase('k2', false), heldCase('k3', false)]),
    'apollo.tenants.delete': ({ params }) => {
      calls.push(`delete tenant ${String(params.tenantId)}`);
      return new HttpResponse(null, { status: 204 });
    },
    'apollo.locations.delete': ({ params }) => {
      calls.push(`delete location ${String(params.locationId)}`);
      return new HttpResponse(null, { status: 204 });
    },
  };
}

afterEach(() => localStorage.removeItem('language'));

describe('removing a tenant', () => {
  it('counts what goes with it; Cancel removes nothing; confirming removes it', async () => {
    signIn();
    const calls: string[] = [];
    const { user } = await renderPortal('/configuration', resolvers(calls));
    const table = await screen.findByRole('table', { name: 'Tenants' });
    const actions = within(await within(table).findByRole('group', { name: 'Actions for fabrikam.onmicrosoft.com' }));
    await user.click(actions.getByRole('button', { name: 'Delete…' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete this tenant?' });
    expect((await within(confirm).findByTestId('tenant-removal-what')).textContent).toBe(
      'Deletes "fabrikam.onmicrosoft.com" from the portal with 12 jobs and their runs, 2 storage locations and 3 eDiscovery cases. Its backups and archives can no longer be restored from the portal; its data in Microsoft 365 stays. It cannot be undone.',
    );
    expect(within(confirm).getByTestId('tenant-removal-held').textContent).toBe(
      '1 of its cases is on legal hold: the hold ends with the tenant.',
    );
    // (The focus starts on Cancel: jsdom has no layout to focus by, so the Chromium test checks that.)
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual([]);

    await user.click(actions.getByRole('button', { name: 'Delete…' }));
    confirm = await screen.findByRole('alertdialog');
    await within(confirm).findByTestId('tenant-removal-what');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toEqual([`delete tenant ${FABRIKAM}`]));
    expect(await screen.findByText('“fabrikam.onmicrosoft.com” was deleted.')).toBeTruthy();
  });

  it('says it in German', async () => {
    localStorage.setItem('language', 'de');
    signIn();
    const { user } = await renderPortal('/configuration', resolvers([]));
    const table = await screen.findByRole('table', { name: 'Mandanten' });
    const actions = within(await within(table).findByRole('group', { name: /fabrikam\.onmicrosoft\.com/ }));
    await user.click(actions.getByRole('button', { name: 'Löschen…' }));
    const confirm = await screen.findByRole('alertdialog');
    expect((await within(confirm).findByTestId('tenant-removal-what')).textContent).toBe(
      'Löscht „fabrikam.onmicrosoft.com“ aus dem Portal mit 12 Aufträgen und ihren Läufen, 2 Speicherorten und 3 eDiscovery-Fällen. Seine Sicherungen und Archive lassen sich im Portal nicht mehr wiederherstellen; seine Daten in Microsoft 365 bleiben. Das lässt sich nicht rückgängig machen.',
    );
  });
});

describe('removing a location', () => {
  it('names the location and its store; Cancel removes nothing; confirming removes it', async () => {
    signIn();
    const calls: string[] = [];
    const { user } = await renderPortal('/configuration', resolvers(calls));
    await user.click(await screen.findByRole('tab', { name: 'Locations' }));
    const locations = await screen.findByRole('table', { name: 'Locations' });
    const blob = within(await within(locations).findByRole('group', { name: 'Actions for Blob' }));
    await user.click(blob.getByRole('button', { name: 'Delete…' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete this location?' });
    expect(within(confirm).getByTestId('location-removal-what').textContent).toBe(
      'Deletes the storage location "Blob" (Azure Blob Storage, https://contoso.blob.core.windows.net/backups). No job writes to it; a location that still holds archived items is refused. It cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual([]);

    await user.click(blob.getByRole('button', { name: 'Delete…' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toEqual(['delete location l2']));
    expect(await screen.findByText('“Blob” was deleted.')).toBeTruthy();
  });

  it('says how many jobs write to a location in use, in English and German', async () => {
    for (const [language, tab, group, remove, text] of [
      [
        'en',
        'Locations',
        'Actions for Vault',
        'Delete…',
        '2 jobs write to "Vault": change their destination or remove them before deleting the location.',
      ],
      [
        'de',
        'Speicherorte',
        /Vault/,
        'Löschen…',
        '2 Aufträge schreiben in „Vault“: Ändern Sie ihr Ziel oder entfernen Sie sie, bevor Sie den Speicherort löschen.',
      ],
    ] as const) {
      localStorage.setItem('language', language);
      signIn();
      const { user, view } = await renderPortal('/configuration', resolvers([]));
      await user.click(await screen.findByRole('tab', { name: tab }));
      const locations = await screen.findByRole('table', { name: tab });
      const vault = within(await within(locations).findByRole('group', { name: group }));
      await user.click(vault.getByRole('button', { name: remove }));
      const confirm = await screen.findByRole('alertdialog');
      expect(within(confirm).getByTestId('location-removal-what').textContent).toBe(text);
      view.unmount();
    }
  });
});
