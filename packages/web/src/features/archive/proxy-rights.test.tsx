import type { GrantProxyRights, ProxyPrincipal, ProxyRight } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const alex: ProxyPrincipal = {
  principalId: 'm2',
  kind: 'account',
  displayName: 'Alex Wilber',
  email: 'alex@contoso.example',
};
const allCompany: ProxyPrincipal = {
  principalId: 'g1',
  kind: 'distributionGroup',
  displayName: 'All Company',
  email: 'all@contoso.example',
};
const principals: ProxyPrincipal[] = [
  { principalId: 'm1', kind: 'account', displayName: 'Adele Vance', email: 'adele@contoso.example' },
  alex,
  allCompany,
  { principalId: 'user:u1', kind: 'account', displayName: 'Portal Admin', email: 'admin@contoso.example' },
];
const right: ProxyRight = {
  rightId: 'r1',
  mailboxId: 'm1',
  mailboxName: 'Adele Vance',
  principal: allCompany,
  grantedBy: 'admin@contoso.example',
  granted: '2026-11-20T10:00:00.000Z',
};

describe('proxy rights', () => {
  it('refuses the owner, a repeat and a holder with a message, grants the rest and revokes after confirming', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let granted: GrantProxyRights | undefined;
    let revoked = '';
    const { user } = await renderPortal('/archive/proxy-rights', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.proxyRights.accounts': respond('legacy.proxyRights.accounts', principals),
      'legacy.proxyRights.list': () => HttpResponse.json(revoked ? [] : [right]),
      'legacy.proxyRights.grant': async ({ request }) => {
        granted = await request.json();
        return HttpResponse.json([{ ...right, rightId: 'r2', principal: alex }], { status: 201 });
      },
      'legacy.proxyRights.revoke': ({ request }) => {
        revoked = new URL(request.url).searchParams.get('rightId') ?? '';
        return new HttpResponse(null, { status: 204 });
      },
    });
    const mailbox = await screen.findByLabelText('Mailbox');
    await waitFor(() => expect(within(mailbox).getAllByRole('option')).toHaveLength(3));
    // The portal's people hold rights but own no mailbox here.
    expect(within(mailbox).queryByText(/Portal Admin/)).toBeNull();
    await user.selectOptions(mailbox, 'm1');
    const holders = await screen.findByRole('table', { name: 'Who may read this archive' });
    expect(within(holders).getByText('All Company')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add Adele Vance' }));
    expect(screen.getByRole('alert').textContent).toContain('Adele Vance is the mailbox’s owner and reads it already.');
    await user.click(screen.getByRole('button', { name: 'Add All Company' }));
    expect(screen.getByRole('alert').textContent).toContain('already holds the right');
    await user.click(screen.getByRole('button', { name: 'Add Alex Wilber' }));
    await user.click(screen.getByRole('button', { name: 'Add Alex Wilber' }));
    expect(screen.getByRole('alert').textContent).toContain('Alex Wilber is already selected.');
    await user.click(screen.getByRole('button', { name: 'Add Portal Admin' }));
    expect(screen.getByTestId('proxy-selected').textContent).toBe('Alex Wilber, Portal Admin');
    await user.click(screen.getByRole('button', { name: 'Grant' }));
    await waitFor(() =>
      expect(granted).toEqual({ workerIp: '10.64.0.2', mailboxId: 'm1', principalIds: ['m2', 'user:u1'] }),
    );

    await user.click(within(holders).getByRole('button', { name: 'Revoke…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('All Company can no longer search or read the archive of Adele Vance.');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(revoked).toBe('r1'));
    expect(await screen.findByTestId('no-holders')).toBeTruthy();
  });
});

describe('proxy rights offline', () => {
  it('disables granting and revoking with the reason while choosing holders stays available', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    const { user } = await renderPortal('/archive/proxy-rights', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'legacy.proxyRights.accounts': respond('legacy.proxyRights.accounts', principals),
      'legacy.proxyRights.list': respond('legacy.proxyRights.list', [right]),
    });
    const mailbox = await screen.findByLabelText('Mailbox');
    await waitFor(() => expect(within(mailbox).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(mailbox, 'm1');
    const holders = await screen.findByRole('table', { name: 'Who may read this archive' });
    await user.click(screen.getByRole('button', { name: 'Add Alex Wilber' }));
    const revoke = within(holders).getByRole('button', { name: 'Revoke…' });
    const grant = screen.getByRole('button', { name: 'Grant' });
    expectServerAction(revoke, false);
    expectServerAction(grant, false);
    setOnline(false);
    expectServerAction(revoke, true);
    expectServerAction(grant, true);
    expect((screen.getByRole('button', { name: 'Add Portal Admin' }) as HTMLButtonElement).disabled).toBe(false);
    setOnline(true);
    expectServerAction(grant, false);
  });
});
