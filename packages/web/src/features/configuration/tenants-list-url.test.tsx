import type { Tenant } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { restoreOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

/** Twelve tenants of the organisation, "tenant-01" to "tenant-12": two pages of ten. */
const tenants: Tenant[] = Array.from({ length: 12 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return {
    tenantId: `00000000-0000-4000-8000-0000000000${n}`,
    tenantName: `tenant-${n}`,
    applicationId: '11111111-1111-4111-8111-111111111111',
    objectId: '22222222-2222-4222-8222-222222222222',
    redirectUri: 'https://portal.example/auth',
    organisationId: 'c1',
    hasClientSecret: true,
    isActive: i === 0,
    provisioning: 'provisioned',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
});

const names = (table: HTMLElement) =>
  within(table)
    .getAllByText(/^tenant-\d\d$/)
    .map((cell) => cell.textContent);

describe('the tenant list in the address', () => {
  it('opens on the page of the address, and writes the page and page size back to it', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    const { user, portal } = await renderPortal('/configuration?page=2', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.tenants.list': respond('apollo.tenants.list', tenants),
    });
    const table = await screen.findByRole('table', { name: 'Tenants' });
    await within(table).findByText('tenant-11');
    expect(names(table)).toEqual(['tenant-11', 'tenant-12']);
    expect(screen.getByText('2 / 2')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({}));
    expect(names(table)).toHaveLength(10);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '25');
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ pageSize: 25 }));
    expect(names(table)).toHaveLength(12);
  });
});
