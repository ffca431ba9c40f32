/**
 * Where the session lives in the browser: the signed-in user in the
 * `user` cookie and in local storage under `user`, the customer worker in the `worker` cookie, cookies
 * on path /. Local storage also carries the cross-tab logout marker and the shared last activity.
 */
import type { Worker } from '@compliance-portal/sdk';
import type { StoredUser, StoredWorker } from './types';

const USER_KEY = 'user';
const WORKER_COOKIE = 'worker';
/** The worker's copy in local storage: other tabs hear it change (the storage event). */
export const WORKER_KEY = WORKER_COOKIE;
export const LOGOUT_MARKER_KEY = 'logout';
export const LAST_ACTIVITY_KEY = 'lastActivity';
const TRIAL_DIALOG_SEEN_KEY = 'trialDialogSeen';

function cookieAttributes(): string {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  return `; path=/; SameSite=Strict${secure}`;
}

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function writeCookie(name: string, value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps `user` and `worker` in cookies; Cookie Store API is not in every supported browser.
  document.cookie = `${name}=${encodeURIComponent(value)}${cookieAttributes()}`;
}

function deleteCookie(name: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: see writeCookie.
  document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT${cookieAttributes()}`;
}

export function clearAllCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) deleteCookie(name);
  }
}

function parse<T>(text: string | null | undefined): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function isStoredUser(value: unknown): value is StoredUser {
  const v = value as StoredUser | null;
  return typeof v?.token === 'string' && v.token.length > 0 && typeof v.user?.email === 'string';
}

/** The stored user: local storage first, the cookie as a fallback; null when neither holds a token. */
export function readStoredUser(): StoredUser | null {
  const fromStorage = parse<StoredUser>(localStorage.getItem(USER_KEY));
  if (isStoredUser(fromStorage)) return fromStorage;
  const fromCookie = parse<StoredUser>(readCookie(USER_KEY));
  return isStoredUser(fromCookie) ? fromCookie : null;
}

export function storeUser(user: StoredUser) {
  const text = JSON.stringify(user);
  localStorage.setItem(USER_KEY, text);
  writeCookie(USER_KEY, text);
}

/** The worker cookie form: tenant_id from stagingtenant_id, the licence lower-cased, the tenant's domain when known. */
export function toStoredWorker(worker: Worker): StoredWorker {
  return {
    workerId: worker.workerId,
    workerIp: worker.workerIp,
    indexIp: worker.indexIp,
    clientId: worker.clientId,
    organisationName: worker.organisationName,
    abbr: worker.abbr,
    stagingtenant_id: worker.stagingtenant_id,
    tenant_id: worker.stagingtenant_id,
    cloud_portal_license: worker.cloud_portal_license.toLowerCase(),
    ...(worker.tenantDomain ? { tenantDomain: worker.tenantDomain } : {}),
  };
}

/**
 * The worker cookie lives as long as the browser; local storage keeps a copy so that the portal
 * reopened offline after a browser restart still knows whom the saved data belongs to.
 */
export function readWorker(): StoredWorker | null {
  const text = storedWorkerText();
  const worker = parse<StoredWorker>(text);
  return worker && typeof worker.workerIp === 'string' ? worker : null;
}

const workerListeners = new Set<() => void>();

/** Tells the screens showing the worker that it changed (chosen client, tenant, logout). */
export function subscribeWorker(listener: () => void): () => void {
  workerListeners.add(listener);
  return () => workerListeners.delete(listener);
}

/**
 * The stored worker as written: a stable snapshot for useSyncExternalStore. Local storage first: it is
 * what another tab's storage event tells of, and it holds the new value when the event arrives,
 * whereas the shared cookie can reach this tab's document a moment later (a tab that read the cookie
 * then kept the organisation's old worker, without a tenant, until a reload). The cookie answers when
 * local storage has none.
 */
export function storedWorkerText(): string | null {
  return localStorage.getItem(WORKER_COOKIE) ?? readCookie(WORKER_COOKIE) ?? null;
}

/** Tells this tab's screens to read the worker again (another tab stored it). */
export function notifyWorker() {
  for (const listener of workerListeners) listener();
}

/**
 * Stores the worker (cookie and local storage, so other tabs hear of it) and tells this tab's
 * screens; answers what was stored, or null when it was stored already as it is.
 */
export function storeWorker(worker: Worker): StoredWorker | null {
  const stored = toStoredWorker(worker);
  const text = JSON.stringify(stored);
  if (text === storedWorkerText() && text === localStorage.getItem(WORKER_COOKIE)) return null;
  writeCookie(WORKER_COOKIE, text);
  localStorage.setItem(WORKER_COOKIE, text);
  notifyWorker();
  return stored;
}

/** Section 4: logout clears the worker and the user data. */
export function clearUserData() {
  deleteCookie(WORKER_COOKIE);
  localStorage.removeItem(WORKER_COOKIE);
  deleteCookie(USER_KEY);
  localStorage.removeItem(USER_KEY);
  notifyWorker();
}

export function clearTrialDialogFlag() {
  localStorage.removeItem(TRIAL_DIALOG_SEEN_KEY);
}

/** The organisations (their workers) whose trial dialog this session has shown. */
function trialDialogsSeen(): string[] {
  try {
    const seen: unknown = JSON.parse(localStorage.getItem(TRIAL_DIALOG_SEEN_KEY) ?? '[]');
    return Array.isArray(seen) ? seen.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The trial dialog was shown for this organisation since the last sign-in (logout clears it). */
export function trialDialogSeen(workerId: string): boolean {
  return trialDialogsSeen().includes(workerId);
}

export function markTrialDialogSeen(workerId: string) {
  const seen = trialDialogsSeen();
  if (!seen.includes(workerId)) localStorage.setItem(TRIAL_DIALOG_SEEN_KEY, JSON.stringify([...seen, workerId]));
}

/** Other tabs see this key change (the storage event) and log out too. */
export function writeLogoutMarker(now = Date.now()) {
  localStorage.setItem(LOGOUT_MARKER_KEY, String(now));
}

export function readLastActivity(): number | undefined {
  const value = Number(localStorage.getItem(LAST_ACTIVITY_KEY));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export function writeLastActivity(at: number) {
  localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
}

/** Where the user was going when a sign-in with Microsoft began, kept in this tab while the identity platform has it. */
const MICROSOFT_RETURN_KEY = 'portal.microsoftReturnTo';

/** Keeps (or forgets, without a path) where to come back to after the identity platform. */
export function rememberMicrosoftReturn(path: string | undefined) {
  if (path) sessionStorage.setItem(MICROSOFT_RETURN_KEY, path);
  else sessionStorage.removeItem(MICROSOFT_RETURN_KEY);
}

/** Where to go back to after the identity platform, read once. */
export function takeMicrosoftReturn(): string | undefined {
  const path = sessionStorage.getItem(MICROSOFT_RETURN_KEY) ?? undefined;
  sessionStorage.removeItem(MICROSOFT_RETURN_KEY);
  return path;
}
