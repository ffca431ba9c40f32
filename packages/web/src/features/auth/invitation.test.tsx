import type { Invitation, InvitationAcceptance } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { storeUser } from '../../session/storage';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const invitation: Invitation = {
  email: 'adele@contoso.example',
  displayName: 'Adele Vance',
  organisationName: 'Contoso',
  expiresAt: '2026-11-09T08:00:00.000Z',
};
const PASSWORD = 'Invited-Passw0rd!';

describe('the invitation page', { timeout: 60_000 }, () => {
  it('says who is invited where, sets the password, and signs in to the authenticator’s setup', async () => {
    let accepted: InvitationAcceptance | undefined;
    let signedInWith: unknown;
    const { user, path } = await renderPortal('/invitation/tok-123', {
      'legacy.invitations.get': ({ params }) =>
        params.token === 'tok-123' ? HttpResponse.json(invitation) : refuse(404, { code: 'invitationInvalid' }),
      'legacy.invitations.accept': async ({ request }) => {
        accepted = await request.json();
        return HttpResponse.json({ email: 'adele@contoso.example' });
      },
      'legacy.auth.signin': async ({ request }) => {
        signedInWith = await request.json();
        return HttpResponse.json({
          token: 'signin-token',
          user: { email: 'adele@contoso.example', role: 'admin' },
          twoFactor: 'setup',
        });
      },
      'legacy.auth.generateQr': respond('legacy.auth.generateQr', { otpauthUri: 'otpauth://totp/x', key: 'KEY' }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Accept your invitation' })).toBeTruthy();
    expect(
      screen.getByText('You were invited to the compliance portal of Contoso as Adele Vance (adele@contoso.example).'),
    ).toBeTruthy();
    expect(screen.getByText(/^This link works until Nov 9, 2026/)).toBeTruthy();

    // The reset page's rules: a weak password or two that differ are said before anything is sent.
    await user.type(screen.getByLabelText(en.auth.newPassword, { exact: false }), 'weak');
    await user.click(screen.getByRole('button', { name: 'Set the password and continue' }));
    expect((await screen.findAllByText(en.auth.passwordRules)).length).toBeGreaterThan(1);
    expect(accepted).toBeUndefined();
    await user.clear(screen.getByLabelText(en.auth.newPassword, { exact: false }));
    await user.type(screen.getByLabelText(en.auth.newPassword, { exact: false }), PASSWORD);
    await user.type(screen.getByLabelText(en.auth.confirmPassword, { exact: false }), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set the password and continue' }));
    await waitFor(() => expect(path()).toBe('/qr-setup'));
    expect(accepted).toEqual({ password: PASSWORD, confirmPassword: PASSWORD });
    expect(signedInWith).toEqual({ email: 'adele@contoso.example', password: PASSWORD });
  });

  it('says when the link is not valid any more, in German', async () => {
    localStorage.setItem('language', 'de');
    await renderPortal('/invitation/old', {
      'legacy.invitations.get': () => refuse(404, { message: 'gone', code: 'invitationInvalid' }),
    });
    expect(
      await screen.findByText(
        'Dieser Einladungslink ist nicht mehr gültig: Er wurde benutzt, ist abgelaufen oder wurde durch einen neueren ersetzt. Bitten Sie Ihre Administration, ihn erneut zu senden.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Passwort festlegen und weiter' })).toBeNull();
    localStorage.removeItem('language');
  });

  it('asks a browser signed in as someone else to sign out first', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    await renderPortal('/invitation/tok-123', {
      'legacy.invitations.get': respond('legacy.invitations.get', invitation),
    });
    expect(
      await screen.findByText('You are signed in as admin@contoso.example. Sign out first to accept this invitation.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set the password and continue' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });
});
