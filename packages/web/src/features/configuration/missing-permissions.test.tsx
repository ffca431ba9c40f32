import type { ConnectionTestResult, MissingPermission, Tenant } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
afterEach(() => localStorage.removeItem('language'));

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

/** The configuration page whose connection test answers `result`; the test button pressed. */
async function testConnection(
  result: Pick<ConnectionTestResult, 'ok'> & Partial<ConnectionTestResult>,
  button: string,
) {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
  const { user } = await renderPortal('/configuration', {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.tenants.list': respond('apollo.tenants.list', [tenant]),
    'apollo.configuration.testOnedriveConnection': respond('apollo.configuration.testOnedriveConnection', {
      latencyMs: 20,
      checkedAt: '2026-11-23T00:00:00.000Z',
      ...result,
    }),
  });
  const table = await screen.findByRole('table');
  await user.click(await within(table).findByRole('button', { name: button }));
  await screen.findByTestId('connection-result');
  return user;
}

const missing: MissingPermission[] = [
  { permission: 'Mail.Read', areas: ['mailArchive'] },
  { permission: 'User.Read.All', areas: ['backup', 'userSync', 'connectionTest'] },
];

describe('missing permissions after a connection test', () => {
  it('are listed under a heading with the areas needing each, beside a connection that works', async () => {
    await testConnection({ ok: true, missingPermissions: missing }, 'Test connection');
    expect(screen.getByTestId('connection-result').textContent).toBe(
      'The connection to contoso.onmicrosoft.com works (20 ms).',
    );
    const warning = await screen.findByRole('status', { name: 'Missing permissions' });
    expect(within(warning).getByRole('heading', { name: 'Missing permissions' })).toBeTruthy();
    expect(warning.textContent).toContain(
      'The app registration of contoso.onmicrosoft.com lacks these Microsoft Graph application permissions.',
    );
    const items = within(within(warning).getByRole('list')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Mail.Read needed by Mail archive',
      'User.Read.All needed by Backup, User synchronisation, and Connection test',
    ]);
  });

  it('are listed in German, also beside a failed connection', async () => {
    localStorage.setItem('language', 'de');
    await testConnection(
      {
        ok: false,
        message: 'Microsoft Graph refused access (Authorization_RequestDenied).',
        missingPermissions: missing,
      },
      'Verbindung testen',
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Verbindung zu contoso.onmicrosoft.com ist fehlgeschlagen',
    );
    const warning = await screen.findByRole('status', { name: 'Fehlende Berechtigungen' });
    expect(warning.textContent).toContain(
      'Der App-Registrierung von contoso.onmicrosoft.com fehlen diese Anwendungsberechtigungen für Microsoft Graph.',
    );
    expect(
      within(warning)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Mail.Read benötigt für E-Mail-Archiv',
      'User.Read.All benötigt für Sicherung, Benutzersynchronisierung und Verbindungstest',
    ]);
  });

  it('are not shown when none is missing', async () => {
    await testConnection({ ok: true }, 'Test connection');
    await waitFor(() => expect(screen.getByTestId('connection-result').textContent).toContain('works'));
    expect(screen.queryByTestId('missing-permissions')).toBeNull();
  });
});
