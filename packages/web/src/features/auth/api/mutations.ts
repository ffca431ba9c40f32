/**
 * Accepting an invitation: the password is set; nothing read before changes (the invitation page
 * leaves for the sign-in), so nothing is read again.
 */
import type { PortalClient } from '@compliance-portal/sdk';
import { useMutation } from '@tanstack/react-query';

export function useAcceptInvitation(api: PortalClient, token: string) {
  return useMutation({
    mutationFn: (password: { password: string; confirmPassword: string }) =>
      api.legacy.invitations.accept({ token, body: password }, { disableToast: true }),
  });
}
