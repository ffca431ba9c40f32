/**
 * eDiscovery: an archived calendar event, for whom may read its mailbox (access.ts, as its mail): its
 * preview and its iCalendar file. Both read the event as it was last archived, a deleted one too.
 */
import type { EdiscoveryAttendee, EdiscoveryEventPreview } from '@compliance-portal/sdk';
import type { Event } from '@microsoft/microsoft-graph-types';
import type { Actor } from '../../access/actor.js';
import type { StoreAt } from '../../archive-data/archive.js';
import { archivedEventICalendar } from '../../archive-data/mailbox-items.js';
import { eventAttachmentsOf } from '../../archive-data/mailbox-items-repository.js';
import { stripHtml } from '../../archive-data/mime.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { TenantRecord } from '../tenants/repository.js';
import { requireMailboxRead } from './access.js';
import { latestEventVersion } from './events-repository.js';

const NOT_ARCHIVED = 'Event not found';

/** An instant of Graph's dateTimeTimeZone as the archive reads it (UTC), as ISO; null when absent or not UTC. */
function isoInstant(value: Event['start']): string | null {
  if (!value?.dateTime || (value.timeZone ?? 'UTC') !== 'UTC') return null;
  const at = new Date(/[zZ]$/.test(value.dateTime) ? value.dateTime : `${value.dateTime}Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const ATTENDEE_TYPES: readonly EdiscoveryAttendee['type'][] = ['required', 'optional', 'resource'];

/**
 * The event's organiser, attendees, times, location, text and attachment names. A mailbox the actor
 * may not read is refused as its mail is (403, audited); an event it does not hold is 404.
 */
export async function previewEvent(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  mailbox: string,
  eventId: string,
): Promise<EdiscoveryEventPreview> {
  await requireMailboxRead(ctx, connect, tenant, actor, mailbox, 'ediscovery.preview');
  const found = await latestEventVersion(ctx.db, tenant.tenantId, mailbox, eventId);
  if (!found) throw notFound(NOT_ARCHIVED);
  const bytes = await (await storeAt(found.locationId)).get(found.blobHash);
  const event = JSON.parse(new TextDecoder().decode(bytes)) as Event;
  const files = await eventAttachmentsOf(ctx.db, { tenantId: tenant.tenantId, mailbox }, eventId, found.version);
  const organizer = event.organizer?.emailAddress;
  const content = event.body?.content ?? '';
  return {
    eventId,
    mailbox,
    calendar: found.calendarName,
    subject: event.subject ?? '',
    organizer: [organizer?.name, organizer?.address ? `<${organizer.address}>` : ''].filter(Boolean).join(' '),
    attendees: (event.attendees ?? []).map((a) => ({
      name: a.emailAddress?.name ?? '',
      address: a.emailAddress?.address ?? '',
      type: ATTENDEE_TYPES.find((t) => t === a.type) ?? 'required',
      response: a.status?.response ?? 'none',
    })),
    start: isoInstant(event.start),
    end: isoInstant(event.end),
    isAllDay: event.isAllDay ?? false,
    location: event.location?.displayName ?? '',
    body: event.body?.contentType === 'html' ? stripHtml(content) : content,
    attachments: files.map((f) => f.name),
    deletedAt: found.deletedAt?.toISOString() ?? null,
  };
}

/**
 * The event as an iCalendar file (a series whole, archive-data/mailbox-items.ts), refused as its
 * preview is.
 */
export async function eventFile(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  mailbox: string,
  eventId: string,
): Promise<{ fileName: string; content: string }> {
  await requireMailboxRead(ctx, connect, tenant, actor, mailbox, 'ediscovery.download');
  const found = await latestEventVersion(ctx.db, tenant.tenantId, mailbox, eventId);
  if (!found) throw notFound(NOT_ARCHIVED);
  const content = await archivedEventICalendar(ctx.db, storeAt, { tenantId: tenant.tenantId, mailbox }, eventId);
  if (content === undefined) throw notFound(NOT_ARCHIVED);
  return { fileName: eventFileName(found.subject), content };
}

/** An .ics file's name from the event's subject: characters no file system takes replaced, at most 80. */
export function eventFileName(subject: string): string {
  const base = subject
    .replace(/[\\/:*?"<>|\r\n\t]+/g, '_')
    .trim()
    .slice(0, 80);
  return `${base || 'event'}.ics`;
}
