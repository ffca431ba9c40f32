/**
 * The changes of the organisation's sign-in settings: saving them (the answer replaces the settings
 * read, so the page shows where the tenant stands at once), and a sign-in with Microsoft started from
 * the settings page, which comes back to it; signing out one or every other session of the account,
 * after which the sessions and the sign-in activity are read again; a test mail of the notification
 * settings, which changes nothing read.
 */
import type { PortalClient, SignInSettingsChange } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { rememberMicrosoftReturn } from '../../../session/storage';
import { accountKeys } from './keys';

/** The errors here are shown in the page, in its own words: no toast. */
const quiet = { disableToast: true } as const;

/** Where a sign-in with Microsoft begun on the settings page comes back to. */
const SETTINGS_PAGE = '/account/settings?tab=security';

export function useSaveSignInSettings(api: PortalClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SignInSettingsChange) => api.legacy.auth.updateSignInSettings({ body }, quiet),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.signInSettings(), saved),
  });
}

/**
 * Signs the member in with Microsoft again, at the organisation's tenant (bound or pending): to prove
 * a pending tenant, or to confirm a change without an authenticator. The browser leaves for the
 * identity platform and comes back to the settings page with the new session.
 */
export function useSignInWithMicrosoftAgain(api: PortalClient) {
  return useMutation({
    mutationFn: (email: string) => api.legacy.auth.microsoftStart({ body: { email } }, quiet),
    onSuccess: ({ authorizationUrl }) => {
      rememberMicrosoftReturn(SETTINGS_PAGE);
      window.location.assign(authorizationUrl);
    },
  });
}

/** Signs out one of the account's other sessions. */
export function useRevokeSession(api: PortalClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => api.legacy.sessions.revoke({ sessionId }, quiet),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

/** Signs out every session of the account but the calling one. */
export function useRevokeOtherSessions(api: PortalClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.legacy.auth.revokeOtherSessions({ body: {} }, quiet),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

/**
 * Sends the account a test mail to its saved notification address, in its saved mail language. It
 * changes nothing read, so nothing is invalidated; a mail the server cannot send is refused
 * (`mailNotSent`) and shown as every refusal is, in the language shown.
 */
export function useSendTestNotification(api: PortalClient) {
  return useMutation({
    mutationFn: () => api.legacy.user.testNotification({ body: {} }),
  });
}
