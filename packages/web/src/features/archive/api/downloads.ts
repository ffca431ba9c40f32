/**
 * The archive's downloads, saved as files: a mailbox's whole archive (ZIP), one archived mail (.eml),
 * an archived event (.ics) or contact (.vcf), and the mailbox list (CSV). They change nothing read, so nothing is invalidated.
 */
import type { PortalClient } from '@compliance-portal/sdk';
import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../../components/ui/save-blob';

/** A refusal is shown beside the button, in words: the toast would only say "Access denied". */
const quiet = { disableToast: true } as const;

/** A mailbox's whole archive as a ZIP. */
export function useMailboxArchiveDownload(api: PortalClient, workerIp: string, mailboxId: string) {
  return useMutation({
    mutationFn: async () => {
      const file = await api.legacy.email.fullRestoreDownload({ body: { workerIp, mailboxId, format: 'zip' } }, quiet);
      saveBlob(file.blob, file.fileName ?? 'archive.zip');
    },
  });
}

/** One archived mail of the mailbox, as .eml. */
export function useArchivedMailDownload(api: PortalClient, workerIp: string, mailboxId: string) {
  return useMutation({
    mutationFn: async (mail: { itemId: string }) => {
      const file = await api.legacy.email.fullRestoreDownload(
        { body: { workerIp, mailboxId, messageIds: [mail.itemId], format: 'eml' } },
        quiet,
      );
      saveBlob(file.blob, file.fileName ?? `${mail.itemId}.eml`);
    },
  });
}

/** An archived event as iCalendar (.ics) or contact as vCard (.vcf), as last archived. */
export function useMailboxItemFileDownload(api: PortalClient, tenantId: string, mailboxId: string) {
  return useMutation({
    mutationFn: async (item: { kind: 'event' | 'contact'; itemId: string }) => {
      const file = await api.apollo.archive.mailboxItemFile(
        { tenantId, body: { mailboxId, kind: item.kind, itemId: item.itemId } },
        quiet,
      );
      saveBlob(file.blob, file.fileName ?? (item.kind === 'event' ? 'event.ics' : 'contact.vcf'));
    },
  });
}

/** The archived mailboxes as CSV, read through the worker and its index. */
export function useMailboxesCsvDownload(api: PortalClient, workerIp: string, indexIp: string) {
  return useMutation({
    mutationFn: async () => {
      const file = await api.legacy.mailboxes.downloadCsv({ workerIp, indexIp });
      saveBlob(file.blob, file.fileName ?? 'mailboxes.csv');
    },
  });
}
