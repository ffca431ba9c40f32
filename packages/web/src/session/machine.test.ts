import {
  ApiError,
  type CodeVerificationResponse,
  type GenerateQrResponse,
  NetworkError,
  type QrVerificationResponse,
  type SessionResponse,
  type SigninResponse,
  type Worker,
} from '@compliance-portal/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { isAuthenticated, type SessionInput, safeReturnTo, sessionMachine } from './machine';
import { INACTIVITY_LOGOUT_MS, INACTIVITY_WARNING_MS, type StoredUser } from './types';

const user = { email: 'admin@contoso.example', role: 'admin' as const };
const stored: StoredUser = { token: 'session-token', user };
const context = { method: 'POST', url: 'http://x/api/auth/signin', disableToast: false };

function harness(options: {
  input?: Partial<SessionInput>;
  signin?: () => Promise<SigninResponse>;
  confirm?: () => Promise<QrVerificationResponse>;
  generateQr?: () => Promise<GenerateQrResponse>;
  verify?: (input: { token: string; code?: string; recoveryCode?: string }) => Promise<CodeVerificationResponse>;
  logout?: () => Promise<void>;
  microsoft?: () => Promise<SessionResponse>;
  /** The worker as the server has it now; by default nothing is read (no worker stored). */
  loadWorker?: () => Promise<Worker | null>;
  onSignin?: boolean;
}) {
  const log: string[] = [];
  const machine = sessionMachine.provide({
    actors: {
      signin: fromPromise(async () =>
        (options.signin ?? (async () => ({ token: 'signin-token', user, twoFactor: 'verify' as const })))(),
      ),
      generateQr: fromPromise(async ({ input }) => {
        log.push(`generateQr:${input.token}`);
        return (options.generateQr ?? (async () => ({ otpauthUri: 'otpauth://totp/x', key: 'KEY' })))();
      }),
      confirmSetup: fromPromise(async ({ input }) => {
        log.push(`confirmSetup:${input.token}:${input.code}`);
        return (options.confirm ?? (async () => ({ token: 'new-session', user, recoveryCodes: ['A', 'B'] })))();
      }),
      verifyCode: fromPromise(async ({ input }) => {
        log.push(`verifyCode:${input.token}:${input.code ?? ''}:${input.recoveryCode ?? ''}`);
        return (options.verify ?? (async () => ({ token: 'verified', user, requiresTwoFactorSetup: false })))(input);
      }),
      microsoftComplete: fromPromise(async ({ input }) => {
        log.push(`microsoftComplete:${input.code}:${input.state}`);
        return (options.microsoft ?? (async () => ({ token: 'microsoft-session', user })))();
      }),
      logoutApi: fromPromise(async ({ input }) => {
        log.push(`logoutApi:${input.token}`);
        await (options.logout ?? (async () => {}))();
      }),
      loadWorker: fromPromise(async ({ input }) => {
        if (!options.loadWorker) return null;
        log.push(`loadWorker:${input.user?.email ?? ''}`);
        return options.loadWorker();
      }),
    },
    actions: {
      persistUser: (_, params) => log.push(`persistUser:${params.user.token}`),
      clearUserData: () => log.push('clearUserData'),
      clearTrialDialogFlag: () => log.push('clearTrialDialogFlag'),
      writeLogoutMarker: () => log.push('writeLogoutMarker'),
      clearAllCookies: () => log.push('clearAllCookies'),
      navigate: (_, params) => log.push(`navigate:${params.to}`),
      showError: (_, params) => log.push(`showError:${params.message}`),
      showInactivityWarning: () => log.push('showInactivityWarning'),
      dismissInactivityWarning: () => log.push('dismissInactivityWarning'),
      logLogoutFailure: () => log.push('logLogoutFailure'),
      storeWorker: (_, params) => log.push(`storeWorker:${params.worker.stagingtenant_id ?? 'none'}`),
      adoptWorker: () => log.push('adoptWorker'),
      logWorkerFailure: () => log.push('logWorkerFailure'),
    },
    guards: { notOnSignin: () => !options.onSignin },
  });
  const actor = createActor(machine, { input: { storedUser: null, ...options.input } });
  actor.start();
  return { actor, log, value: () => actor.getSnapshot().value, context: () => actor.getSnapshot().context };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-02T08:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('start', () => {
  it('is signed out without a stored user', () => {
    const h = harness({});
    expect(h.value()).toBe('signedOut');
    expect(isAuthenticated(h.value())).toBe(false);
  });

  it('loads a stored user, persists it and starts the inactivity timer', async () => {
    const h = harness({ input: { storedUser: stored } });
    expect(h.value()).toBe('signedIn');
    expect(h.context().user).toEqual(stored);
    expect(h.log).toEqual(['persistUser:session-token']);
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS - 1);
    expect(h.value()).toBe('signedIn');
    await vi.advanceTimersByTimeAsync(1);
    expect(h.value()).toBe('inactivityWarning');
  });
});

describe('sign-in', () => {
  it('goes to QR setup for a user without 2FA, then shows the recovery codes once', async () => {
    const h = harness({ signin: async () => ({ token: 'signin-token', user, twoFactor: 'setup' }) });
    h.actor.send({ type: 'session.login', email: user.email, password: 'x' });
    expect(h.value()).toBe('signingIn');
    await flush();
    expect(h.value()).toEqual({ twoFactorSetup: 'awaitingCode' });
    expect(h.context().qr).toEqual({ otpauthUri: 'otpauth://totp/x', key: 'KEY' });
    expect(h.log).toEqual(['navigate:/qr-setup', 'generateQr:signin-token']);
    h.actor.send({ type: 'session.confirmSetup', code: '123456' });
    await flush();
    expect(h.value()).toEqual({ twoFactorSetup: 'showingRecoveryCodes' });
    expect(h.context().recoveryCodes).toEqual(['A', 'B']);
    expect(isAuthenticated(h.value())).toBe(false);
    h.actor.send({ type: 'session.acknowledgeRecoveryCodes' });
    expect(h.value()).toBe('signedIn');
    expect(h.context().recoveryCodes).toBeNull();
    expect(h.context().user).toEqual({ token: 'new-session', user });
    expect(h.log.slice(2)).toEqual(['confirmSetup:signin-token:123456', 'navigate:/', 'persistUser:new-session']);
  });

  it('shows "Invalid Verification Code" for a wrong setup code and lets the user try again', async () => {
    const h = harness({
      signin: async () => ({ token: 's', user, twoFactor: 'setup' }),
      confirm: async () => {
        throw new Error('Invalid verification code.');
      },
    });
    h.actor.send({ type: 'session.login', email: user.email, password: 'x' });
    await flush();
    h.actor.send({ type: 'session.confirmSetup', code: '000000' });
    await flush();
    expect(h.value()).toEqual({ twoFactorSetup: 'awaitingCode' });
    expect(h.context().error).toBe('invalidVerificationCode');
    // Said once, in the form, not again in a toast.
    expect(h.log).not.toContain('showError:invalidVerificationCode');
  });

  it('goes to code verification for a user with 2FA and signs in with a code', async () => {
    const h = harness({});
    h.actor.send({ type: 'session.login', email: user.email, password: 'x' });
    await flush();
    expect(h.value()).toEqual({ twoFactorVerification: 'awaitingCode' });
    h.actor.send({ type: 'session.verify', code: '654321' });
    expect(h.value()).toEqual({ twoFactorVerification: 'verifying' });
    await flush();
    expect(h.value()).toBe('signedIn');
    expect(h.log).toEqual([
      'navigate:/code-verification',
      'verifyCode:signin-token:654321:',
      'navigate:/',
      'persistUser:verified',
    ]);
  });

  it('signs in with a recovery code and leads to a fresh QR setup with the new session', async () => {
    const h = harness({ verify: async () => ({ token: 'after-recovery', user, requiresTwoFactorSetup: true }) });
    h.actor.send({ type: 'session.login', email: user.email, password: 'x' });
    await flush();
    h.actor.send({ type: 'session.verifyRecovery', recoveryCode: 'BCDFG-HJKMN' });
    await flush();
    expect(h.value()).toEqual({ twoFactorSetup: 'awaitingCode' });
    expect(h.log).toContain('verifyCode:signin-token::BCDFG-HJKMN');
    expect(h.log).toContain('persistUser:after-recovery');
    expect(h.log).toContain('generateQr:after-recovery');
    expect(h.log.indexOf('navigate:/qr-setup')).toBeGreaterThan(-1);
  });

  it('shows the verification failure and stays for another try', async () => {
    const h = harness({
      verify: async () => {
        throw new Error('Invalid verification code.');
      },
    });
    h.actor.send({ type: 'session.login', email: user.email, password: 'x' });
    await flush();
    h.actor.send({ type: 'session.verify', code: '000000' });
    await flush();
    expect(h.value()).toEqual({ twoFactorVerification: 'awaitingCode' });
    expect(h.context().error).toBe('verificationFailed');
    expect(h.log).not.toContain('showError:verificationFailed');
  });

  it('maps each sign-in refusal by its code, a network failure to the network text and others to "Login process failed"', async () => {
    /** A sign-in the server refuses with `error`: the harness after the refusal. */
    const refusedWith = async (error: Error) => {
      const h = harness({
        signin: async () => {
          throw error;
        },
      });
      h.actor.send({ type: 'session.login', email: user.email, password: 'x' });
      await flush();
      return h;
    };
    const wrong = await refusedWith(new ApiError(401, { message: 'Reworded.', code: 'invalidCredentials' }, context));
    expect(wrong.value()).toBe('signedOut');
    expect(wrong.context().error).toBe('invalidCredentials');
    // Decided by the refusal's code, not its wording.
    const locked = await refusedWith(
      new ApiError(401, { message: 'Invalid credentials.', code: 'accountLocked' }, context),
    );
    expect(locked.context().error).toBe('accountLocked');
    const deactivated = await refusedWith(
      new ApiError(403, { message: 'Reworded.', code: 'accountDeactivated' }, context),
    );
    expect(deactivated.context().error).toBe('accountDeactivated');
    // An organisation that signs in with Microsoft only refuses the password by its own code: the
    // page says to use "Sign in with Microsoft", not "Login process failed" (issue 45).
    const microsoftOnly = await refusedWith(
      new ApiError(403, { message: 'Reworded.', code: 'passwordSignInOff' }, context),
    );
    expect(microsoftOnly.context().error).toBe('passwordSignInOff');
    // No server answered: the page names the network (issue 45; it said "Login process failed").
    const down = await refusedWith(new NetworkError({ ...context, disableToast: true }, new TypeError('fetch failed')));
    expect(down.context().error).toBe('network');
    expect(down.log).toEqual([]);
    // Anything else the catalogue has no sign-in text for.
    const odd = await refusedWith(new Error('boom'));
    expect(odd.context().error).toBe('loginFailed');
  });

  it('cancels setup or verification back to the sign-in page', async () => {
    const h = harness({});
    h.actor.send({ type: 'session.login', email: user.email, password: 'x' });
    await flush();
    h.actor.send({ type: 'session.cancel' });
    expect(h.value()).toBe('signedOut');
    expect(h.context().pendingToken).toBeNull();
    expect(h.log.at(-1)).toBe('navigate:/signin');
  });
});

describe('inactivity', () => {
  it('warns at 870000 ms and logs out at 900000 ms', async () => {
    const h = harness({ input: { storedUser: stored } });
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS);
    expect(h.value()).toBe('inactivityWarning');
    expect(h.log).toContain('showInactivityWarning');
    await vi.advanceTimersByTimeAsync(INACTIVITY_LOGOUT_MS - INACTIVITY_WARNING_MS - 1);
    expect(h.value()).toBe('inactivityWarning');
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(h.value()).toBe('signedOut');
    expect(h.log).toContain('dismissInactivityWarning');
    expect(h.log).toContain('logoutApi:session-token');
  });

  it('resets the timers on activity, also during the warning', async () => {
    const h = harness({ input: { storedUser: stored } });
    await vi.advanceTimersByTimeAsync(600_000);
    h.actor.send({ type: 'session.activity', at: Date.now() });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(h.value()).toBe('signedIn');
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS - 600_000);
    expect(h.value()).toBe('inactivityWarning');
    h.actor.send({ type: 'session.activity', at: Date.now() });
    expect(h.value()).toBe('signedIn');
    expect(h.log).toContain('dismissInactivityWarning');
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS - 1);
    expect(h.value()).toBe('signedIn');
  });

  it('counts activity seen in another tab (the shared timestamp)', async () => {
    const h = harness({ input: { storedUser: stored, lastActivity: Date.now() } });
    await vi.advanceTimersByTimeAsync(800_000);
    // Another tab was used 100 s ago: the warning moves accordingly.
    h.actor.send({ type: 'session.activity', at: Date.now() - 100_000 });
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS - 100_000 - 1);
    expect(h.value()).toBe('signedIn');
    await vi.advanceTimersByTimeAsync(1);
    expect(h.value()).toBe('inactivityWarning');
  });

  it('counts opening a tab as activity, whatever the shared timestamp says', async () => {
    const h = harness({ input: { storedUser: stored, lastActivity: Date.now() - 860_000 } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.value()).toBe('signedIn');
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS - 10_000);
    expect(h.value()).toBe('inactivityWarning');
  });
});

describe('sign-in with Microsoft', () => {
  it('signs in like a second factor does: persisted, inactivity timer, logout ends it', async () => {
    const h = harness({});
    h.actor.send({ type: 'session.completeMicrosoft', code: 'c', state: 's', returnTo: '/reports' });
    expect(h.value()).toBe('completingMicrosoft');
    await flush();
    expect(h.value()).toBe('signedIn');
    expect(h.log).toEqual(['microsoftComplete:c:s', 'navigate:/reports', 'persistUser:microsoft-session']);
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS);
    expect(h.value()).toBe('inactivityWarning');
    await vi.advanceTimersByTimeAsync(INACTIVITY_LOGOUT_MS - INACTIVITY_WARNING_MS);
    expect(h.value()).toBe('signedOut');
    expect(h.log).toContain('logoutApi:microsoft-session');
  });

  it("ends with another tab's logout, as a password sign-in does", async () => {
    const h = harness({});
    h.actor.send({ type: 'session.completeMicrosoft', code: 'c', state: 's' });
    await flush();
    h.actor.send({ type: 'session.externalLogout' });
    expect(h.value()).toBe('signedOut');
    expect(h.log).toContain('clearUserData');
  });

  it("keeps the refusal's message key and stays signed out", async () => {
    const refused = new ApiError(400, { message: 'x', code: 'entraOtherTenant' }, context);
    const h = harness({ microsoft: () => Promise.reject(refused) });
    h.actor.send({ type: 'session.completeMicrosoft', code: 'c', state: 's', returnTo: '//evil.example' });
    await flush();
    expect(h.value()).toBe('signedOut');
    expect(h.context().microsoftFailure).toBe('entraOtherTenant');
    expect(h.context().user).toBeNull();
    expect(h.log.some((l) => l.startsWith('navigate') || l.startsWith('persistUser'))).toBe(false);
  });

  it('replaces a signed-in session when a member confirms with Microsoft, back where the member was', async () => {
    const adele = { email: 'adele@contoso.example', role: 'admin' as const };
    const h = harness({
      input: { storedUser: stored },
      microsoft: async () => ({ token: 'adele-session', user: adele }),
    });
    h.log.length = 0;
    h.actor.send({
      type: 'session.completeMicrosoft',
      code: 'c',
      state: 's',
      returnTo: '/account/settings?tab=security',
    });
    expect(h.value()).toBe('completingMicrosoft');
    await flush();
    expect(h.value()).toBe('signedIn');
    expect(h.context().user).toEqual({ token: 'adele-session', user: adele });
    expect(h.log).toEqual([
      'microsoftComplete:c:s',
      'navigate:/account/settings?tab=security',
      'persistUser:adele-session',
    ]);
  });

  it('keeps the signed-in session when the confirming sign-in is refused', async () => {
    const refused = new ApiError(409, { message: 'x', code: 'entraTenantTaken' }, context);
    const h = harness({ input: { storedUser: stored }, microsoft: () => Promise.reject(refused) });
    h.log.length = 0;
    h.actor.send({ type: 'session.completeMicrosoft', code: 'c', state: 's', returnTo: '/account/settings' });
    await flush();
    expect(h.value()).toBe('signedIn');
    expect(h.context().user).toEqual(stored);
    expect(h.context().microsoftFailure).toBe('entraTenantTaken');
    expect(h.log.some((l) => l.startsWith('navigate') || l.startsWith('clearUserData'))).toBe(false);
  });
});

describe('logout', () => {
  it('does the section 4 steps in order and calls /auth/logout with the token', async () => {
    const h = harness({ input: { storedUser: stored } });
    h.log.length = 0;
    h.actor.send({ type: 'session.logout' });
    expect(h.value()).toBe('loggingOut');
    expect(isAuthenticated(h.value())).toBe(false);
    await flush();
    expect(h.value()).toBe('signedOut');
    expect(h.log).toEqual([
      'clearUserData',
      'clearTrialDialogFlag',
      'writeLogoutMarker',
      'navigate:/logout',
      'logoutApi:session-token',
    ]);
    expect(h.context().user).toBeNull();
  });

  it('only logs a failed /auth/logout', async () => {
    const h = harness({
      input: { storedUser: stored },
      logout: async () => {
        throw new Error('down');
      },
    });
    h.actor.send({ type: 'session.logout' });
    await flush();
    expect(h.value()).toBe('signedOut');
    expect(h.log.at(-1)).toBe('logLogoutFailure');
  });

  it("follows another tab's logout unless on the sign-in page", () => {
    const h = harness({ input: { storedUser: stored } });
    h.log.length = 0;
    h.actor.send({ type: 'session.externalLogout' });
    expect(h.value()).toBe('signedOut');
    expect(h.log).toEqual(['clearUserData', 'navigate:/logout']);
    const onSignin = harness({ input: { storedUser: stored }, onSignin: true });
    onSignin.actor.send({ type: 'session.externalLogout' });
    expect(onSignin.value()).toBe('signedIn');
  });

  it('clears all cookies and goes to /logout on an unauthorised answer', () => {
    const h = harness({ input: { storedUser: stored } });
    h.log.length = 0;
    h.actor.send({ type: 'session.unauthorized' });
    expect(h.value()).toBe('signedOut');
    expect(h.log).toEqual(['clearAllCookies', 'clearUserData', 'navigate:/logout']);
  });
});

describe('user updates', () => {
  it('replace the stored inner user', () => {
    const h = harness({ input: { storedUser: stored } });
    h.actor.send({ type: 'session.userUpdated', user: { ...user, displayName: 'New Name' } });
    expect(h.context().user?.user.displayName).toBe('New Name');
    expect(h.log.at(-1)).toBe('persistUser:session-token');
  });
});

describe('an authenticator reset from the account page', () => {
  it('leads through a new QR setup with the current session, then back where the user was', async () => {
    const h = harness({ input: { storedUser: stored } });
    h.log.length = 0;
    h.actor.send({ type: 'session.twoFactorReset', returnTo: '/account/settings?tab=security' });
    await flush();
    expect(h.value()).toEqual({ twoFactorSetup: 'awaitingCode' });
    expect(isAuthenticated(h.value())).toBe(false);
    expect(h.log).toEqual(['navigate:/qr-setup', 'generateQr:session-token']);
    h.actor.send({ type: 'session.confirmSetup', code: '123456' });
    await flush();
    expect(h.context().recoveryCodes).toEqual(['A', 'B']);
    h.actor.send({ type: 'session.acknowledgeRecoveryCodes' });
    expect(h.value()).toBe('signedIn');
    expect(h.context().user).toEqual({ token: 'new-session', user });
    expect(h.log.slice(2)).toEqual([
      'confirmSetup:session-token:123456',
      'navigate:/account/settings?tab=security',
      'persistUser:new-session',
    ]);
  });

  it('logs the session out when the user leaves the setup', async () => {
    const h = harness({ input: { storedUser: stored } });
    h.actor.send({ type: 'session.twoFactorReset' });
    await flush();
    h.log.length = 0;
    h.actor.send({ type: 'session.cancel' });
    await flush();
    expect(h.value()).toBe('signedOut');
    expect(h.context().user).toBeNull();
    expect(h.log).toEqual([
      'clearUserData',
      'clearTrialDialogFlag',
      'writeLogoutMarker',
      'navigate:/logout',
      'logoutApi:session-token',
    ]);
  });

  it('logs the session out with the reason when the setup cannot start', async () => {
    const h = harness({
      input: { storedUser: stored },
      generateQr: async () => {
        throw new Error('Conflict');
      },
    });
    h.actor.send({ type: 'session.twoFactorReset' });
    await flush();
    expect(h.value()).toBe('signedOut');
    expect(h.log).toContain('showError:qrFailed');
    expect(h.log).toContain('logoutApi:session-token');
  });

  it('is ignored while signed out', () => {
    const h = harness({});
    h.actor.send({ type: 'session.twoFactorReset' });
    expect(h.value()).toBe('signedOut');
    expect(h.log).toEqual([]);
  });
});

describe('return after sign-in', () => {
  it('goes back where the guard sent the user from', async () => {
    const h = harness({});
    h.actor.send({ type: 'session.login', email: user.email, password: 'x', returnTo: '/archive/mailboxes?page=2' });
    await flush();
    h.actor.send({ type: 'session.verify', code: '111111' });
    await flush();
    expect(h.log).toContain('navigate:/archive/mailboxes?page=2');
  });

  it('never returns to another site', () => {
    expect(safeReturnTo('//evil.example/x')).toBeNull();
    expect(safeReturnTo('https://evil.example')).toBeNull();
    expect(safeReturnTo('/\\evil.example')).toBeNull();
    expect(safeReturnTo('/logout')).toBeNull();
    expect(safeReturnTo('/reports')).toBe('/reports');
    expect(safeReturnTo(undefined)).toBeNull();
  });
});

describe('the worker follows the organisation', () => {
  const worker = (tenant: string | null): Worker => ({
    workerId: 'w1',
    workerIp: '10.64.0.2',
    indexIp: '10.65.0.2',
    clientId: 'c1',
    organisationName: 'Contoso',
    abbr: 'contoso',
    stagingtenant_id: tenant,
    cloud_portal_license: 'trial',
  });
  /** Answers one read at a time, when the test says so. */
  function server() {
    const pending: ((value: Worker | null) => void)[] = [];
    return {
      load: () => new Promise<Worker | null>((resolve) => pending.push(resolve)),
      answer: async (value: Worker | null) => {
        pending.shift()?.(value);
        await flush();
      },
      waiting: () => pending.length,
    };
  }

  it('reads the stored worker again at start, and stores what the server says', async () => {
    const h = harness({ input: { storedUser: stored }, loadWorker: async () => worker('t-first') });
    await flush();
    expect(h.value()).toBe('signedIn');
    expect(h.log).toEqual(['loadWorker:admin@contoso.example', 'persistUser:session-token', 'storeWorker:t-first']);
    expect(h.context().workerRefresh).toBe('idle');
  });

  it('reads it again when this tab changed the tenants, once more after a change during the read, and keeps it on a failure', async () => {
    const s = server();
    const h = harness({ input: { storedUser: stored }, loadWorker: s.load });
    await s.answer(worker(null));
    h.log.length = 0;

    h.actor.send({ type: 'session.organisationChanged' });
    expect(h.context().workerRefresh).toBe('running');
    // Two more changes while the first read runs: one read follows it, not two.
    h.actor.send({ type: 'session.organisationChanged' });
    h.actor.send({ type: 'session.organisationChanged' });
    expect(h.context().workerRefresh).toBe('again');
    // Activity re-enters the signed-in state: the read goes on.
    h.actor.send({ type: 'session.activity', at: Date.now() });
    await s.answer(worker('t-first'));
    expect(h.context().workerRefresh).toBe('running');
    await s.answer(worker('t-second'));
    expect(h.context().workerRefresh).toBe('idle');
    expect(s.waiting()).toBe(0);
    expect(h.log.filter((l) => !l.startsWith('persistUser'))).toEqual([
      'loadWorker:admin@contoso.example',
      'storeWorker:t-first',
      'loadWorker:admin@contoso.example',
      'storeWorker:t-second',
    ]);

    // Offline or refused: nothing is stored, the next change reads again.
    h.log.length = 0;
    const failing = harness({
      input: { storedUser: stored },
      loadWorker: async () => {
        throw new Error('offline');
      },
    });
    await flush();
    expect(failing.log).toEqual(['loadWorker:admin@contoso.example', 'persistUser:session-token', 'logWorkerFailure']);
    expect(failing.context().workerRefresh).toBe('idle');
  });

  it('stores nothing read for a session that ended meanwhile, and reads nothing while signed out', async () => {
    const s = server();
    const h = harness({ input: { storedUser: stored }, loadWorker: s.load });
    await s.answer(worker(null));
    h.actor.send({ type: 'session.organisationChanged' });
    h.actor.send({ type: 'session.logout' });
    await s.answer(worker('t-late'));
    expect(h.value()).toBe('signedOut');
    expect(h.log).not.toContain('storeWorker:t-late');
    h.log.length = 0;
    h.actor.send({ type: 'session.organisationChanged' });
    h.actor.send({ type: 'session.workerChanged' });
    await flush();
    expect(h.log).toEqual([]);
    expect(h.context().workerRefresh).toBe('idle');
  });

  it("adopts another tab's worker while signed in, also during the inactivity warning", async () => {
    const h = harness({ input: { storedUser: stored } });
    h.actor.send({ type: 'session.workerChanged' });
    await vi.advanceTimersByTimeAsync(INACTIVITY_WARNING_MS);
    expect(h.value()).toBe('inactivityWarning');
    h.actor.send({ type: 'session.workerChanged' });
    expect(h.log.filter((l) => l === 'adoptWorker')).toHaveLength(2);
  });
});
