/**
 * A mailbox's calendars, contacts and To Do tasks in the archive: each item kept as Graph gave it
 * (its JSON; a task with its checklist items) in the blob store, through the same store and
 * organisation key as mail's MIME, an event's file attachments each as a blob of their bytes. An item
 * read again gets a new version only when its JSON differs from its latest (Graph's delta reports an
 * item again for any change, and everything again after a resync); a deleted one keeps its versions,
 * its latest marked deleted.
 */
import type { ChecklistItem, Contact, Event, FileAttachment, TodoTask } from '@microsoft/microsoft-graph-types';
import type { Queryable } from '../db/database.js';
import { heldMailboxes } from './legal-hold-repository.js';
import {
  type ArchivedVersion,
  archivedVersions,
  deleteSupersededBefore,
  eventAttachmentsOf,
  insertContactVersion,
  insertEventAttachments,
  insertEventVersion,
  insertTaskVersion,
  type LatestVersion,
  latestVersions,
  type MailboxItemCounts,
  type MailboxItemKind,
  markDeleted,
  type RemovedBlob,
  recordRunCounts,
  seriesOf,
  seriesWithoutInstances,
} from './mailbox-items-repository.js';
import { contactToVCard, eventToICalendar } from './standard-files.js';

/** The blob store as archiving writes to it (content-addressed: the same bytes, the same name). */
interface BlobWriter {
  put(bytes: Uint8Array): Promise<{ hash: string }>;
}

/** Where an item is archived from and to. */
export interface MailboxItemScope {
  tenantId: string;
  mailbox: string;
  jobId: string | null;
  /** The storage location the blobs were written to (null: the server's own store). */
  locationId: string | null;
  now: Date;
}

/** What archiving an item did: a first version, a further one, or nothing (it had not changed). */
export type ArchivedChange = 'new' | 'changed' | 'unchanged';

const encoder = new TextEncoder();

/** An instant of Graph's dateTimeTimeZone (UTC as the archive reads calendar views), or null. */
function instant(value: { dateTime?: string | null; timeZone?: string | null } | null | undefined): Date | null {
  if (!value?.dateTime) return null;
  // The archive reads times in UTC (no Prefer: outlook.timezone); a zone named otherwise is not read.
  if ((value.timeZone ?? 'UTC') !== 'UTC') return null;
  const at = new Date(/[zZ]$/.test(value.dateTime) ? value.dateTime : `${value.dateTime}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** An address as mail's sender and recipients are kept: "name <address>", or whichever is known. */
function addressOf(address: { name?: string | null; address?: string | null } | null | undefined): string {
  const name = address?.name ?? '';
  const mail = address?.address ?? '';
  if (name && mail) return `${name} <${mail}>`;
  return name || mail;
}

/**
 * The version the item's JSON makes: the next one when it differs from the latest (or the latest was
 * deleted), none when it is the same.
 */
async function nextVersion(
  db: Queryable,
  blobs: BlobWriter,
  kind: MailboxItemKind,
  scope: MailboxItemScope,
  externalId: string,
  json: unknown,
): Promise<{ version: number; hash: string; size: number; change: ArchivedChange } | undefined> {
  const bytes = encoder.encode(JSON.stringify(json));
  const blob = await blobs.put(bytes);
  const latest: LatestVersion | undefined = (await latestVersions(db, kind, scope, [externalId])).get(externalId);
  if (latest && !latest.deleted && latest.blobHash === blob.hash) return undefined;
  return {
    version: (latest?.version ?? 0) + 1,
    hash: blob.hash,
    size: bytes.length,
    change: latest ? 'changed' : 'new',
  };
}

const common = (scope: MailboxItemScope, externalId: string, v: { version: number; hash: string; size: number }) => ({
  tenantId: scope.tenantId,
  mailbox: scope.mailbox,
  externalId,
  version: v.version,
  blobHash: v.hash,
  size: v.size,
  locationId: scope.locationId,
  jobId: scope.jobId,
  archivedAt: scope.now,
});

/**
 * Archives an event of a calendar (an instance of a calendar view, or a series master); its
 * attachments are read, by `attachments`, only for a new version of an event that has any.
 */
export async function archiveEvent(
  db: Queryable,
  blobs: BlobWriter,
  scope: MailboxItemScope,
  input: {
    calendarId: string;
    calendarName: string;
    event: Event;
    /** The event's attachments as Graph lists them: file attachments with their bytes, and others. */
    attachments: () => AsyncIterable<FileAttachment & { '@odata.type'?: string }>;
  },
): Promise<{ change: ArchivedChange; bytes: number; attachments: number }> {
  const { event } = input;
  const externalId = event.id ?? '';
  const next = await nextVersion(db, blobs, 'event', scope, externalId, event);
  if (!next) return { change: 'unchanged', bytes: 0, attachments: 0 };
  let bytes = next.size;
  const attachments = [];
  if (event.hasAttachments) {
    for await (const attachment of input.attachments()) {
      // Item and reference attachments carry no bytes of their own: the event's JSON names them.
      if (attachment['@odata.type'] !== '#microsoft.graph.fileAttachment' || !attachment.contentBytes) continue;
      const content = Buffer.from(attachment.contentBytes, 'base64');
      const blob = await blobs.put(content);
      bytes += content.length;
      attachments.push({
        tenantId: scope.tenantId,
        mailbox: scope.mailbox,
        eventId: externalId,
        version: next.version,
        attachmentId: attachment.id ?? '',
        name: attachment.name ?? '',
        contentType: attachment.contentType ?? '',
        isInline: attachment.isInline ?? false,
        size: content.length,
        blobHash: blob.hash,
        locationId: scope.locationId,
      });
    }
  }
  // The attachments first: a version row stands for a version whose attachments are all kept.
  await insertEventAttachments(db, attachments);
  const inserted = await insertEventVersion(db, {
    ...common(scope, externalId, next),
    calendarId: input.calendarId,
    calendarName: input.calendarName,
    eventType: event.type ?? 'singleInstance',
    seriesMasterId: event.seriesMasterId ?? null,
    subject: event.subject ?? '',
    startsAt: instant(event.start),
    endsAt: instant(event.end),
    organizer: addressOf(event.organizer?.emailAddress),
    attendees: (event.attendees ?? []).map((a) => addressOf(a.emailAddress)).join(', '),
    location: event.location?.displayName ?? '',
    hasAttachments: event.hasAttachments ?? false,
  });
  return inserted
    ? { change: next.change, bytes, attachments: attachments.length }
    : { change: 'unchanged', bytes: 0, attachments: 0 };
}

export async function archiveContact(
  db: Queryable,
  blobs: BlobWriter,
  scope: MailboxItemScope,
  input: { folderId: string; folderPath: string; contact: Contact },
): Promise<{ change: ArchivedChange; bytes: number }> {
  const { contact } = input;
  const externalId = contact.id ?? '';
  const next = await nextVersion(db, blobs, 'contact', scope, externalId, contact);
  if (!next) return { change: 'unchanged', bytes: 0 };
  const inserted = await insertContactVersion(db, {
    ...common(scope, externalId, next),
    folderId: input.folderId,
    folderPath: input.folderPath,
    displayName: contact.displayName ?? '',
    email: contact.emailAddresses?.[0]?.address ?? '',
  });
  return inserted ? { change: next.change, bytes: next.size } : { change: 'unchanged', bytes: 0 };
}

/** Archives a task with its checklist items (kept in its JSON as `checklistItems`, as `$expand` gives them). */
export async function archiveTask(
  db: Queryable,
  blobs: BlobWriter,
  scope: MailboxItemScope,
  input: { listId: string; listName: string; task: TodoTask; checklistItems: ChecklistItem[] },
): Promise<{ change: ArchivedChange; bytes: number }> {
  const task: TodoTask = { ...input.task, checklistItems: input.checklistItems };
  const externalId = task.id ?? '';
  const next = await nextVersion(db, blobs, 'task', scope, externalId, task);
  if (!next) return { change: 'unchanged', bytes: 0 };
  const inserted = await insertTaskVersion(db, {
    ...common(scope, externalId, next),
    listId: input.listId,
    listName: input.listName,
    title: task.title ?? '',
    status: task.status ?? '',
    dueAt: instant(task.dueDateTime),
  });
  return inserted ? { change: next.change, bytes: next.size } : { change: 'unchanged', bytes: 0 };
}

/**
 * Marks items Graph reported deleted (`@removed`); answers how many were archived and not yet marked.
 * For events, a series master none of whose instances is left is marked too (Graph reports a deleted
 * series instance by instance, never its master, which a calendar view does not hold).
 */
export async function markMailboxItemsDeleted(
  db: Queryable,
  kind: MailboxItemKind,
  scope: MailboxItemScope,
  externalIds: readonly string[],
): Promise<number> {
  const marked = await markDeleted(db, kind, scope, externalIds, scope.now);
  if (kind !== 'event' || marked.length === 0) return marked.length;
  const masters = await seriesWithoutInstances(db, scope, await seriesOf(db, scope, marked));
  return marked.length + (await markDeleted(db, 'event', scope, masters, scope.now)).length;
}

/** Keeps what a run archived of its mailboxes' calendars, contacts and tasks, beside its own counters. */
export async function recordMailboxItemCounts(db: Queryable, runId: string, counts: MailboxItemCounts): Promise<void> {
  await recordRunCounts(db, runId, counts);
}

/** An archived item's version read back: its JSON as Graph gave it, and where it was kept. */
export interface ReadVersion<T> extends ArchivedVersion {
  item: T;
}

/** The blob stores of the locations an item's blobs were written to. */
type StoreReader = (locationId: string | null) => Promise<{ get(hash: string): Promise<Uint8Array> }>;

/** Every archived version of the mailbox's items of a kind, each with its JSON, oldest first per item. */
export async function readMailboxItems<T>(
  db: Queryable,
  storeAt: StoreReader,
  kind: MailboxItemKind,
  key: { tenantId: string; mailbox: string },
): Promise<ReadVersion<T>[]> {
  const versions = await archivedVersions(db, kind, key);
  const read: ReadVersion<T>[] = [];
  for (const v of versions) {
    const bytes = await (await storeAt(v.locationId)).get(v.blobHash);
    read.push({ ...v, item: JSON.parse(new TextDecoder().decode(bytes)) as T });
  }
  return read;
}

/** The file attachments of one version of an archived event, with their bytes. */
export async function readEventAttachments(
  db: Queryable,
  storeAt: StoreReader,
  key: { tenantId: string; mailbox: string },
  eventId: string,
  version: number,
) {
  const rows = await eventAttachmentsOf(db, key, eventId, version);
  return Promise.all(
    rows.map(async (r) => ({
      id: r.attachmentId,
      name: r.name,
      contentType: r.contentType,
      isInline: r.isInline,
      size: r.size,
      content: await (await storeAt(r.locationId)).get(r.blobHash),
    })),
  );
}

/** The latest archived version of an item, read back; undefined when none is archived. */
async function latestItem<T>(
  db: Queryable,
  storeAt: StoreReader,
  kind: MailboxItemKind,
  key: { tenantId: string; mailbox: string },
  externalId: string,
): Promise<{ item: T; version: number } | undefined> {
  const latest = (await latestVersions(db, kind, key, [externalId])).get(externalId);
  if (!latest) return undefined;
  const bytes = await (await storeAt(latest.locationId)).get(latest.blobHash);
  return { item: JSON.parse(new TextDecoder().decode(bytes)) as T, version: latest.version };
}

/**
 * An archived event as an iCalendar file (.ics), as it was last archived: a single event with its
 * attachments, or, for a series' master or any of its instances, the whole series (its pattern, its
 * cancelled occurrences and its exceptions) with the master's attachments. Undefined when the event
 * is not archived.
 */
export async function archivedEventICalendar(
  db: Queryable,
  storeAt: StoreReader,
  key: { tenantId: string; mailbox: string },
  eventId: string,
): Promise<string | undefined> {
  let found = await latestItem<Event>(db, storeAt, 'event', key, eventId);
  const master = found?.item.seriesMasterId;
  if (master) found = (await latestItem<Event>(db, storeAt, 'event', key, master)) ?? found;
  if (!found) return undefined;
  const attachments = await readEventAttachments(db, storeAt, key, found.item.id ?? '', found.version);
  return eventToICalendar(found.item, attachments);
}

/** An archived contact as a vCard 4.0 file (.vcf), as it was last archived; undefined when it is not. */
export async function archivedContactVCard(
  db: Queryable,
  storeAt: StoreReader,
  key: { tenantId: string; mailbox: string },
  contactId: string,
): Promise<string | undefined> {
  const found = await latestItem<Contact>(db, storeAt, 'contact', key, contactId);
  return found ? contactToVCard(found.item) : undefined;
}

/**
 * Retention of mailboxes' calendars, contacts and tasks beside their mail (the same job, cut-off and
 * mailboxes, all of the tenant's without any): each version that stopped being current before
 * `before` goes (deleteSupersededBefore), but none of a mailbox a legal hold names as a custodian of
 * its mail. Answers how many versions went and the blobs they referred to, which the caller deletes
 * from their stores once nothing else refers to them.
 */
export async function deleteMailboxItemsBefore(
  db: Queryable,
  tenantId: string,
  options: { before: Date; mailboxes: readonly string[] },
): Promise<{ versions: number; blobs: RemovedBlob[] }> {
  const kept = await heldMailboxes(db, tenantId);
  let versions = 0;
  const blobs: RemovedBlob[] = [];
  for (const kind of ['event', 'contact', 'task'] as const) {
    const removed = await deleteSupersededBefore(db, kind, tenantId, { ...options, kept });
    versions += removed.versions;
    blobs.push(...removed.blobs);
  }
  return { versions, blobs };
}
