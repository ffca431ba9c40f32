import { respond } from '@compliance-portal/sdk/testing';
import { screen, within } from '@testing-library/react';
import { describe, it } from 'vitest';
import { storeUser } from '../../session/storage';
import { testClient, testFleetClient } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

describe('partner setup offline', () => {
  it('disables adding a client, working as one and opening its issue with the reason, and enables them online', async () => {
    storeUser({ token: 'session-token', user: { email: 'partner@fabrikam.example', role: 'partner' } });
    await renderPortal('/partner-setup', {
      'legacy.workers.clients': respond('legacy.workers.clients', [testClient()]),
      'legacy.workers.fleet': respond('legacy.workers.fleet', {
        items: [
          testFleetClient(),
          testFleetClient({
            clientId: 'c2',
            name: 'Litware',
            attention: 'critical',
            issues: [{ code: 'noLocation' }],
          }),
        ],
        total: 2,
        page: 1,
        pageSize: 25,
        counts: { critical: 1, warning: 0, ok: 1 },
        generatedAt: '2026-11-23T12:00:00.000Z',
      }),
    });
    const table = await screen.findByRole('table', { name: 'Client organisations' });
    const buttons = [
      await within(table).findByRole('button', { name: 'Work as Contoso' }),
      within(table).getByRole('button', { name: 'Open locations (Litware)' }),
      within(table).getByRole('button', { name: 'No storage location: open Litware where it is' }),
      screen.getByRole('button', { name: 'Add a client…' }),
    ];
    for (const button of buttons) expectServerAction(button, false);
    setOnline(false);
    for (const button of buttons) expectServerAction(button, true);
    setOnline(true);
    for (const button of buttons) expectServerAction(button, false);
  });
});
