/**
 * The session: signed out, signing in, 2FA setup, 2FA verification,
 * signed in, inactivity warning, logging out. Its I/O comes in as actors and its side effects
 * (storage, toasts, navigation) as actions, both given with `.provide()`; the defaults here throw so
 * that a missing implementation is loud.
 *
 * The stored worker follows the organisation: at start with a stored user, and whenever this tab
 * changed the organisation's tenants (`session.organisationChanged`), the worker is read again from
 * the server and stored; the other tabs hear of it through their cross-tab channel
 * (`session.workerChanged`). One read runs at a time; a change during it reads once more after it.
 */
import {
  ApiError,
  type CodeVerificationResponse,
  type ErrorMessageKey,
  type GenerateQrResponse,
  NetworkError,
  type QrVerificationResponse,
  type SessionResponse,
  type SessionUser,
  type SigninResponse,
  type Worker,
} from '@compliance-portal/sdk';
import { and, assign, fromPromise, or, raise, setup, spawnChild, stateIn, stopChild } from 'xstate';
import { messageKeyOf } from '../errors/api-errors';
import { INACTIVITY_LOGOUT_MS, INACTIVITY_WARNING_MS, type StoredUser } from './types';

/** i18n keys of the messages the machine shows (namespace `auth`). */
export type SessionMessage =
  | 'loginFailed'
  | 'invalidVerificationCode'
  | 'verificationFailed'
  | 'invalidCredentials'
  | 'accountLocked'
  | 'accountDeactivated'
  | 'qrFailed'
  | 'userDoesNotExist'
  | 'emailNotConfirmed'
  | 'passwordSignInOff'
  | 'network';

export interface SessionContext {
  user: StoredUser | null;
  /** The sign-in token between password and second factor, or the session token during a re-setup. */
  pendingToken: string | null;
  pendingUser: SessionUser | null;
  qr: GenerateQrResponse | null;
  recoveryCodes: string[] | null;
  error: SessionMessage | null;
  /** When the user was last active, in any tab (ms since epoch). */
  lastActivity: number;
  /** Where a guard sent the user from, to return there after sign-in. */
  returnTo: string | null;
  /** Why the last sign-in with Microsoft was refused: the error catalogue's key of its code. */
  microsoftFailure: ErrorMessageKey | null;
  /** The worker's read from the server: none, one running, or one running and another asked for. */
  workerRefresh: 'idle' | 'running' | 'again';
}

export type SessionEvent =
  | { type: 'session.login'; email: string; password: string; returnTo?: string }
  /** Back from the identity platform with a code: redeem it (the server checks the ID token). */
  | { type: 'session.completeMicrosoft'; code: string; state: string; returnTo?: string }
  | { type: 'session.confirmSetup'; code: string }
  | { type: 'session.acknowledgeRecoveryCodes' }
  | { type: 'session.verify'; code: string }
  | { type: 'session.verifyRecovery'; recoveryCode: string }
  | { type: 'session.cancel' }
  | { type: 'session.logout' }
  | { type: 'session.activity'; at: number }
  | { type: 'session.externalLogout' }
  | { type: 'session.unauthorized' }
  | { type: 'session.userUpdated'; user: SessionUser }
  /** The authenticator was reset from the account page: set a new one up with the current session. */
  | { type: 'session.twoFactorReset'; returnTo?: string }
  /** This tab added, changed, removed or switched a tenant: read the worker again and store it. */
  | { type: 'session.organisationChanged' }
  /** Another tab stored a new worker (the cross-tab channel): show it here too. */
  | { type: 'session.workerChanged' }
  /** Internal: a read of the worker ended. */
  | { type: 'session.workerRead' }
  /** The worker's read (the `workerRefresh` child) answered, or failed. */
  | { type: 'xstate.done.actor.workerRefresh'; output: Worker | null }
  | { type: 'xstate.error.actor.workerRefresh'; error: unknown };

export interface SessionInput {
  /** The stored user found at start, if any. */
  storedUser: StoredUser | null;
  /** The last activity shared between tabs, if any. */
  lastActivity?: number;
  now?: number;
}

const notImplemented = (name: string) => () => {
  throw new Error(`session machine: ${name} was not provided`);
};

/** Only a path of this site: never another origin (`//host`) or a scheme, so sign-in cannot redirect away. */
export function safeReturnTo(value: string | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith('/signin') || value.startsWith('/logout')) return null;
  return value;
}

/**
 * Maps a failed call to the machine's message by the refusal's code (never its wording), else the
 * fallback; a 404 is the user that does not exist (section 8), and a call that reached no server says
 * so (the network warning shows beside it).
 */
function failureMessage(error: unknown, fallback: SessionMessage): SessionMessage {
  if (error instanceof NetworkError) return 'network';
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'passwordSignInOff') return 'passwordSignInOff';
  if (code === 'invalidCredentials') return 'invalidCredentials';
  if (code === 'accountLocked') return 'accountLocked';
  if (code === 'emailNotConfirmed') return 'emailNotConfirmed';
  if (code === 'accountDeactivated') return 'accountDeactivated';
  if (code === 'loginVerificationFailed') return 'verificationFailed';
  if (code === 'userDoesNotExist' || (error instanceof ApiError && error.status === 404)) return 'userDoesNotExist';
  return fallback;
}

/** Signed in, with or without the inactivity warning: the worker is the session's to follow. */
const signedInNow = or([stateIn('signedIn'), stateIn('inactivityWarning')]);

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    children: {} as { workerRefresh: 'loadWorker' },
  },
  actors: {
    signin: fromPromise<SigninResponse, { email: string; password: string }>(notImplemented('signin')),
    generateQr: fromPromise<GenerateQrResponse, { token: string }>(notImplemented('generateQr')),
    confirmSetup: fromPromise<QrVerificationResponse, { token: string; code: string }>(notImplemented('confirmSetup')),
    verifyCode: fromPromise<CodeVerificationResponse, { token: string; code?: string; recoveryCode?: string }>(
      notImplemented('verifyCode'),
    ),
    logoutApi: fromPromise<void, { token: string }>(notImplemented('logoutApi')),
    microsoftComplete: fromPromise<SessionResponse, { code: string; state: string }>(
      notImplemented('microsoftComplete'),
    ),
    /** The stored worker as the server has it now; null when no worker is stored (or it is gone). */
    loadWorker: fromPromise<Worker | null, { user: SessionUser | null }>(notImplemented('loadWorker')),
  },
  actions: {
    /** Writes the `user` cookie and local storage. */
    persistUser: (_, _params: { user: StoredUser }) => notImplemented('persistUser')(),
    /** Removes the worker and user data (cookies and local storage). */
    clearUserData: notImplemented('clearUserData'),
    clearTrialDialogFlag: notImplemented('clearTrialDialogFlag'),
    writeLogoutMarker: notImplemented('writeLogoutMarker'),
    clearAllCookies: notImplemented('clearAllCookies'),
    navigate: (_, _params: { to: string }) => notImplemented('navigate')(),
    /** A toast for a failure no page shows in place: a failed sign-in or code is said once, in its form. */
    showError: (_, _params: { message: SessionMessage }) => notImplemented('showError')(),
    showInactivityWarning: notImplemented('showInactivityWarning'),
    dismissInactivityWarning: notImplemented('dismissInactivityWarning'),
    logLogoutFailure: (_, _params: { error: unknown }) => notImplemented('logLogoutFailure')(),
    /** Writes the worker cookie and its copy, and tells this tab's screens (the other tabs hear the storage). */
    storeWorker: (_, _params: { worker: Worker }) => notImplemented('storeWorker')(),
    /** Another tab stored a new worker: this tab's screens read it again. */
    adoptWorker: notImplemented('adoptWorker'),
    logWorkerFailure: (_, _params: { error: unknown }) => notImplemented('logWorkerFailure')(),
    recordActivity: assign({ lastActivity: (_, params: { at: number }) => params.at }),
    clearError: assign({ error: null }),
    resetContext: assign({
      returnTo: null,
      user: null,
      pendingToken: null,
      pendingUser: null,
      qr: null,
      recoveryCodes: null,
      workerRefresh: 'idle',
    }),
    stopWorkerRefresh: stopChild('workerRefresh'),
  },
  guards: {
    hasStoredUser: ({ context }) => context.user !== null,
    /** No read of the worker runs. */
    workerRefreshIdle: ({ context }) => context.workerRefresh === 'idle',
    /** A read ended while signed in, and the organisation changed again during it. */
    workerChangedMeanwhile: ({ context }) => context.user !== null && context.workerRefresh === 'again',
    /** A tab on the sign-in page stays where it is when another tab logs out. */
    notOnSignin: notImplemented('notOnSignin'),
  },
  delays: {
    untilWarning: ({ context }) => Math.max(0, context.lastActivity + INACTIVITY_WARNING_MS - Date.now()),
    untilLogout: ({ context }) => Math.max(0, context.lastActivity + INACTIVITY_LOGOUT_MS - Date.now()),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    user: input.storedUser,
    pendingToken: null,
    pendingUser: null,
    qr: null,
    recoveryCodes: null,
    error: null,
    // Opening the portal is itself activity.
    lastActivity: Math.max(input.lastActivity ?? 0, input.now ?? Date.now()),
    returnTo: null,
    microsoftFailure: null,
    workerRefresh: 'idle',
  }),
  initial: 'starting',
  on: {
    'session.externalLogout': {
      guard: 'notOnSignin',
      target: '.signedOut',
      actions: ['stopWorkerRefresh', 'clearUserData', 'resetContext', { type: 'navigate', params: { to: '/logout' } }],
    },
    'session.unauthorized': {
      target: '.signedOut',
      actions: [
        'stopWorkerRefresh',
        'clearAllCookies',
        'clearUserData',
        'resetContext',
        { type: 'navigate', params: { to: '/logout' } },
      ],
    },
    'session.organisationChanged': [
      {
        guard: and([signedInNow, 'workerRefreshIdle']),
        actions: [
          assign({ workerRefresh: 'running' }),
          spawnChild('loadWorker', {
            id: 'workerRefresh',
            input: ({ context }) => ({ user: context.user?.user ?? null }),
          }),
        ],
      },
      { guard: signedInNow, actions: assign({ workerRefresh: 'again' }) },
    ],
    'session.workerChanged': { guard: signedInNow, actions: 'adoptWorker' },
    'xstate.done.actor.workerRefresh': [
      {
        // Signed out meanwhile: what was read is nobody's now.
        guard: ({ context, event }) => context.user !== null && event.output !== null,
        actions: [
          { type: 'storeWorker', params: ({ event }) => ({ worker: event.output as Worker }) },
          raise({ type: 'session.workerRead' }),
        ],
      },
      { actions: raise({ type: 'session.workerRead' }) },
    ],
    'xstate.error.actor.workerRefresh': {
      // Offline or refused: the stored worker stays as it was.
      actions: [
        { type: 'logWorkerFailure', params: ({ event }) => ({ error: event.error }) },
        raise({ type: 'session.workerRead' }),
      ],
    },
    /** A read ended: another follows when the organisation changed during it. */
    'session.workerRead': [
      {
        guard: 'workerChangedMeanwhile',
        actions: [
          assign({ workerRefresh: 'running' }),
          spawnChild('loadWorker', {
            id: 'workerRefresh',
            input: ({ context }) => ({ user: context.user?.user ?? null }),
          }),
        ],
      },
      { actions: assign({ workerRefresh: 'idle' }) },
    ],
  },
  states: {
    starting: {
      always: [
        {
          guard: 'hasStoredUser',
          target: 'signedIn',
          // A worker stored in an earlier visit may be older than the organisation: read it again.
          actions: [
            assign({ workerRefresh: 'running' }),
            spawnChild('loadWorker', {
              id: 'workerRefresh',
              input: ({ context }) => ({ user: context.user?.user ?? null }),
            }),
          ],
        },
        { target: 'signedOut' },
      ],
    },

    signedOut: {
      on: {
        'session.login': {
          target: 'signingIn',
          actions: ['clearError', assign({ returnTo: ({ event }) => safeReturnTo(event.returnTo) })],
        },
        'session.completeMicrosoft': {
          target: 'completingMicrosoft',
          actions: [
            'clearError',
            assign({ microsoftFailure: null, returnTo: ({ event }) => safeReturnTo(event.returnTo) }),
          ],
        },
      },
    },

    /** The identity platform vouched for the user; the server redeems its code and answers the session. */
    completingMicrosoft: {
      invoke: {
        src: 'microsoftComplete',
        input: ({ event }) => {
          const e = event as Extract<SessionEvent, { type: 'session.completeMicrosoft' }>;
          return { code: e.code, state: e.state };
        },
        onDone: {
          target: 'signedIn',
          actions: [
            assign({ user: ({ event }) => ({ token: event.output.token, user: event.output.user }) }),
            { type: 'navigate', params: ({ context }) => ({ to: context.returnTo ?? '/' }) },
          ],
        },
        onError: [
          {
            // Signed in before: the session it had stays.
            guard: 'hasStoredUser',
            target: 'signedIn',
            actions: assign({ microsoftFailure: ({ event }) => messageKeyOf(event.error), returnTo: null }),
          },
          {
            target: 'signedOut',
            // The page shows why (the refusal's own message); no toast on top of it.
            actions: assign({
              microsoftFailure: ({ event }) => messageKeyOf(event.error),
              returnTo: null,
            }),
          },
        ],
      },
    },

    signingIn: {
      invoke: {
        src: 'signin',
        input: ({ event }) => {
          const e = event as Extract<SessionEvent, { type: 'session.login' }>;
          return { email: e.email, password: e.password };
        },
        onDone: [
          {
            guard: ({ event }) => event.output.twoFactor === 'setup',
            target: 'twoFactorSetup',
            actions: [
              assign({
                pendingToken: ({ event }) => event.output.token,
                pendingUser: ({ event }) => event.output.user,
              }),
              { type: 'navigate', params: { to: '/qr-setup' } },
            ],
          },
          {
            target: 'twoFactorVerification',
            actions: [
              assign({
                pendingToken: ({ event }) => event.output.token,
                pendingUser: ({ event }) => event.output.user,
              }),
              { type: 'navigate', params: { to: '/code-verification' } },
            ],
          },
        ],
        onError: {
          target: 'signedOut',
          actions: [assign({ error: ({ event }) => failureMessage(event.error, 'loginFailed') })],
        },
      },
    },

    twoFactorSetup: {
      initial: 'loadingQr',
      on: {
        'session.cancel': [
          // A setup with a session (after a recovery code or an authenticator reset): end it properly.
          { guard: 'hasStoredUser', target: 'loggingOut' },
          {
            target: 'signedOut',
            actions: ['resetContext', { type: 'navigate', params: { to: '/signin' } }],
          },
        ],
      },
      states: {
        loadingQr: {
          invoke: {
            src: 'generateQr',
            input: ({ context }) => ({ token: context.pendingToken ?? '' }),
            onDone: { target: 'awaitingCode', actions: assign({ qr: ({ event }) => event.output }) },
            onError: [
              {
                guard: 'hasStoredUser',
                target: '#session.loggingOut',
                actions: [assign({ error: 'qrFailed' }), { type: 'showError', params: { message: 'qrFailed' } }],
              },
              {
                target: '#session.signedOut',
                actions: [
                  'resetContext',
                  assign({ error: 'qrFailed' }),
                  { type: 'navigate', params: { to: '/signin' } },
                ],
              },
            ],
          },
        },
        awaitingCode: {
          on: { 'session.confirmSetup': { target: 'confirming', actions: 'clearError' } },
        },
        confirming: {
          invoke: {
            src: 'confirmSetup',
            input: ({ context, event }) => ({
              token: context.pendingToken ?? '',
              code: (event as Extract<SessionEvent, { type: 'session.confirmSetup' }>).code,
            }),
            onDone: {
              target: 'showingRecoveryCodes',
              actions: assign({
                user: ({ event }) => ({ token: event.output.token, user: event.output.user }),
                recoveryCodes: ({ event }) => event.output.recoveryCodes,
              }),
            },
            onError: {
              target: 'awaitingCode',
              actions: [assign({ error: 'invalidVerificationCode' })],
            },
          },
        },
        /** The codes are shown once; the user copies or downloads them, then goes on. */
        showingRecoveryCodes: {
          on: {
            'session.acknowledgeRecoveryCodes': {
              target: '#session.signedIn',
              actions: [
                assign({ recoveryCodes: null, qr: null, pendingToken: null, pendingUser: null }),
                { type: 'navigate', params: ({ context }) => ({ to: context.returnTo ?? '/' }) },
              ],
            },
          },
        },
      },
    },

    twoFactorVerification: {
      initial: 'awaitingCode',
      on: {
        'session.cancel': {
          target: 'signedOut',
          actions: ['resetContext', { type: 'navigate', params: { to: '/signin' } }],
        },
      },
      states: {
        awaitingCode: {
          on: {
            'session.verify': { target: 'verifying', actions: 'clearError' },
            'session.verifyRecovery': { target: 'verifying', actions: 'clearError' },
          },
        },
        verifying: {
          invoke: {
            src: 'verifyCode',
            input: ({ context, event }) => ({
              token: context.pendingToken ?? '',
              ...(event.type === 'session.verifyRecovery' ? { recoveryCode: event.recoveryCode } : {}),
              ...(event.type === 'session.verify' ? { code: event.code } : {}),
            }),
            onDone: [
              {
                // A recovery code signed in and reset 2FA: set it up again with the new session.
                guard: ({ event }) => event.output.requiresTwoFactorSetup,
                target: '#session.twoFactorSetup',
                actions: [
                  assign({
                    user: ({ event }) => ({ token: event.output.token, user: event.output.user }),
                    pendingToken: ({ event }) => event.output.token,
                  }),
                  {
                    type: 'persistUser',
                    params: ({ event }) => ({ user: { token: event.output.token, user: event.output.user } }),
                  },
                  { type: 'navigate', params: { to: '/qr-setup' } },
                ],
              },
              {
                target: '#session.signedIn',
                actions: [
                  assign({
                    user: ({ event }) => ({ token: event.output.token, user: event.output.user }),
                    pendingToken: null,
                    pendingUser: null,
                  }),
                  { type: 'navigate', params: ({ context }) => ({ to: context.returnTo ?? '/' }) },
                ],
              },
            ],
            onError: {
              target: 'awaitingCode',
              actions: [assign({ error: ({ event }) => failureMessage(event.error, 'verificationFailed') })],
            },
          },
        },
      },
    },

    signedIn: {
      entry: [
        { type: 'persistUser', params: ({ context }) => ({ user: context.user as StoredUser }) },
        // Entering after sign-in starts the clock now; re-entering on activity keeps the event's time.
        assign({
          lastActivity: ({ context, event }) => (event.type === 'session.activity' ? context.lastActivity : Date.now()),
        }),
      ],
      after: { untilWarning: 'inactivityWarning' },
      on: {
        'session.activity': {
          target: 'signedIn',
          reenter: true,
          actions: { type: 'recordActivity', params: ({ event }) => ({ at: event.at }) },
        },
        'session.logout': 'loggingOut',
        'session.twoFactorReset': {
          target: 'twoFactorSetup',
          actions: [
            assign({
              pendingToken: ({ context }) => context.user?.token ?? null,
              pendingUser: ({ context }) => context.user?.user ?? null,
              returnTo: ({ event }) => safeReturnTo(event.returnTo),
            }),
            { type: 'navigate', params: { to: '/qr-setup' } },
          ],
        },
        /**
         * Back from the identity platform while signed in: a member confirmed the organisation's Entra
         * tenant (or the person behind the session) by signing in with Microsoft; its session replaces this one.
         */
        'session.completeMicrosoft': {
          target: 'completingMicrosoft',
          actions: assign({ microsoftFailure: null, returnTo: ({ event }) => safeReturnTo(event.returnTo) }),
        },
        'session.userUpdated': {
          actions: [
            assign({ user: ({ context, event }) => (context.user ? { ...context.user, user: event.user } : null) }),
            {
              type: 'persistUser',
              params: ({ context, event }) => ({ user: { token: context.user?.token ?? '', user: event.user } }),
            },
          ],
        },
      },
    },

    inactivityWarning: {
      entry: 'showInactivityWarning',
      exit: 'dismissInactivityWarning',
      after: { untilLogout: 'loggingOut' },
      on: {
        'session.activity': {
          target: 'signedIn',
          actions: { type: 'recordActivity', params: ({ event }) => ({ at: event.at }) },
        },
        'session.logout': 'loggingOut',
      },
    },

    /** Section 4, in this order: clear worker and user data, the trial flag, mark other tabs, go to /logout. */
    loggingOut: {
      entry: [
        'stopWorkerRefresh',
        'clearUserData',
        'clearTrialDialogFlag',
        'writeLogoutMarker',
        { type: 'navigate', params: { to: '/logout' } },
      ],
      invoke: {
        src: 'logoutApi',
        input: ({ context }) => ({ token: context.user?.token ?? '' }),
        onDone: { target: 'signedOut', actions: 'resetContext' },
        onError: {
          target: 'signedOut',
          actions: ['resetContext', { type: 'logLogoutFailure', params: ({ event }) => ({ error: event.error }) }],
        },
      },
    },
  },
});

/** Authenticated means signed in, with or without the inactivity warning. */
export function isAuthenticated(value: unknown): boolean {
  return value === 'signedIn' || value === 'inactivityWarning';
}
