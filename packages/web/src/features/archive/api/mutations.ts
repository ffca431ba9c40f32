import type { PortalClient, RestoreStarted } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { archiveKeys } from './keys';

export interface RestoreArchivedMail {
  mailboxId: string;
  messageIds: string[];
  /** Another mailbox; absent: the original one. */
  targetMailbox?: string;
  targetFolder: string;
}

/**
 * Restores archived mails of one mailbox, as a restore job: the tenant's jobs, runs and reports
 * change (the new run shows in the monitor). A refusal is said in the dialog, not in a toast.
 */
export function useRestoreArchivedMail(api: PortalClient, tenantId: string, workerIp: string) {
  const queryClient = useQueryClient();
  return useMutation<RestoreStarted, unknown, RestoreArchivedMail>({
    mutationFn: (input) =>
      api.legacy.email.restore(
        {
          body: {
            workerIp,
            mailboxId: input.mailboxId,
            messageIds: input.messageIds,
            ...(input.targetMailbox ? { targetMailbox: input.targetMailbox } : {}),
            targetFolder: input.targetFolder,
          },
        },
        { disableToast: true },
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: archiveKeys.tenant(tenantId) });
    },
  });
}
