/**
 * What the invitation page reads: who the link invites, and where. Read once (a link that is not
 * valid stays so), never kept for offline reading.
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
