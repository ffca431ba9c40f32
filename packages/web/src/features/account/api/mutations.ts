/**
 * The changes of the signed-in user's account, each with what it touches read again: the address, the
 * password, the authenticator and its recovery codes (the answer replaces what was read); the
 * organisation's sign-in settings (likewise), and a sign-in with Microsoft started from the settings
 * page, which comes back to it; signing out one or every other session of the account, after which
 * the sessions and the sign-in activity are read again; the notification settings and their test
 * mail (which changes nothing read); a support request. Every change but the mails' is audited, a
 * refused attempt too, so the organisation's audit log is read again once it settled.
 */
import type {
  InfoRequest,
  NotificationSettings,
  PortalClient,
  SignInSettingsChange,
  SupportRequest,
  SupportRequestCreate,
  TwoFactorRequest,
} from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { rememberMicrosoftReturn } from '../../../session/storage';
import { useOrganisationRefresh } from '../../../shared/api/organisation';
import { accountKeys } from './keys';

/** The errors here are shown in the page, in its own words: no toast. */
const quiet = { disableToast: true } as const;

/** Where a sign-in with Microsoft begun on the settings page comes back to. */
const SETTINGS_PAGE = '/account/settings?tab=security';

export function useSaveSignInSettings(api: PortalClient) {
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (body: SignInSettingsChange) => api.legacy.auth.updateSignInSettings({ body }, quiet),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.signInSettings(), saved),
    onSettled: organisation.auditLog,
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
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (sessionId: string) => api.legacy.sessions.revoke({ sessionId }, quiet),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: accountKeys.all }), organisation.auditLog()]),
  });
}

/** Signs out every session of the account but the calling one. */
export function useRevokeOtherSessions(api: PortalClient) {
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: () => api.legacy.auth.revokeOtherSessions({ body: {} }, quiet),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
    onSettled: organisation.auditLog,
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

/** Saves the notification settings; the answer replaces the settings read. */
export function useSaveNotifications(api: PortalClient, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettings) => api.legacy.user.updateNotifications({ body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(accountKeys.notifications(), saved);
      onSaved();
    },
  });
}

/** What a change of the account asks again: the current password and, while 2FA is on, a code. */
type Reauthentication = Pick<TwoFactorRequest, 'oldPassword' | 'twoFactorCode' | 'twoFactorRecoveryCode'>;

/** Changes the password with the current one; every other session of the account ends. */
export function useChangePassword(api: PortalClient, onChanged: () => void) {
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string }) => api.apollo.auth.updateInfo({ body }, quiet),
    onSuccess: (answer) => {
      queryClient.setQueryData(accountKeys.info(), answer);
      // Every other session ended: the activity's count of them is out of date.
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      onChanged();
    },
    onSettled: organisation.auditLog,
  });
}

/**
 * Asks to change the address: the new one gets a confirmation link, and the address read stays the
 * old one until it is followed. A recovery code given instead of a code is used up.
 */
export function useChangeEmail(api: PortalClient, onRequested: () => void) {
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (body: InfoRequest & { newEmail: string }) => api.apollo.auth.updateInfo({ body }, quiet),
    onSuccess: (answer) => {
      queryClient.setQueryData(accountKeys.info(), answer);
      void queryClient.invalidateQueries({ queryKey: accountKeys.twoFactor() });
      onRequested();
    },
    onSettled: organisation.auditLog,
  });
}

/**
 * Resets the authenticator: two-factor sign-in is off until a new one is set up, so everything read
 * of the account goes; `onReset` leads the session through the new setup.
 */
export function useResetAuthenticator(api: PortalClient, onReset: () => void) {
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (reauth: Reauthentication) =>
      api.apollo.auth.twoFactor(
        { body: { resetSharedKey: true, resetRecoveryCodes: false, forgetMachine: false, ...reauth } },
        quiet,
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: accountKeys.all });
      onReset();
    },
    onSettled: organisation.auditLog,
  });
}

/** Makes new recovery codes (the old ones stop working), handed to `onCodes` to be shown once. */
export function useNewRecoveryCodes(api: PortalClient, onCodes: (codes: string[]) => void) {
  const queryClient = useQueryClient();
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (reauth: Reauthentication) =>
      api.apollo.auth.twoFactor(
        { body: { resetSharedKey: false, resetRecoveryCodes: true, forgetMachine: false, ...reauth } },
        quiet,
      ),
    onSuccess: (answer) => {
      const { recoveryCodes, ...state } = answer;
      queryClient.setQueryData(accountKeys.twoFactor(), state);
      onCodes(recoveryCodes ?? []);
    },
    onSettled: organisation.auditLog,
  });
}

/** Sends a request to support; `onSent` hears its reference. Nothing read shows requests. */
export function useSendSupportRequest(api: PortalClient, onSent: (request: SupportRequest) => void) {
  const organisation = useOrganisationRefresh();
  return useMutation({
    mutationFn: (body: SupportRequestCreate) => api.apollo.support.createRequest({ body }, quiet),
    onSuccess: onSent,
    onSettled: organisation.auditLog,
  });
}
