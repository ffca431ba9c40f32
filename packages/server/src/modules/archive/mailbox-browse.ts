/**
 * Browsing a mailbox's archived calendar events, contacts and To Do tasks: a page of them by their
 * latest version, one with its fields (as Graph gave them, read from the blob store) and its versions,
 * and an event as iCalendar or a contact as vCard. Who may read them is mail's rule: the mailbox's own
 * user and those a proxy right gives it (../ediscovery/access.ts), every refusal audited.
 */
import type {
  ArchivedContactAddress,
  ArchivedContactFields,
  ArchivedEventFields,
  ArchivedEventPerson,
  ArchivedMailboxItem,
  ArchivedMailboxItemRow,
  ArchivedMailboxItemsBrowse,
  ArchivedTaskFields,
  MailboxItemKind,
  Page,
} from '@compliance-portal/sdk';
import type {
  Attendee,
  Contact,
  DateTimeTimeZone,
  Event,
  ItemBody,
  PhysicalAddress,
  Recipient,
  TodoTask,
} from '@microsoft/microsoft-graph-types';
import type { Actor } from '../../access/actor.js';
import type { StoreAt } from '../../archive-data/archive.js';
import { archivedContactVCard, archivedEventICalendar } from '../../archive-data/mailbox-items.js';
import { eventAttachmentsOf } from '../../archive-data/mailbox-items-repository.js';
import { stripHtml } from '../../archive-data/mime.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { requireMailboxRead } from '../ediscovery/access.js';
import type { TenantRecord } from '../tenants/repository.js';
import { type ItemRow, itemPage, itemVersions, orderOf } from './mailbox-browse-repository.js';

type Connect = () => Promise<GraphApi>;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** Graph's dateTimeTimeZone as an instant: the archive reads times in UTC, so a time of another zone is not one. */
function utcOf(value: DateTimeTimeZone | null | undefined): string | null {
  if (!value?.dateTime) return null;
  const zoned = /[zZ]|[+-]\d\d:\d\d$/.test(value.dateTime);
  if (!zoned && (value.timeZone ?? 'UTC') !== 'UTC') return null;
  const at = new Date(zoned ? value.dateTime : `${value.dateTime}Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const textOf = (body: ItemBody | null | undefined) =>
  body?.contentType === 'html' ? stripHtml(body.content ?? '') : (body?.content ?? '');

const readJson = async <T>(storeAt: StoreAt, row: { locationId: string | null; blobHash: string }) =>
  JSON.parse(new TextDecoder().decode(await (await storeAt(row.locationId)).get(row.blobHash))) as T;

const organizerOf = (event: Event) => {
  const who = event.organizer?.emailAddress;
  return who ? who.name || who.address || '' : null;
};

/** A page of a mailbox's archived events, contacts or tasks of one kind, for who may read the mailbox (else 403). */
export async function browseMailboxItems(
  ctx: AppContext,
  connect: Connect,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  request: ArchivedMailboxItemsBrowse,
): Promise<Page<ArchivedMailboxItemRow>> {
  const order = orderOf(request.kind, request.sort ?? 'title');
  if (!order) throw badRequest(`A list of ${request.kind}s cannot be sorted by ${request.sort}.`);
  await requireMailboxRead(ctx, connect, tenant, actor, request.mailboxId, 'archive.browse');
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? 25;
  const { rows, total } = await itemPage(ctx.db, tenant.tenantId, {
    mailboxId: request.mailboxId,
    kind: request.kind,
    search: request.search,
    container: request.container,
    deleted: request.deleted,
    order,
    direction: request.order === 'desc' ? 'desc' : 'asc',
    page,
    pageSize,
  });
  const items: ArchivedMailboxItemRow[] = [];
  for (const row of rows) items.push(await listRow(storeAt, request.kind, row));
  return { items, total, page, pageSize };
}

/** An item's row of the list; an event's organiser and attendees are read from its JSON, which the table does not hold. */
async function listRow(storeAt: StoreAt, kind: MailboxItemKind, row: ItemRow): Promise<ArchivedMailboxItemRow> {
  const event =
    kind === 'event' ? await readJson<Event>(storeAt, { locationId: row.location_id, blobHash: row.blob_hash }) : null;
  return {
    itemId: row.external_id,
    kind,
    title: row.title,
    container: row.container,
    start: kind === 'event' ? iso(row.starts_at) : null,
    end: kind === 'event' ? iso(row.ends_at) : null,
    organizer: event ? organizerOf(event) : null,
    attendees: event ? (event.attendees ?? []).length : null,
    email: kind === 'contact' ? (row.email ?? '') : null,
    status: kind === 'task' ? (row.status ?? '') : null,
    due: kind === 'task' ? iso(row.due_at) : null,
    versions: Number(row.versions),
    deleted: row.deleted_at !== null,
    deletedAt: iso(row.deleted_at),
    archivedAt: new Date(row.archived_at).toISOString(),
  };
}

const person = (who: Recipient | Attendee): ArchivedEventPerson => ({
  name: who.emailAddress?.name ?? '',
  address: who.emailAddress?.address ?? '',
  type: 'type' in who ? (who.type ?? null) : null,
  response: 'status' in who ? (who.status?.response ?? null) : null,
});

function eventFields(event: Event, attachments: ArchivedEventFields['attachments']): ArchivedEventFields {
  const pattern = event.recurrence?.pattern;
  const range = event.recurrence?.range;
  return {
    subject: event.subject ?? '',
    eventType: event.type ?? 'singleInstance',
    organizer: event.organizer ? person(event.organizer) : null,
    attendees: (event.attendees ?? []).map(person),
    start: utcOf(event.start),
    end: utcOf(event.end),
    isAllDay: event.isAllDay ?? false,
    timeZone: event.originalStartTimeZone ?? event.start?.timeZone ?? 'UTC',
    location: event.location?.displayName ?? '',
    recurrence:
      pattern && range
        ? {
            type: pattern.type ?? 'daily',
            interval: pattern.interval ?? 1,
            daysOfWeek: [...(pattern.daysOfWeek ?? [])],
            dayOfMonth: pattern.dayOfMonth ?? 0,
            month: pattern.month ?? 0,
            index: pattern.index ?? null,
            range: range.type ?? 'noEnd',
            startDate: range.startDate ?? null,
            endDate: range.type === 'endDate' ? (range.endDate ?? null) : null,
            occurrences: range.numberOfOccurrences ?? 0,
          }
        : null,
    body: textOf(event.body),
    attachments,
  };
}

function contactFields(contact: Contact): ArchivedContactFields {
  const address = (kind: ArchivedContactAddress['kind'], a: PhysicalAddress | null | undefined) =>
    a && Object.values(a).some((v) => typeof v === 'string' && v.trim() !== '')
      ? [
          {
            kind,
            street: a.street ?? '',
            city: a.city ?? '',
            state: a.state ?? '',
            postalCode: a.postalCode ?? '',
            countryOrRegion: a.countryOrRegion ?? '',
          },
        ]
      : [];
  return {
    displayName: contact.displayName ?? '',
    givenName: contact.givenName ?? '',
    middleName: contact.middleName ?? '',
    surname: contact.surname ?? '',
    emails: (contact.emailAddresses ?? []).map((e) => ({ name: e.name ?? '', address: e.address ?? '' })),
    phones: [
      ...(contact.businessPhones ?? []).map((number) => ({ kind: 'business' as const, number })),
      ...(contact.homePhones ?? []).map((number) => ({ kind: 'home' as const, number })),
      ...(contact.mobilePhone ? [{ kind: 'mobile' as const, number: contact.mobilePhone }] : []),
    ],
    addresses: [
      ...address('business', contact.businessAddress),
      ...address('home', contact.homeAddress),
      ...address('other', contact.otherAddress),
    ],
    companyName: contact.companyName ?? '',
    department: contact.department ?? '',
    jobTitle: contact.jobTitle ?? '',
    birthday: iso(contact.birthday),
    notes: contact.personalNotes ?? '',
  };
}

const taskFields = (task: TodoTask): ArchivedTaskFields => ({
  title: task.title ?? '',
  status: task.status ?? 'notStarted',
  importance: task.importance ?? 'normal',
  due: utcOf(task.dueDateTime),
  completed: utcOf(task.completedDateTime),
  body: textOf(task.body),
  checklist: (task.checklistItems ?? []).map((c) => ({ displayName: c.displayName ?? '', isChecked: !!c.isChecked })),
});

/**
 * An archived event, contact or task with its versions, and the fields of one of them (the latest
 * unless `version` names another). 403 without the right to read the mailbox; 404 for an item or a
 * version the mailbox does not keep.
 */
export async function readMailboxItem(
  ctx: AppContext,
  connect: Connect,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  query: { mailboxId: string; kind: MailboxItemKind; itemId: string; version?: number | undefined },
): Promise<ArchivedMailboxItem> {
  await requireMailboxRead(ctx, connect, tenant, actor, query.mailboxId, 'archive.preview');
  const key = { tenantId: tenant.tenantId, mailbox: query.mailboxId };
  const versions = await itemVersions(ctx.db, query.kind, key, query.itemId);
  const [latest] = versions;
  const shown = query.version === undefined ? latest : versions.find((v) => v.version === query.version);
  if (!latest || !shown) throw notFound('Item not found');
  const base = {
    itemId: query.itemId,
    kind: query.kind,
    mailboxId: query.mailboxId,
    container: shown.container,
    version: shown.version,
    jobId: latest.jobId,
    deleted: latest.deletedAt !== null,
    deletedAt: iso(latest.deletedAt),
    versions: versions.map((v) => ({
      version: v.version,
      title: v.title,
      archivedAt: v.archivedAt.toISOString(),
      deletedAt: iso(v.deletedAt),
      sizeBytes: v.size,
    })),
    event: null,
    contact: null,
    task: null,
  };
  if (query.kind === 'event') {
    const files = await eventAttachmentsOf(ctx.db, key, query.itemId, shown.version);
    const attachments = files.map((f) => ({ name: f.name, contentType: f.contentType, sizeBytes: f.size, url: null }));
    return { ...base, event: eventFields(await readJson<Event>(storeAt, shown), attachments) };
  }
  if (query.kind === 'contact') return { ...base, contact: contactFields(await readJson<Contact>(storeAt, shown)) };
  return { ...base, task: taskFields(await readJson<TodoTask>(storeAt, shown)) };
}

/** A download's file: its name, media type and bytes. */
export interface ItemFile {
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

/** A file name of the item's title, without the characters a file system refuses. */
const fileName = (title: string, fallback: string, extension: string) =>
  `${
    title
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .trim()
      .slice(0, 80) || fallback
  }.${extension}`;

/**
 * An archived event as iCalendar (its whole series for a series' master, occurrence or exception) or
 * an archived contact as vCard 4.0, as last archived. 403 without the right to read the mailbox, 404
 * for an item the mailbox does not keep.
 */
export async function mailboxItemFile(
  ctx: AppContext,
  connect: Connect,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  query: { mailboxId: string; kind: 'event' | 'contact'; itemId: string },
): Promise<ItemFile> {
  await requireMailboxRead(ctx, connect, tenant, actor, query.mailboxId, 'archive.download');
  const key = { tenantId: tenant.tenantId, mailbox: query.mailboxId };
  const [latest] = await itemVersions(ctx.db, query.kind, key, query.itemId);
  const text =
    query.kind === 'event'
      ? await archivedEventICalendar(ctx.db, storeAt, key, query.itemId)
      : await archivedContactVCard(ctx.db, storeAt, key, query.itemId);
  if (!latest || text === undefined) throw notFound('Item not found');
  const file =
    query.kind === 'event'
      ? { fileName: fileName(latest.title, 'event', 'ics'), contentType: 'text/calendar', bytes: Buffer.from(text) }
      : { fileName: fileName(latest.title, 'contact', 'vcf'), contentType: 'text/vcard', bytes: Buffer.from(text) };
  // Reading someone's calendar or contacts out of the archive is on the record, as mail's downloads are.
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'archive.download',
    target: query.mailboxId,
    outcome: 'success',
    details: { kind: query.kind, itemId: query.itemId, fileName: file.fileName },
  });
  return file;
}
