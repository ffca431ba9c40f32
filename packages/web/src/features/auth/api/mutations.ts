/**
 * The public pages' calls: accepting an invitation (the password is set), asking for a password reset
 * link and setting a new password with it, and starting a sign-in with Microsoft. Nothing read before
 * changes (each page leaves for the sign-in, or for Microsoft), so nothing is read again.
 */
import type { PortalClient } from '@compliance-portal/sdk';
import { useMutation } from '@tanstack/react-query';
import { rememberMicrosoftReturn } from '../../../session/storage';

/** The pages say why a call failed, in their own words: no toast. */
const quiet = { disableToast: true } as const;

export function useAcceptInvitation(api: PortalClient, token: string) {
  return useMutation({
    mutationFn: (password: { password: string; confirmPassword: string }) =>
      api.legacy.invitations.accept({ token, body: password }, quiet),
  });
}

/** Mails a reset link to the address (the answer is the same whether an account has it or not). */
export function useForgotPassword(api: PortalClient) {
  return useMutation({
    mutationFn: (email: string) => api.legacy.auth.forgotPassword({ body: { email } }, quiet),
  });
}

/** Sets a new password with a reset link's token. */
export function useResetPassword(api: PortalClient, token: string) {
  return useMutation({
    mutationFn: (password: { password: string; confirmPassword: string }) =>
      api.legacy.auth.resetPassword({ token, body: password }, quiet),
  });
}

/**
 * Starts a sign-in with Microsoft at the Entra tenant of the address's organisation: the browser
 * leaves for the identity platform, and comes back to `returnTo` once signed in.
 */
export function useStartMicrosoftSignIn(api: PortalClient, returnTo: string | undefined) {
  return useMutation({
    mutationFn: (email: string) => api.legacy.auth.microsoftStart({ body: { email } }, quiet),
    onSuccess: ({ authorizationUrl }) => {
      rememberMicrosoftReturn(returnTo);
      window.location.assign(authorizationUrl);
    },
  });
}
