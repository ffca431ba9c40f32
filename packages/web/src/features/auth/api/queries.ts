/**
 * What the public pages read: who an invitation link invites, and where (read once: a link that is
 * not valid stays so; never kept for offline reading); and whether the server offers a sign-in with
 * Microsoft.
 */
import type { PortalClient } from '@compliance-portal/sdk';
import { queryOptions } from '@tanstack/react-query';
import { authKeys } from './keys';

export const invitationQuery = (api: PortalClient, token: string) =>
  queryOptions({
    queryKey: authKeys.invitation(token),
    queryFn: () => api.legacy.invitations.get({ token }, { disableToast: true }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * Whether the server offers a sign-in with Microsoft. Asked once per visit of the sign-in form and kept
 * out of the query cache, which after a logout holds nothing.
 */
export const fetchSignInOptions = (api: PortalClient) =>
  api.legacy.auth.signInOptions(undefined, { disableToast: true });
