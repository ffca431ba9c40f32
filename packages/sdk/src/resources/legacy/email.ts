/** Legacy email: restoring archived mail, archive statistics and the archive worker's state. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { ArchiveItemId } from '../common.js';

export const RestoreEmailRequest = s.object({
  workerIp: s.string({ minLength: 1 }),
  mailboxId: s.string({ minLength: 1, description: 'The archived mailbox the mails come from.' }),
  messageIds: s.array(ArchiveItemId, { minItems: 1, maxItems: 10000 }),
  targetMailbox: s.optional(s.string({ description: 'Restore into this mailbox; default the original one.' })),
  targetFolder: s.optional(s.string({ maxLength: 400, description: 'Folder path; default "Restored".' })),
});
export type RestoreEmailRequest = s.Static<typeof RestoreEmailRequest>;

export const RestoreStarted = s.object({ jobId: s.string(), reportId: s.string() });
export type RestoreStarted = s.Static<typeof RestoreStarted>;

export const FullRestoreDownloadRequest = s.object({
  workerIp: s.string({ minLength: 1 }),
  mailboxId: s.string({ minLength: 1 }),
  messageIds: s.optional(
    s.array(ArchiveItemId, { maxItems: 10000, description: 'Only these; default the whole mailbox.' }),
  ),
  format: s.optional(s.oneOfStrings(['eml', 'zip'], 'eml for a single message, zip otherwise.')),
});
export type FullRestoreDownloadRequest = s.Static<typeof FullRestoreDownloadRequest>;

export const ArchiveStatistics = s.object({
  periodDays: s.integer({ minimum: 1 }),
  mailboxes: s.integer({ minimum: 0 }),
  items: s.integer({ minimum: 0 }),
  bytes: s.integer({ minimum: 0 }),
  growth: s.array(s.object({ date: s.date(), items: s.integer({ minimum: 0 }), bytes: s.integer({ minimum: 0 }) })),
  lastSuccessfulJob: s.nullable(s.object({ jobId: s.string(), jobName: s.string(), finished: s.dateTime() })),
});
export type ArchiveStatistics = s.Static<typeof ArchiveStatistics>;

export const WorkerCheck = s.object({
  workerIp: s.string(),
  online: s.boolean(),
  version: s.string(),
  lastSeen: s.nullable(s.dateTime()),
});
export type WorkerCheck = s.Static<typeof WorkerCheck>;

export const WorkerMeta = s.object({
  workerId: s.string(),
  workerIp: s.string(),
  indexIp: s.string(),
  folders: s.array(s.string(), { description: 'Archived folder paths.' }),
  teamsConfigured: s.boolean(),
  exchangeConfigured: s.boolean(),
});
export type WorkerMeta = s.Static<typeof WorkerMeta>;

export const emailEndpoints = defineResource('legacy', 'email', {
  restore: {
    method: 'POST',
    path: '/backup-and-restore/restore-email',
    summary: 'Restore archived mails to a mailbox',
    body: RestoreEmailRequest,
    response: RestoreStarted,
    successStatus: 202,
  },
  fullRestoreDownload: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/backup-and-restore/full-restore-download',
    summary: 'Download archived mails (.eml for one, else a zip)',
    body: FullRestoreDownloadRequest,
    responseKind: 'blob',
    contentTypes: ['message/rfc822', 'application/zip'],
  },
  statistics: {
    method: 'GET',
    path: '/backup-and-restore/archive/statistics',
    summary: 'Archive figures of the last 30 days',
    query: s.object({ ip: s.string({ minLength: 1, description: 'The worker address.' }) }),
    response: ArchiveStatistics,
  },
  workerCheck: {
    method: 'GET',
    path: '/worker/check/{workerIp}',
    summary: 'Whether the archive worker answers',
    response: WorkerCheck,
  },
  workerMeta: { method: 'GET', path: '/worker/meta/{workerId}', summary: "The worker's setup", response: WorkerMeta },
});

/*#__NO_SIDE_EFFECTS__*/
export function emailApi(transport: Transport) {
  return bindResource(transport, emailEndpoints);
}
