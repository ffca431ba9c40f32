import { englishErrorMessages } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { de, germanApiErrors } from '../../i18n/de';
import { en } from '../../i18n/en';
import { readStoredUser } from '../../session/storage';
import { testClient } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const user = { email: 'admin@contoso.example', role: 'admin' as const };
const codes = [...'ABCDEFGHJK'].map((c) => `${c.repeat(5)}-23456`);

describe('the sign-in page', () => {
  it('shows field errors and sends nothing for an empty or malformed form', async () => {
    const { user: u } = await renderPortal('/signin');
    await u.click(screen.getByRole('button', { name: en.auth.signIn }));
    expect(await screen.findAllByText(en.validation.required)).toHaveLength(2);
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), 'not-an-email');
    expect(screen.getByText(en.validation.email)).toBeTruthy();
  });

  it('shows "Invalid Credentials" when the server refuses the password', async () => {
    let sent: unknown;
    const { user: u, path } = await renderPortal('/signin', {
      'legacy.auth.signin': async ({ request }) => {
        sent = await request.json();
        return refuse(401, { message: 'Invalid credentials.', code: 'invalidCredentials' });
      },
    });
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), 'admin@contoso.example');
    await u.type(screen.getByLabelText(en.auth.password, { exact: false }), 'wrong');
    await u.click(screen.getByRole('button', { name: en.auth.signIn }));
    expect((await screen.findByTestId('signin-error')).textContent).toBe(en.auth.invalidCredentials);
    // Said once, beside the form: no toast repeats it (a toast would show within a frame or two).
    await new Promise((settle) => setTimeout(settle, 300));
    expect(screen.getAllByText(en.auth.invalidCredentials)).toHaveLength(1);
    expect(sent).toEqual({ email: 'admin@contoso.example', password: 'wrong' });
    expect(path()).toBe('/signin');
  });

  // Issue 45: an organisation that signs in with Microsoft only refuses the password with the
  // catalogue's own text, in the language shown; it used to read "Login process failed".
  it.each([
    ['en', en, englishErrorMessages.passwordSignInOff],
    ['de', de, germanApiErrors.passwordSignInOff],
  ] as const)('says in %s that the organisation signs in with Microsoft only', async (language, texts, refusal) => {
    localStorage.setItem('language', language);
    const { user: u } = await renderPortal('/signin', {
      'legacy.auth.signin': () => refuse(403, { message: 'Reworded on purpose.', code: 'passwordSignInOff' }),
    });
    await u.type(screen.getByLabelText(texts.auth.email, { exact: false }), user.email);
    await u.type(screen.getByLabelText(texts.auth.password, { exact: false }), 'Passw0rd!');
    await u.click(screen.getByRole('button', { name: texts.auth.signIn }));
    expect((await screen.findByTestId('signin-error')).textContent).toBe(refusal);
    localStorage.removeItem('language');
  });

  // Issue 45: with no server to answer, the form names the network and the spec's warning shows.
  it('names the network when no server answers, with the network warning', async () => {
    const { user: u, path } = await renderPortal('/signin', { 'legacy.auth.signin': () => HttpResponse.error() });
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
    await u.type(screen.getByLabelText(en.auth.password, { exact: false }), 'Passw0rd!');
    await u.click(screen.getByRole('button', { name: en.auth.signIn }));
    expect((await screen.findByTestId('signin-error', {}, { timeout: 5000 })).textContent).toBe(en.errors.network);
    // The toast says it too (the form's text and the warning are the same sentence).
    await waitFor(() => expect(screen.getAllByText(en.errors.network).length).toBe(2));
    expect(path()).toBe('/signin');
  });

  it('leads a first sign-in through the QR setup to the recovery codes and into the portal', async () => {
    const { user: u, path } = await renderPortal('/signin?redirect=%2Freports', {
      'legacy.auth.signin': respond('legacy.auth.signin', { token: 'signin-token', user, twoFactor: 'setup' }),
      'legacy.auth.generateQr': ({ request }) =>
        request.headers.get('authorization') === 'signin-token'
          ? HttpResponse.json({ otpauthUri: 'otpauth://totp/Portal:a?secret=KEY', key: 'JBSWY3DPEHPK3PXP' })
          : refuse(401, { message: 'Unauthorized' }),
      'legacy.auth.qrcodeVerification': respond('legacy.auth.qrcodeVerification', {
        token: 'session-token',
        user,
        recoveryCodes: codes,
      }),
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
    });
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
    await u.type(screen.getByLabelText(en.auth.password, { exact: false }), 'Passw0rd!');
    await u.click(screen.getByRole('button', { name: en.auth.signIn }));

    expect((await screen.findByTestId('manual-key')).textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(path()).toBe('/qr-setup');
    await u.type(screen.getByLabelText(en.auth.code, { exact: false }), '123456');
    await u.click(screen.getByRole('button', { name: en.auth.confirm }));

    const list = await screen.findByTestId('recovery-codes');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    // Signed in once the user says the codes are kept.
    expect(readStoredUser()).toBeNull();
    await u.click(screen.getByTestId('recovery-saved'));
    await waitFor(() => expect(path()).toBe('/reports'));
    expect(readStoredUser()?.token).toBe('session-token');
  });

  it('says "Invalid Verification Code" when the setup code is refused', async () => {
    const { user: u } = await renderPortal('/signin', {
      'legacy.auth.signin': respond('legacy.auth.signin', { token: 'signin-token', user, twoFactor: 'setup' }),
      'legacy.auth.generateQr': respond('legacy.auth.generateQr', { otpauthUri: 'otpauth://totp/x', key: 'KEY' }),
      'legacy.auth.qrcodeVerification': () => refuse(400, { message: 'Invalid verification code.' }),
    });
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
    await u.type(screen.getByLabelText(en.auth.password, { exact: false }), 'Passw0rd!');
    await u.click(screen.getByRole('button', { name: en.auth.signIn }));
    await u.type(await screen.findByLabelText(en.auth.code, { exact: false }), '000000');
    await u.click(screen.getByRole('button', { name: en.auth.confirm }));
    expect(await screen.findAllByText(en.auth.invalidVerificationCode)).not.toHaveLength(0);
  });

  it('takes a recovery code on /code-verification and asks for a fresh setup', async () => {
    let sent: unknown;
    const { user: u, path } = await renderPortal('/signin', {
      'legacy.auth.signin': respond('legacy.auth.signin', { token: 'signin-token', user, twoFactor: 'verify' }),
      'legacy.auth.codeVerification': async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ token: 'session-token', user, requiresTwoFactorSetup: true });
      },
      'legacy.auth.generateQr': respond('legacy.auth.generateQr', { otpauthUri: 'otpauth://totp/x', key: 'NEWKEY' }),
    });
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
    await u.type(screen.getByLabelText(en.auth.password, { exact: false }), 'Passw0rd!');
    await u.click(screen.getByRole('button', { name: en.auth.signIn }));
    await u.click(await screen.findByRole('button', { name: en.auth.useRecovery }));
    await u.type(screen.getByLabelText(en.auth.recoveryCode, { exact: false }), 'ABCDE-FGHJK');
    await u.click(screen.getByRole('button', { name: en.auth.verify }));
    expect((await screen.findByTestId('manual-key')).textContent).toBe('NEWKEY');
    expect(sent).toEqual({ recoveryCode: 'ABCDE-FGHJK' });
    expect(path()).toBe('/qr-setup');
  });
});

describe('password recovery', () => {
  it('sends the reset link, and says so when it fails', async () => {
    let calls = 0;
    const { user: u } = await renderPortal('/forgot-password', {
      'legacy.auth.forgotPassword': () =>
        ++calls === 1 ? HttpResponse.json({ message: 'sent' }) : refuse(500, { message: 'Internal server error' }),
    });
    const email = screen.getByLabelText(en.auth.email, { exact: false });
    await u.type(email, 'admin@contoso.example');
    await u.click(screen.getByRole('button', { name: en.auth.sendLink }));
    expect(await screen.findByText(en.auth.linkSent)).toBeTruthy();
    await u.click(screen.getByRole('button', { name: en.auth.sendLink }));
    expect(await screen.findByText(en.auth.sendLinkFailed)).toBeTruthy();
  });

  it('refuses different passwords, and reports a failed reset', async () => {
    let sent: unknown;
    const { user: u } = await renderPortal('/reset-password/abc123', {
      'legacy.auth.resetPassword': async ({ request, params }) => {
        sent = { params, body: await request.json() };
        return refuse(400, { message: 'Invalid or expired link.' });
      },
    });
    await u.type(screen.getByLabelText(en.auth.newPassword, { exact: false }), 'New-Passw0rd!');
    await u.type(screen.getByLabelText(en.auth.confirmPassword, { exact: false }), 'Other-Passw0rd!');
    await u.click(screen.getByRole('button', { name: en.common.save }));
    expect(screen.getByText(en.auth.passwordsDiffer)).toBeTruthy();
    expect(sent).toBeUndefined();

    await u.clear(screen.getByLabelText(en.auth.confirmPassword, { exact: false }));
    await u.type(screen.getByLabelText(en.auth.confirmPassword, { exact: false }), 'New-Passw0rd!');
    await u.click(screen.getByRole('button', { name: en.common.save }));
    expect(await screen.findByText(en.auth.resetFailed)).toBeTruthy();
    expect(sent).toEqual({
      params: { token: 'abc123' },
      body: { password: 'New-Passw0rd!', confirmPassword: 'New-Passw0rd!' },
    });
  });
});

describe('the sign-in pages offline', () => {
  it('disable signing in, sending the reset link and saving a new password with the reason', async () => {
    let signins = 0;
    const { user: u, view } = await renderPortal('/signin', {
      'legacy.auth.signin': () => {
        signins += 1;
        return refuse(401, { message: 'Invalid credentials.', code: 'invalidCredentials' });
      },
    });
    const signIn = screen.getByRole('button', { name: en.auth.signIn });
    expectServerAction(signIn, false);
    setOnline(false);
    expectServerAction(signIn, true);
    await u.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
    await u.type(screen.getByLabelText(en.auth.password, { exact: false }), 'Passw0rd!{Enter}');
    expect(signins).toBe(0);
    // Links only navigate and stay available.
    await u.click(screen.getByRole('link', { name: en.auth.forgotPasswordLink }));
    expectServerAction(await screen.findByRole('button', { name: en.auth.sendLink }), true);
    setOnline(true);
    expectServerAction(screen.getByRole('button', { name: en.auth.sendLink }), false);
    view.unmount();

    await renderPortal('/reset-password/abc123');
    const save = screen.getByRole('button', { name: en.common.save });
    expectServerAction(save, false);
    setOnline(false);
    expectServerAction(save, true);
  });

  it('disable confirming the QR setup and the verification code with the reason, not going back', async () => {
    let signins = 0;
    const { user: u } = await renderPortal('/signin', {
      'legacy.auth.signin': () =>
        HttpResponse.json({ token: 'signin-token', user, twoFactor: ++signins === 1 ? 'setup' : 'verify' }),
      'legacy.auth.generateQr': respond('legacy.auth.generateQr', { otpauthUri: 'otpauth://totp/x', key: 'KEY' }),
    });
    const signIn = async () => {
      await u.type(screen.getByLabelText(en.auth.email, { exact: false }), user.email);
      await u.type(screen.getByLabelText(en.auth.password, { exact: false }), 'Passw0rd!');
      await u.click(screen.getByRole('button', { name: en.auth.signIn }));
    };
    await signIn();
    await screen.findByTestId('manual-key');
    const confirm = screen.getByRole('button', { name: en.auth.confirm });
    expectServerAction(confirm, false);
    setOnline(false);
    expectServerAction(confirm, true);
    expect((screen.getByRole('button', { name: en.auth.backToSignIn }) as HTMLButtonElement).disabled).toBe(false);
    setOnline(true);
    await u.click(screen.getByRole('button', { name: en.auth.backToSignIn }));

    await signIn();
    const verify = await screen.findByRole('button', { name: en.auth.verify });
    expectServerAction(verify, false);
    setOnline(false);
    expectServerAction(verify, true);
    expect((screen.getByRole('button', { name: en.auth.useRecovery }) as HTMLButtonElement).disabled).toBe(false);
    setOnline(true);
    expectServerAction(verify, false);
  });
});

describe('the sign-in pages’ checks', () => {
  it('give the generic messages on signing in, sending no request', async () => {
    let signins = 0;
    const { user: u } = await renderPortal('/signin', {
      'legacy.auth.signin': () => {
        signins += 1;
        return refuse(401, { message: 'Invalid credentials.', code: 'invalidCredentials' });
      },
    });
    await u.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Field must not be empty.')).toHaveLength(2);
    await u.type(screen.getByLabelText(/Email address/), 'admin@contoso');
    await u.type(screen.getByLabelText(/Password/), 'Passw0rd!');
    await u.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Invalid email.')).toBeTruthy();
    expect(screen.queryByText('Field must not be empty.')).toBeNull();
    expect(signins).toBe(0);
  });

  it('give them in German', async () => {
    localStorage.setItem('language', 'de');
    const { user: u } = await renderPortal('/signin');
    await u.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findAllByText('Das Feld darf nicht leer sein.')).toHaveLength(2);
    await u.type(screen.getByLabelText(/E-Mail-Adresse/), 'admin@contoso');
    expect(screen.getByText('Ungültige E-Mail-Adresse.')).toBeTruthy();
  });

  it('check the address for the reset link and the new password, keeping the password rules', async () => {
    let calls = 0;
    const { user: u, view } = await renderPortal('/forgot-password', {
      'legacy.auth.forgotPassword': () => {
        calls += 1;
        return HttpResponse.json({ message: 'sent' });
      },
    });
    await u.click(screen.getByRole('button', { name: 'Send link' }));
    expect(screen.getByText('Field must not be empty.')).toBeTruthy();
    await u.type(screen.getByLabelText(/Email address/), 'admin contoso.example');
    await u.click(screen.getByRole('button', { name: 'Send link' }));
    expect(screen.getByText('Invalid email.')).toBeTruthy();
    expect(calls).toBe(0);
    view.unmount();

    await renderPortal('/reset-password/abc123');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByText('Field must not be empty.')).toHaveLength(2);
    await u.type(screen.getByLabelText(/New password/), 'short');
    expect(screen.getAllByText(en.auth.passwordRules).length).toBeGreaterThan(1);
  });
});
