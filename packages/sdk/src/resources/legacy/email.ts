/** Legacy email: restoring archived mail, archive statistics and the archive worker's state. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { ArchiveItemId, ItemsByKind } from '../common.js';

/** Schema of the body of `POST /backup-and-restore/restore-email`. */
export const RestoreEmailRequest = s.object({
  workerIp: s.string({ minLength: 1 }),
  mailboxId: s.string({ minLength: 1, description: 'The archived mailbox the mails come from.' }),
  messageIds: s.array(ArchiveItemId, { minItems: 1, maxItems: 10000 }),
  targetMailbox: s.optional(s.string({ description: 'Restore into this mailbox; default the original one.' })),
  targetFolder: s.optional(s.string({ maxLength: 400, description: 'Folder path; default "Restored".' })),
});
/**
 * Archived mails to restore: the worker, the archived mailbox and the mails' ids (1 to 10000), into the
 * original mailbox or `targetMailbox`, in `targetFolder` (default "Restored"). Restoring into another
 * mailbox needs the right to read the archived one, else 403.
 */
export type RestoreEmailRequest = s.Static<typeof RestoreEmailRequest>;

/** Schema of the answer of `POST /backup-and-restore/restore-email`. */
export const RestoreStarted = s.object({ jobId: s.string(), reportId: s.string() });
/**
 * The restore job that a mail restore started (answered with 202) and the report id of its run, to
 * follow in the monitor and the reports.
 */
export type RestoreStarted = s.Static<typeof RestoreStarted>;

/** Schema of the body of `POST /backup-and-restore/full-restore-download`. */
export const FullRestoreDownloadRequest = s.object({
  workerIp: s.string({ minLength: 1 }),
  mailboxId: s.string({ minLength: 1 }),
  messageIds: s.optional(
    s.array(ArchiveItemId, { maxItems: 10000, description: 'Only these; default the whole mailbox.' }),
  ),
  format: s.optional(s.oneOfStrings(['eml', 'zip'], 'eml for a single message, zip otherwise.')),
});
/**
 * Archived mails to download: the worker, the mailbox and, optionally, only some of its mails (at most
 * 10000; default all of them), as one .eml (`eml`, for a single message) or a zip. Needs the right to
 * read the mailbox (the caller's own, or by a proxy right), else 403.
 */
export type FullRestoreDownloadRequest = s.Static<typeof FullRestoreDownloadRequest>;

/** Schema of the answer of `GET /backup-and-restore/archive/statistics`. */
export const ArchiveStatistics = s.object({
  periodDays: s.integer({ minimum: 1 }),
  mailboxes: s.integer({ minimum: 0 }),
  items: s.integer({
    minimum: 0,
    description:
      'Items archived: mails, events, contacts and tasks (each item once, its versions together); the sum of `itemsByKind`.',
  }),
  itemsByKind: s.optional(ItemsByKind),
  bytes: s.integer({ minimum: 0 }),
  growth: s.array(
    s.object({
      date: s.date(),
      items: s.integer({ minimum: 0, description: 'Mails archived that day (those deleted since included).' }),
      bytes: s.integer({ minimum: 0 }),
      deletedItems: s.optional(s.integer({ minimum: 0, description: 'Mails retention deleted that day.' })),
      deletedBytes: s.optional(s.integer({ minimum: 0 })),
    }),
  ),
  lastSuccessfulJob: s.nullable(s.object({ jobId: s.string(), jobName: s.string(), finished: s.dateTime() })),
});
/**
 * The email archive's figures over the last 30 days (`periodDays`): archived mailboxes, items and
 * bytes, the growth per day, and the last Exchange archive job that finished (null when none has).
 */
export type ArchiveStatistics = s.Static<typeof ArchiveStatistics>;

/** Schema of the answer of `GET /worker/check/{workerIp}`. */
export const WorkerCheck = s.object({
  workerIp: s.string(),
  online: s.boolean(),
  version: s.string(),
  lastSeen: s.nullable(s.dateTime()),
});
/**
 * Whether the archive worker answers, its software version and when it was last seen (null if never).
 */
export type WorkerCheck = s.Static<typeof WorkerCheck>;

/** Schema of the answer of `GET /worker/meta/{workerId}`. */
export const WorkerMeta = s.object({
  workerId: s.string(),
  workerIp: s.string(),
  indexIp: s.string(),
  folders: s.array(s.string(), { description: 'Archived folder paths.' }),
  teamsConfigured: s.boolean(),
  exchangeConfigured: s.boolean(),
});
/**
 * A worker's setup: its address, the address of its archive index (the `{indexIp}` of the mailbox
 * paths), the archived mail folder paths, and whether Teams and Exchange archiving are set up.
 */
export type WorkerMeta = s.Static<typeof WorkerMeta>;

/**
 * The catalogue entries of legacy email: mail restore and download, archive statistics, and the archive
 * worker's check and setup. {@link emailApi} binds them.
 */
export const emailEndpoints = defineResource('legacy', 'email', {
  restore: {
    method: 'POST',
    path: '/backup-and-restore/restore-email',
    scope: { workerTenant: { in: 'body', name: 'workerIp' } },
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
    scope: { workerTenant: { in: 'body', name: 'workerIp' } },
    summary: 'Download archived mails (.eml for one, else a zip)',
    body: FullRestoreDownloadRequest,
    responseKind: 'blob',
    contentTypes: ['message/rfc822', 'application/zip'],
  },
  statistics: {
    method: 'GET',
    path: '/backup-and-restore/archive/statistics',
    scope: { workerTenant: { in: 'query', name: 'ip' } },
    summary: 'Archive figures of the last 30 days',
    query: s.object({ ip: s.string({ minLength: 1, description: 'The worker address.' }) }),
    response: ArchiveStatistics,
  },
  workerCheck: {
    method: 'GET',
    path: '/worker/check/{workerIp}',
    scope: { worker: { in: 'path', name: 'workerIp' } },
    summary: 'Whether the archive worker answers',
    response: WorkerCheck,
  },
  workerMeta: {
    method: 'GET',
    path: '/worker/meta/{workerId}',
    scope: { worker: { in: 'path', name: 'workerId' } },
    summary: "The worker's setup",
    response: WorkerMeta,
  },
});

/**
 * Binds legacy email to a transport: restoring archived mails into a mailbox, downloading them (.eml or
 * zip), the archive's figures of the last 30 days, and the archive worker's state and setup. The same
 * methods as `client.legacy.email`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function emailApi(transport: Transport) {
  return bindResource(transport, emailEndpoints);
}
