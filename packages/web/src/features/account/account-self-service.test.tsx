import type {
  InfoRequest,
  InfoResponse,
  SignInActivity,
  SignInEvent,
  TwoFactorRequest,
  TwoFactorResponse,
} from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { readStoredUser, storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { restoreOnline } from '../../testing/offline';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

// jsdom has no ResizeObserver; the user menu's positioning asks for one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

/** A field by its label, which a required field follows with an asterisk. */
const label = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);

const EMAIL = 'admin@contoso.example';
const texts = en.accountSecurity;

function signedIn() {
  storeUser({ token: 'session-token', user: { email: EMAIL, role: 'admin' } });
  storeWorker(testWorker());
}

const twoFactorOn = (recoveryCodesLeft = 10): TwoFactorResponse => ({
  sharedKey: null,
  recoveryCodesLeft,
  isTwoFactorEnabled: true,
  isMachineRemembered: false,
});
const info: InfoResponse = { email: EMAIL, isEmailConfirmed: true };
const problem = (code: string) => ({
  type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  title: 'One or more validation errors occurred.',
  status: 400,
  errors: { [code]: ['Server wording, not shown.'] },
});

/** The security tab with the account's address and a two-factor state, and whatever a test adds. */
function securityResolvers(extra: Resolvers = {}): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.auth.info': respond('apollo.auth.info', info),
    'apollo.auth.twoFactor': respond('apollo.auth.twoFactor', twoFactorOn()),
    ...extra,
  };
}

const section = (testId: string) => within(screen.getByTestId(testId));

describe('the account settings tabs', () => {
  it('keep the notification settings first, and the tab in the URL', async () => {
    signedIn();
    const { user, portal } = await renderPortal(
      '/account/settings',
      securityResolvers({
        'legacy.user.notifications': respond('legacy.user.notifications', {
          jobFailed: true,
          jobFinished: false,
          dailySummary: false,
          weeklyReport: true,
          licenseExpiry: true,
        }),
      }),
    );
    const tabs = await screen.findByRole('tablist', { name: texts.sections });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual([texts.tabs.notifications, texts.tabs.security, texts.tabs.activity]);
    expect(await screen.findByRole('button', { name: 'Save' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: texts.tabs.security }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ tab: 'security' }));
    expect(await screen.findByRole('heading', { name: texts.password.title })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: texts.tabs.activity }));
    await waitFor(() => expect(portal.router.state.location.search).toEqual({ tab: 'activity' }));
    expect(await screen.findByRole('heading', { name: texts.activity.title })).toBeTruthy();
    // Only the open tab is there: the others' data is not asked for.
    expect(screen.queryByRole('heading', { name: texts.password.title })).toBeNull();
  });

  it('are offered in the user menu (chosen by mouse and keyboard in the browser test)', async () => {
    signedIn();
    const { user } = await renderPortal('/reports', securityResolvers());
    await user.click(await screen.findByTestId('user-menu'));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      texts.menu.security,
      texts.menu.activity,
      texts.menu.notifications,
      en.auditLog.menu,
      en.common.logout,
    ]);
  });
});

describe('changing the password', () => {
  it('checks the fields, sends the current and the new password, and says what happened', async () => {
    signedIn();
    let sent: InfoRequest | undefined;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.updateInfo': async ({ request }) => {
          sent = await request.json();
          return HttpResponse.json(info);
        },
      }),
    );
    const opener = await section('password-section').findByRole('button', { name: texts.password.submit });
    await user.click(opener);
    const form = section('password-section');
    expect(document.activeElement).toBe(form.getByLabelText(label(texts.currentPassword)));
    await user.click(form.getByRole('button', { name: texts.password.submit }));
    expect(form.getAllByText(en.validation.required)).toHaveLength(3);
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Old-Passw0rd!');
    await user.type(form.getByLabelText(label(texts.newPassword)), 'weak');
    await user.type(form.getByLabelText(label(texts.confirmPassword)), 'other');
    await user.click(form.getByRole('button', { name: texts.password.submit }));
    expect(form.getAllByText(en.auth.passwordRules).length).toBeGreaterThan(1);
    expect(form.getByText(en.auth.passwordsDiffer)).toBeTruthy();
    expect(sent).toBeUndefined();

    await user.clear(form.getByLabelText(label(texts.newPassword)));
    await user.type(form.getByLabelText(label(texts.newPassword)), 'New-Passw0rd!');
    await user.clear(form.getByLabelText(label(texts.confirmPassword)));
    await user.type(form.getByLabelText(label(texts.confirmPassword)), 'New-Passw0rd!');
    await user.click(form.getByRole('button', { name: texts.password.submit }));
    expect(await section('password-section').findByText(texts.password.done)).toBeTruthy();
    expect(sent).toEqual({ oldPassword: 'Old-Passw0rd!', newPassword: 'New-Passw0rd!' });
    // The form closed and the focus is back on the button that opened it.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        section('password-section').getByRole('button', { name: texts.password.submit }),
      ),
    );
  });

  it('says when the current password is wrong, and when the account is locked', async () => {
    signedIn();
    let answer = problem('PasswordMismatch');
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({ 'apollo.auth.updateInfo': () => refuse(400, answer) }),
    );
    await user.click(await section('password-section').findByRole('button', { name: texts.password.submit }));
    const form = section('password-section');
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Wrong-Passw0rd!');
    await user.type(form.getByLabelText(label(texts.newPassword)), 'New-Passw0rd!');
    await user.type(form.getByLabelText(label(texts.confirmPassword)), 'New-Passw0rd!');
    await user.click(form.getByRole('button', { name: texts.password.submit }));
    expect((await form.findByRole('alert')).textContent).toBe(texts.errors.PasswordMismatch);
    answer = problem('Lockedout');
    await user.click(form.getByRole('button', { name: texts.password.submit }));
    await waitFor(() => expect(form.getByRole('alert').textContent).toBe(texts.errors.Lockedout));
    // No toast on top of the form's own message.
    expect(screen.queryByText('Invalid request')).toBeNull();
  });
});

describe('changing the email address', () => {
  it('asks for the password and a code, and says where the link went and that the old address was told', async () => {
    signedIn();
    let sent: InfoRequest | undefined;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.updateInfo': async ({ request }) => {
          sent = await request.json();
          return HttpResponse.json(info);
        },
      }),
    );
    expect((await section('email-section').findByTestId('current-email')).textContent).toBe(
      `Your address is ${EMAIL}.`,
    );
    expect(await section('email-section').findByText(texts.email.confirmed)).toBeTruthy();
    await user.click(section('email-section').getByRole('button', { name: texts.email.submit }));
    const form = section('email-section');
    await user.type(form.getByLabelText(label(texts.email.newEmail)), EMAIL);
    await user.click(form.getByRole('button', { name: texts.email.submit }));
    expect(form.getByText(texts.email.same)).toBeTruthy();
    expect(form.getByText(en.validation.code)).toBeTruthy();
    await user.clear(form.getByLabelText(label(texts.email.newEmail)));
    await user.type(form.getByLabelText(label(texts.email.newEmail)), 'new@contoso.example');
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Old-Passw0rd!');
    await user.type(form.getByLabelText(label(texts.code)), '12a3456');
    await user.click(form.getByRole('button', { name: texts.email.submit }));
    expect(
      await section('email-section').findByText(
        `A confirmation link is on its way to new@contoso.example. Your address stays ${EMAIL} until you open it; ${EMAIL} was told about the change.`,
      ),
    ).toBeTruthy();
    expect(sent).toEqual({ newEmail: 'new@contoso.example', oldPassword: 'Old-Passw0rd!', twoFactorCode: '123456' });
  });

  it('gives the generic messages for an empty or malformed address and an empty password', async () => {
    signedIn();
    let sent: InfoRequest | undefined;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.updateInfo': async ({ request }) => {
          sent = await request.json();
          return HttpResponse.json(info);
        },
      }),
    );
    await user.click(await section('email-section').findByRole('button', { name: texts.email.submit }));
    const form = section('email-section');
    await user.type(form.getByLabelText(label(texts.code)), '123456');
    await user.click(form.getByRole('button', { name: texts.email.submit }));
    expect(form.getAllByText('Field must not be empty.')).toHaveLength(2);
    await user.type(form.getByLabelText(label(texts.email.newEmail)), 'new@contoso');
    await user.click(form.getByRole('button', { name: texts.email.submit }));
    expect(form.getByText('Invalid email.')).toBeTruthy();
    expect(form.getAllByText('Field must not be empty.')).toHaveLength(1);
    expect(sent).toBeUndefined();
  });

  it('takes a recovery code instead, and shows a wrong code in words', async () => {
    signedIn();
    const bodies: InfoRequest[] = [];
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.updateInfo': async ({ request }) => {
          bodies.push(await request.json());
          return refuse(400, problem('InvalidTwoFactorCode'));
        },
      }),
    );
    await user.click(await section('email-section').findByRole('button', { name: texts.email.submit }));
    const form = section('email-section');
    await user.type(form.getByLabelText(label(texts.email.newEmail)), 'new@contoso.example');
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Old-Passw0rd!');
    await user.click(form.getByRole('button', { name: texts.useRecoveryCode }));
    await user.type(form.getByLabelText(label(texts.recoveryCode)), 'bcdfg-hjkmn');
    await user.click(form.getByRole('button', { name: texts.email.submit }));
    expect((await form.findByRole('alert')).textContent).toBe(texts.errors.InvalidTwoFactorCode);
    expect(bodies).toEqual([
      { newEmail: 'new@contoso.example', oldPassword: 'Old-Passw0rd!', twoFactorRecoveryCode: 'BCDFG-HJKMN' },
    ]);
  });

  it('needs no code while two-factor sign-in is off', async () => {
    signedIn();
    let sent: InfoRequest | undefined;
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.twoFactor': respond('apollo.auth.twoFactor', {
          ...twoFactorOn(0),
          isTwoFactorEnabled: false,
          sharedKey: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        }),
        'apollo.auth.updateInfo': async ({ request }) => {
          sent = await request.json();
          return HttpResponse.json(info);
        },
      }),
    );
    await section('authenticator-section').findByText(texts.authenticator.off);
    await user.click(section('email-section').getByRole('button', { name: texts.email.submit }));
    const form = section('email-section');
    expect(form.queryByLabelText(label(texts.code))).toBeNull();
    await user.type(form.getByLabelText(label(texts.email.newEmail)), 'new@contoso.example');
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Old-Passw0rd!');
    await user.click(form.getByRole('button', { name: texts.email.submit }));
    await waitFor(() => expect(sent).toEqual({ newEmail: 'new@contoso.example', oldPassword: 'Old-Passw0rd!' }));
  });

  it("updates the session's user when the server knows another address: the user menu and the stored user", async () => {
    signedIn();
    await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.info': respond('apollo.auth.info', { email: 'moved@contoso.example', isEmailConfirmed: true }),
      }),
    );
    await waitFor(() => expect(screen.getByTestId('user-menu').textContent).toContain('moved@contoso.example'));
    expect(readStoredUser()).toEqual({
      token: 'session-token',
      user: { email: 'moved@contoso.example', role: 'admin' },
    });
  });
});

describe('the authenticator app', () => {
  it('is reset with the password and a code, then set up again by QR code, and the user comes back here', async () => {
    signedIn();
    let reset: TwoFactorRequest | undefined;
    const tokens: string[] = [];
    const { user, path, portal } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.twoFactor': async ({ request }) => {
          const body = await request.json();
          if (!body.resetSharedKey) return HttpResponse.json(twoFactorOn(7));
          reset = body;
          return HttpResponse.json({ ...twoFactorOn(10), isTwoFactorEnabled: false, sharedKey: 'A'.repeat(32) });
        },
        'legacy.auth.generateQr': ({ request }) => {
          tokens.push(request.headers.get('authorization') ?? '');
          return HttpResponse.json({ otpauthUri: 'otpauth://totp/Portal:admin?secret=KEY', key: 'NEWKEY' });
        },
        'legacy.auth.qrcodeVerification': () =>
          HttpResponse.json({
            token: 'renewed-session',
            user: { email: EMAIL, role: 'admin' as const },
            recoveryCodes: Array.from({ length: 10 }, (_, i) => `BCDF${i + 2}-GHJKM`),
          }),
      }),
    );
    expect((await section('authenticator-section').findByTestId('authenticator-state')).textContent).toBe(
      'Two-factor sign-in is on. 7 recovery codes are left.',
    );
    await user.click(section('authenticator-section').getByRole('button', { name: texts.authenticator.resetTitle }));
    const form = section('authenticator-section');
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Old-Passw0rd!');
    await user.type(form.getByLabelText(label(texts.code)), '654321');
    await user.click(form.getByRole('button', { name: texts.authenticator.resetSubmit }));

    await waitFor(() => expect(path()).toBe('/qr-setup'));
    expect(reset).toMatchObject({ resetSharedKey: true, oldPassword: 'Old-Passw0rd!', twoFactorCode: '654321' });
    expect((await screen.findByTestId('manual-key')).textContent).toBe('NEWKEY');
    // The setup runs with the session that reset it.
    expect(tokens).toEqual(['session-token']);
    await user.type(screen.getByLabelText(/6-digit code/), '111111');
    await user.click(screen.getByRole('button', { name: en.auth.confirm }));
    expect(within(await screen.findByTestId('recovery-codes')).getAllByRole('listitem')).toHaveLength(10);
    await user.click(screen.getByTestId('recovery-saved'));
    await waitFor(() => expect(path()).toBe('/account/settings'));
    expect(portal.router.state.location.search).toEqual({ tab: 'security' });
    expect(readStoredUser()?.token).toBe('renewed-session');
  });

  it('says a wrong code in words and stays', async () => {
    signedIn();
    const { user, path } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.twoFactor': async ({ request }) => {
          const body = await request.json();
          return body.resetSharedKey ? refuse(400, problem('InvalidTwoFactorCode')) : HttpResponse.json(twoFactorOn());
        },
      }),
    );
    await user.click(
      await section('authenticator-section').findByRole('button', { name: texts.authenticator.resetTitle }),
    );
    const form = section('authenticator-section');
    await user.click(form.getByRole('button', { name: texts.authenticator.resetSubmit }));
    expect(form.getByText(en.validation.code)).toBeTruthy();
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Old-Passw0rd!');
    await user.type(form.getByLabelText(label(texts.code)), '000000');
    await user.click(form.getByRole('button', { name: texts.authenticator.resetSubmit }));
    expect((await form.findByRole('alert')).textContent).toBe(texts.errors.InvalidTwoFactorCode);
    expect(path()).toBe('/account/settings');
  });

  it('gives new recovery codes once for the password and a code, until the user has saved them', async () => {
    signedIn();
    let asked: TwoFactorRequest | undefined;
    const codes = Array.from({ length: 10 }, (_, i) => `XYZQ${i + 2}-RTVWX`);
    const { user } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.twoFactor': async ({ request }) => {
          const body = await request.json();
          if (!body.resetRecoveryCodes) return HttpResponse.json(twoFactorOn(2));
          asked = body;
          return HttpResponse.json({ ...twoFactorOn(10), recoveryCodes: codes });
        },
      }),
    );
    await section('authenticator-section').findByText('Two-factor sign-in is on. 2 recovery codes are left.');
    await user.click(section('authenticator-section').getByRole('button', { name: texts.authenticator.codesTitle }));
    const form = section('authenticator-section');
    // New codes take a code of the app, not a recovery code.
    expect(form.queryByRole('button', { name: texts.useRecoveryCode })).toBeNull();
    await user.type(form.getByLabelText(label(texts.currentPassword)), 'Old-Passw0rd!');
    await user.type(form.getByLabelText(label(texts.code)), '222222');
    await user.click(form.getByRole('button', { name: texts.authenticator.codesSubmit }));
    const list = await form.findByTestId('recovery-codes');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(form.getByText(texts.authenticator.codesShown)).toBeTruthy();
    expect(form.getByText('Two-factor sign-in is on. 10 recovery codes are left.')).toBeTruthy();
    expect(asked).toEqual({
      resetSharedKey: false,
      resetRecoveryCodes: true,
      forgetMachine: false,
      oldPassword: 'Old-Passw0rd!',
      twoFactorCode: '222222',
    });
    expect(document.activeElement).toBe(form.getByTestId('codes-saved'));
    await user.click(form.getByTestId('codes-saved'));
    expect(form.queryByTestId('recovery-codes')).toBeNull();
  });

  it('offers the setup when two-factor sign-in is off, and a retry when its state cannot be read', async () => {
    signedIn();
    let fail = true;
    const { user, path } = await renderPortal(
      '/account/settings?tab=security',
      securityResolvers({
        'apollo.auth.twoFactor': () =>
          fail
            ? refuse(500, { title: 'Internal server error', status: 500 })
            : HttpResponse.json({ ...twoFactorOn(0), isTwoFactorEnabled: false, sharedKey: 'B'.repeat(32) }),
        'legacy.auth.generateQr': respond('legacy.auth.generateQr', { otpauthUri: 'otpauth://totp/x', key: 'KEY2' }),
      }),
    );
    expect(
      await section('authenticator-section').findByText(texts.authenticator.loadFailed, {}, { timeout: 10_000 }),
    ).toBeTruthy();
    fail = false;
    await user.click(section('authenticator-section').getByRole('button', { name: en.common.retry }));
    await user.click(await section('authenticator-section').findByRole('button', { name: texts.authenticator.setUp }));
    await waitFor(() => expect(path()).toBe('/qr-setup'));
    expect((await screen.findByTestId('manual-key')).textContent).toBe('KEY2');
  });
});

function event(overrides: Partial<SignInEvent>): SignInEvent {
  return {
    at: '2026-11-02T08:00:00.000Z',
    kind: 'signedIn',
    outcome: 'success',
    api: 'legacy',
    method: 'authenticator',
    ip: '203.0.113.7',
    ...overrides,
  };
}

function activityPage(items: SignInEvent[], overrides: Partial<SignInActivity> = {}): SignInActivity {
  return { items, total: items.length, page: 1, pageSize: 10, otherSessions: 0, ...overrides };
}

describe('sign-in activity', () => {
  it('lists sign-ins and failed attempts with what, when, where and through which API', async () => {
    signedIn();
    await renderPortal(
      '/account/settings?tab=activity',
      securityResolvers({
        'legacy.auth.activity': respond(
          'legacy.auth.activity',
          activityPage([
            event({}),
            event({ kind: 'codeRefused', outcome: 'failure', method: undefined, api: 'apollo' }),
            event({ kind: 'passwordRefused', outcome: 'failure', method: undefined, ip: null }),
            event({ kind: 'signedIn', method: 'recoveryCode' }),
          ]),
        ),
      }),
    );
    const items = await screen.findAllByTestId('sign-in-event');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^SucceededSigned in with the authenticator app.* · from 203\.0\.113\.7 · Portal$/),
      expect.stringMatching(/^FailedWrong code.* · from 203\.0\.113\.7 · API$/),
      expect.stringMatching(/^FailedWrong password.* · from an unknown address · Portal$/),
      expect.stringMatching(/^SucceededSigned in with a recovery code/),
    ]);
    expect(screen.getByRole('list', { name: texts.activity.list })).toBeTruthy();
    expect(items[0]?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-02T08:00:00.000Z');
  });

  it('shows a loading state, then an empty one', async () => {
    signedIn();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await renderPortal(
      '/account/settings?tab=activity',
      securityResolvers({
        'legacy.auth.activity': async () => {
          await held;
          return HttpResponse.json(activityPage([]));
        },
      }),
    );
    expect(await screen.findByTestId('activity-loading')).toBeTruthy();
    release();
    expect((await screen.findByTestId('activity-empty')).textContent).toBe(texts.activity.empty);
  });

  it('says when it cannot be loaded, and tries again', async () => {
    signedIn();
    let fail = true;
    const { user } = await renderPortal(
      '/account/settings?tab=activity',
      securityResolvers({
        'legacy.auth.activity': () =>
          fail ? refuse(500, { message: 'Internal server error' }) : HttpResponse.json(activityPage([event({})])),
      }),
    );
    expect(await screen.findByText(texts.activity.failed, {}, { timeout: 10_000 })).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: en.common.retry }));
    expect(await screen.findAllByTestId('sign-in-event')).toHaveLength(1);
  });

  it('pages through older events, the page in the URL', async () => {
    signedIn();
    const pages: string[] = [];
    const { user, portal } = await renderPortal(
      '/account/settings?tab=activity',
      securityResolvers({
        'legacy.auth.activity': ({ request }) => {
          const page = Number(new URL(request.url).searchParams.get('page'));
          pages.push(`${page}/${new URL(request.url).searchParams.get('pageSize')}`);
          return HttpResponse.json(
            activityPage([event({ kind: page === 1 ? 'signedIn' : 'lockedOut' })], { total: 25, page }),
          );
        },
      }),
    );
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: texts.activity.newer })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: texts.activity.older }));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('sign-in-event').dataset.kind).toBe('lockedOut'));
    expect(portal.router.state.location.search).toEqual({ tab: 'activity', page: 2 });
    expect(pages).toEqual(['1/10', '2/10']);
  });

  it('reads in German', async () => {
    localStorage.setItem('language', 'de');
    signedIn();
    await renderPortal(
      '/account/settings?tab=activity',
      securityResolvers({
        'legacy.auth.activity': respond(
          'legacy.auth.activity',
          activityPage([event({ kind: 'passwordRefused', outcome: 'failure', method: undefined })]),
        ),
      }),
    );
    expect((await screen.findByTestId('sign-in-event')).textContent).toMatch(/^FehlgeschlagenFalsches Passwort/);
    expect(screen.getByRole('tab', { name: de.accountSecurity.tabs.activity })).toBeTruthy();
  });
});
