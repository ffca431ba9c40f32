/**
 * eDiscovery's downloads, saved as files: a case's results (ZIP), one found mail (.eml) and one found
 * calendar event (.ics). They change
 * nothing read, so nothing is invalidated.
 */
import type { EdiscoveryCase, EdiscoveryHit, PortalClient } from '@compliance-portal/sdk';
import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../../components/ui/save-blob';

/** A case's results: mail as .eml, Teams messages as .json, events as .ics, and a manifest, in a ZIP. */
export function useCaseExport(api: PortalClient, tenantId: string) {
  return useMutation({
    mutationFn: async (found: EdiscoveryCase) => {
      const file = await api.apollo.ediscovery.exportCase({ tenantId, caseId: found.caseId });
      saveBlob(file.blob, file.fileName ?? `case-${found.name}.zip`);
    },
  });
}

/** A found mail as .eml; a refusal is said in the drawer, in words: a toast would only say "Access denied". */
export function useHitDownload(api: PortalClient, workerIp: string) {
  return useMutation({
    mutationFn: async (hit: EdiscoveryHit) => {
      const file = await api.legacy.email.fullRestoreDownload(
        { body: { workerIp, mailboxId: hit.source, messageIds: [hit.itemId], format: 'eml' } },
        { disableToast: true },
      );
      saveBlob(file.blob, file.fileName ?? `${hit.itemId}.eml`);
    },
  });
}

/** A found calendar event as .ics (a series whole); a refusal is said in the drawer, as a mail's is. */
export function useEventDownload(api: PortalClient, tenantId: string) {
  return useMutation({
    mutationFn: async (hit: EdiscoveryHit) => {
      const file = await api.apollo.ediscovery.eventFile(
        { tenantId, mailboxId: hit.source, eventId: hit.itemId },
        { disableToast: true },
      );
      saveBlob(file.blob, file.fileName ?? 'event.ics');
    },
  });
}
