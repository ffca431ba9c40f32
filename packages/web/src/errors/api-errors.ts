/**
 * Product-spec.md section 8, response handling: every error first dismisses all toasts; a 404 shows
 * the "no tenant" warning, a network error the network warning, any other 4xx (and 5xx) an error toast
 * with the translated message, unless the request turned toasts off. A 401 on a non-legacy call is
 * handled by the session (cookies cleared, /logout) and shows nothing here.
 */
import { ApiError, errorMessage, type Language, NetworkError, type SdkError } from '@compliance-portal/sdk';

export interface ErrorToasts {
  dismissAll(): void;
  show(kind: 'error' | 'warning', message: string): void;
}

export interface ErrorTexts {
  noTenant: string;
  network: string;
}

export function isLegacyUrl(url: string): boolean {
  try {
    return new URL(url, 'http://x').pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

export function handleApiError(error: SdkError, toasts: ErrorToasts, texts: ErrorTexts, lang: Language) {
  toasts.dismissAll();
  if (error instanceof NetworkError) {
    toasts.show('warning', texts.network);
    return;
  }
  if (error.disableToast) return;
  if (error instanceof ApiError) {
    if (error.status === 404) {
      toasts.show('warning', texts.noTenant);
      return;
    }
    if (error.status === 401 && !isLegacyUrl(error.url)) return;
  }
  toasts.show('error', errorMessage(error, lang).message);
}
