/**
 * eDiscovery's changes, each with the invalidation of what it touches: saving and removing a case
 * (the cases), placing and releasing a legal hold (the cases, and every read that counts what holds
 * keep: `sharedKeys.heldCounts`), and restoring found mail into a mailbox (which changes nothing read
 * here). What the page does besides (a toast, closing a dialog) is handed in and runs on the mutation
 * itself, so it happens even when the dialog was closed meanwhile.
 */
import type { EdiscoveryCase, EdiscoveryCaseCreate, EdiscoveryHit, PortalClient } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sharedKeys } from '../../../shared/api/keys';
import { ediscoveryKeys } from './keys';

/** A refusal is said in the dialog or confirmation that asked, not in the generic toast as well. */
const quiet = { disableToast: true } as const;

function useRefreshCases(tenantId: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ediscoveryKeys.cases(tenantId) });
}

/** Saves a search as a named case with its custodians. */
export function useSaveCase(api: PortalClient, tenantId: string, onSaved: (saved: EdiscoveryCase) => void) {
  const refresh = useRefreshCases(tenantId);
  return useMutation({
    mutationFn: (body: EdiscoveryCaseCreate) => api.apollo.ediscovery.createCase({ tenantId, body }, quiet),
    onSuccess: (saved) => {
      onSaved(saved);
      refresh();
    },
  });
}

/** Removes a case (refused while it is on legal hold). */
export function useDeleteCase(api: PortalClient, tenantId: string, onDeleted: () => void) {
  const refresh = useRefreshCases(tenantId);
  return useMutation({
    mutationFn: (found: EdiscoveryCase) => api.apollo.ediscovery.deleteCase({ tenantId, caseId: found.caseId }),
    onSuccess: () => {
      onDeleted();
      refresh();
    },
  });
}

/**
 * A hold placed or released changes the case and what every archive screen counts as held: the
 * mailboxes and their largest, the Teams archive's figures and tree, and the deletion previews. All of
 * them are read again at once, those no screen shows too, so that the offline copy of the mailboxes
 * and the dashboards holds the new counts (it is written when a query is read).
 */
function useHoldChange(
  tenantId: string,
  workerIp: string,
  change: (found: EdiscoveryCase) => Promise<EdiscoveryCase>,
  onChanged: (changed: EdiscoveryCase) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (changed) => {
      onChanged(changed);
      void queryClient.invalidateQueries({ queryKey: ediscoveryKeys.cases(tenantId) });
      for (const queryKey of sharedKeys.heldCounts(tenantId, workerIp))
        void queryClient.invalidateQueries({ queryKey, refetchType: 'all' });
    },
  });
}

/** Puts a case on legal hold: deletion jobs keep what its search finds of its custodians. */
export function useHoldCase(
  api: PortalClient,
  tenantId: string,
  workerIp: string,
  onHeld: (held: EdiscoveryCase) => void,
) {
  return useHoldChange(
    tenantId,
    workerIp,
    (found) => api.apollo.ediscovery.holdCase({ tenantId, caseId: found.caseId }, quiet),
    onHeld,
  );
}

/** Releases a case's legal hold: deletion jobs may remove its items again. */
export function useReleaseCase(
  api: PortalClient,
  tenantId: string,
  workerIp: string,
  onReleased: (released: EdiscoveryCase) => void,
) {
  return useHoldChange(
    tenantId,
    workerIp,
    (found) => api.apollo.ediscovery.releaseCase({ tenantId, caseId: found.caseId }, quiet),
    onReleased,
  );
}

export interface RestoreMails {
  hits: EdiscoveryHit[];
  /** Another mailbox; empty: each mail's own. */
  targetMailbox: string;
  /** The folder they go to; empty: the worker's default. */
  targetFolder: string;
}

/**
 * Puts found mails back into a mailbox, one restore per mailbox they come from: each is a restore
 * run of the tenant, so its jobs, runs and reports are read again (the search's results do not
 * change). A refusal is said in the dialog.
 */
export function useRestoreMails(api: PortalClient, tenantId: string, workerIp: string, onRestored: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ hits, targetMailbox, targetFolder }: RestoreMails) => {
      const bySource = new Map<string, string[]>();
      for (const h of hits) bySource.set(h.source, [...(bySource.get(h.source) ?? []), h.itemId]);
      for (const [mailboxId, messageIds] of bySource)
        await api.legacy.email.restore(
          {
            body: {
              workerIp,
              mailboxId,
              messageIds,
              ...(targetMailbox ? { targetMailbox } : {}),
              ...(targetFolder ? { targetFolder } : {}),
            },
          },
          quiet,
        );
    },
    onSuccess: () => {
      for (const queryKey of [sharedKeys.jobs(tenantId), sharedKeys.runs(tenantId), sharedKeys.reports(tenantId)]) {
        void queryClient.invalidateQueries({ queryKey });
      }
      onRestored();
    },
  });
}
