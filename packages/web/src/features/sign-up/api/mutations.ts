/**
 * Signing up and confirming the address: apollo /register and /resendConfirmationMail, and the
 * confirmation link's legacy call, which says why a link failed. Nothing here is cached (the pages
 * are public and read nothing), so no query is invalidated.
 */
import type { ConfirmEmailLinkRequest, PortalClient, RegisterRequest } from '@compliance-portal/sdk';
import { useMutation } from '@tanstack/react-query';

/** The pages say why a call failed, in their own words: no toast. */
const quiet = { disableToast: true } as const;

export function useRegister(api: PortalClient) {
  return useMutation({ mutationFn: (body: RegisterRequest) => api.apollo.auth.register({ body }, quiet) });
}

/** Always answered 200 by the server, for any address: it never tells whether an account waits. */
export function useResendConfirmation(api: PortalClient) {
  return useMutation({
    mutationFn: (email: string) => api.apollo.auth.resendConfirmationMail({ body: { email } }, quiet),
  });
}

export function useConfirmEmail(api: PortalClient) {
  return useMutation({
    mutationFn: (body: ConfirmEmailLinkRequest) => api.legacy.auth.confirmEmail({ body }, quiet),
  });
}
