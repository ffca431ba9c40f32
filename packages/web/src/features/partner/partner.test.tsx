import { respond } from '@compliance-portal/sdk/testing';
import { screen, within } from '@testing-library/react';
import { describe, it } from 'vitest';
import { storeUser } from '../../session/storage';
import { testClient } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

describe('partner setup offline', () => {
  it('disables adding a client and working as one with the reason, and enables them online', async () => {
    storeUser({ token: 'session-token', user: { email: 'partner@fabrikam.example', role: 'partner' } });
    await renderPortal('/partner-setup', {
      'legacy.workers.clients': respond('legacy.workers.clients', [testClient()]),
    });
    const table = await screen.findByRole('table', { name: 'Client organisations' });
    const buttons = [
      await within(table).findByRole('button', { name: 'Work as Contoso' }),
      screen.getByRole('button', { name: 'Add a client' }),
    ];
    for (const button of buttons) expectServerAction(button, false);
    setOnline(false);
    for (const button of buttons) expectServerAction(button, true);
    setOnline(true);
    for (const button of buttons) expectServerAction(button, false);
  });
});
