/**
 * How a failed call is answered (section 8): every error first dismisses all toasts; a network error
 * shows the network warning whatever the request asked, but for a failed logout, which is only
 * logged (the user is signed out here all the same); a 404 shows the "no tenant" warning and any
 * other 4xx (and 5xx) an error toast with the translated message, unless the request turned toasts
 * off (it shows its failure itself). A 401 on a non-legacy call is handled by the session (cookies
 * cleared, /logout) and shows nothing here.
 */
import {
  ApiError,
  type EndpointId,
  type ErrorMessageKey,
  errorMessageKey,
  NetworkError,
  PortalError,
  type SdkError,
} from '@compliance-portal/sdk';

/** The `apiErrors` namespace's text of a key, in the language shown. */
export type ApiErrorText = (key: `apiErrors:${ErrorMessageKey}`) => string;

export interface ErrorToasts {
  dismissAll(): void;
  show(kind: 'error' | 'warning', message: string): void;
}

export interface ErrorTexts {
  noTenant: string;
  network: string;
}

/** Apollo's sign-in: a 401 there refuses the credentials; it does not end a session. */
const APOLLO_LOGIN: EndpointId = 'apollo.auth.login';
/** The sign-out: the one call whose network failure stays quiet. */
const LOGOUT: EndpointId = 'legacy.auth.logout';

export function handleApiError(error: SdkError, toasts: ErrorToasts, texts: ErrorTexts, t: ApiErrorText) {
  toasts.dismissAll();
  if (error instanceof NetworkError) {
    if (error.endpoint !== LOGOUT) toasts.show('warning', texts.network);
    return;
  }
  if (error.disableToast) return;
  if (error instanceof ApiError) {
    if (error.status === 404) {
      toasts.show('warning', texts.noTenant);
      return;
    }
    if (error.status === 401 && error.api !== 'legacy') return;
  }
  toasts.show('error', t(`apiErrors:${error instanceof PortalError ? error.messageKey : errorMessageKey(error)}`));
}

/**
 * A 401 on apollo's /login: the SDK tells the session nothing (no redirect to /logout while signing
 * in), but the cookies are cleared all the same (section 8).
 */
export function isUnauthorizedLogin(error: SdkError): boolean {
  return error instanceof ApiError && error.status === 401 && error.endpoint === APOLLO_LOGIN;
}

/** A call answered 404: a call that names what was not found shows its own text instead of "no tenant". */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The catalogue key of an SDK error's message (`apiErrors:<key>`), or `fallback` for anything else. */
export function messageKeyOf(error: unknown, fallback: ErrorMessageKey = 'unknown'): ErrorMessageKey {
  return (error as { messageKey?: ErrorMessageKey } | null | undefined)?.messageKey ?? fallback;
}

/**
 * The text of a failed action (a request without toasts): the action's own catalogue text, then why,
 * in the catalogue's words; `notFound` replaces the reason of a 404 when the call has a text of its own.
 */
export function failureText(t: ApiErrorText, action: string, error: unknown, notFound?: string): string {
  const reason =
    notFound && isNotFound(error) ? notFound : error instanceof PortalError ? t(`apiErrors:${error.messageKey}`) : null;
  return reason ? `${action} ${reason}` : action;
}
