/**
 * Runs the session machine in the browser: its actors call the SDK, its actions touch storage,
 * toasts and the router. Listens for the other tabs (logout marker, shared last activity, the worker
 * stored) and for this tab's clicks, touches and key presses.
 */
import type { PortalClient } from '@compliance-portal/sdk';
import type { i18n } from 'i18next';
import { type Actor, createActor, fromPromise } from 'xstate';
import { showToast, toaster } from '../components/ui/toaster';
import { sessionMachine } from './machine';
import {
  clearAllCookies,
  clearTrialDialogFlag,
  clearUserData,
  LAST_ACTIVITY_KEY,
  LOGOUT_MARKER_KEY,
  notifyWorker,
  readLastActivity,
  readStoredUser,
  readWorker,
  storeUser,
  storeWorker,
  WORKER_KEY,
  writeLastActivity,
  writeLogoutMarker,
} from './storage';
import type { StoredWorker } from './types';

export type SessionActor = Actor<typeof sessionMachine>;

const INACTIVITY_TOAST_ID = 'inactivity-warning';
/** Activity is written to the shared clock at most this often. */
export const ACTIVITY_THROTTLE_MS = 5000;

export interface SessionDeps {
  api: PortalClient;
  i18n: i18n;
  navigate: (to: string) => void;
  currentPath: () => string;
  /** Signing out in any way (logout, another tab's logout, an expired session): clear cached data. */
  onSignOut?: () => void;
  /**
   * The stored worker changed, here or in another tab (a tenant added, removed or switched; another
   * client chosen): what was read for the organisation is read again.
   */
  onWorkerChanged?: (worker: StoredWorker) => void;
}

export function createSessionActor(deps: SessionDeps): SessionActor {
  const { api, i18n } = deps;
  const quiet = { disableToast: true } as const;
  const machine = sessionMachine.provide({
    actors: {
      signin: fromPromise(({ input }) => api.legacy.auth.signin({ body: input }, quiet)),
      generateQr: fromPromise(({ input }) =>
        api.legacy.auth.generateQr(undefined, { ...quiet, headers: { Authorization: input.token } }),
      ),
      confirmSetup: fromPromise(({ input }) =>
        api.legacy.auth.qrcodeVerification(
          { body: { code: input.code } },
          { ...quiet, headers: { Authorization: input.token } },
        ),
      ),
      verifyCode: fromPromise(({ input }) =>
        api.legacy.auth.codeVerification(
          { body: input.recoveryCode ? { recoveryCode: input.recoveryCode } : { code: input.code ?? '' } },
          { ...quiet, headers: { Authorization: input.token } },
        ),
      ),
      microsoftComplete: fromPromise(({ input }) => api.legacy.auth.microsoftComplete({ body: input }, quiet)),
      loadWorker: fromPromise(async ({ input, signal }) => {
        const current = readWorker();
        if (!current || !input.user) return null;
        const own = await api.legacy.workers.client(undefined, { ...quiet, signal });
        if (own.clientId === current.clientId) return own.worker;
        // A partner or operator working as a client: that client's worker.
        const clients = await api.legacy.workers.clients(undefined, { ...quiet, signal });
        return clients.find((c) => c.clientId === current.clientId)?.worker ?? null;
      }),
      logoutApi: fromPromise(async ({ input }) => {
        if (input.token)
          await api.legacy.auth.logout({ body: {} }, { ...quiet, headers: { Authorization: input.token } });
      }),
    },
    actions: {
      persistUser: (_, { user }) => storeUser(user),
      clearUserData: () => {
        clearUserData();
        deps.onSignOut?.();
      },
      clearTrialDialogFlag: () => clearTrialDialogFlag(),
      writeLogoutMarker: () => writeLogoutMarker(),
      clearAllCookies: () => clearAllCookies(),
      navigate: (_, { to }) => deps.navigate(to),
      showError: (_, { message }) => {
        toaster.dismiss();
        showToast('error', i18n.t(`auth:${message}`));
      },
      showInactivityWarning: () =>
        showToast('warning', i18n.t('auth:inactivityWarning'), { id: INACTIVITY_TOAST_ID, duration: 30_000 }),
      dismissInactivityWarning: () => toaster.dismiss(INACTIVITY_TOAST_ID),
      logLogoutFailure: (_, { error }) => console.warn('logout call failed', error),
      storeWorker: (_, { worker }) => {
        const stored = storeWorker(worker);
        if (stored) deps.onWorkerChanged?.(stored);
      },
      adoptWorker: () => {
        notifyWorker();
        const worker = readWorker();
        if (worker) deps.onWorkerChanged?.(worker);
      },
      logWorkerFailure: (_, { error }) => console.warn('reading the worker again failed', error),
    },
    guards: {
      notOnSignin: () => !deps.currentPath().startsWith('/signin'),
    },
  });
  return createActor(machine, { input: { storedUser: readStoredUser(), lastActivity: readLastActivity() } });
}

/** Wires the tab to the others and to the user's activity; returns the cleanup. */
export function connectSession(actor: SessionActor, target: Window = window): () => void {
  let lastWritten = 0;
  const onActivity = () => {
    const now = Date.now();
    if (now - lastWritten < ACTIVITY_THROTTLE_MS) return;
    lastWritten = now;
    writeLastActivity(now);
    actor.send({ type: 'session.activity', at: now });
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === LOGOUT_MARKER_KEY && event.newValue) actor.send({ type: 'session.externalLogout' });
    // Another tab stored a new worker; a removed one is the logout's, which the marker brings.
    if (event.key === WORKER_KEY && event.newValue) actor.send({ type: 'session.workerChanged' });
    if (event.key === LAST_ACTIVITY_KEY && event.newValue) {
      const at = Number(event.newValue);
      if (Number.isFinite(at)) actor.send({ type: 'session.activity', at });
    }
  };
  const activityEvents = ['click', 'touchstart', 'keydown'] as const;
  for (const name of activityEvents) target.addEventListener(name, onActivity, { passive: true, capture: true });
  target.addEventListener('storage', onStorage);
  return () => {
    for (const name of activityEvents) target.removeEventListener(name, onActivity, { capture: true });
    target.removeEventListener('storage', onStorage);
  };
}
