/**
 * Archived calendar events, contacts and To Do tasks as the standard files other programs open: an
 * event as iCalendar (.ics, RFC 5545), a contact as vCard 4.0 (.vcf, RFC 6350) and a task as an
 * iCalendar VTODO, made from the JSON Graph gave (archive-data/mailbox-items.ts keeps it).
 *
 * An event: one VEVENT with its UID (Graph's iCalUId, which Outlook shares with the attendees' copies),
 * DTSTART and DTEND in UTC (as the archive reads times; VALUE=DATE for an all-day event), SUMMARY,
 * DESCRIPTION (the body as text), LOCATION, ORGANIZER and each ATTENDEE with its role and PARTSTAT.
 * A series: the master with its RRULE (from Graph's patternedRecurrence), an EXDATE for each cancelled
 * occurrence, and a VEVENT with RECURRENCE-ID for each moved one (an exception). File attachments go
 * inline (ATTACH, base64, with their type, FMTTYPE, and name, X-FILENAME as Outlook and Apple write it).
 */
import type {
  Attendee,
  Contact,
  DateTimeTimeZone,
  Event,
  PatternedRecurrence,
  PhysicalAddress,
  TodoTask,
} from '@microsoft/microsoft-graph-types';
import { stripHtml } from './mime.js';
import { instantOf as zonedInstant } from './time-zones.js';

/** An event's file attachment with its bytes. */
export interface IcsAttachment {
  name: string;
  contentType: string;
  content: Uint8Array;
}

// ——— Text as RFC 5545 and RFC 6350 write it ———

/** A TEXT value: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11, RFC 6350 3.4). */
const text = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** A parameter value, quoted when it holds a character a bare one cannot (RFC 5545 3.2). */
const param = (value: string) => {
  const clean = value.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');
  return /[;:,]/.test(clean) ? `"${clean}"` : clean;
};

/** Lines folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence, joined with CRLF. */
function folded(lines: readonly string[]): string {
  const out: string[] = [];
  for (const line of lines) {
    let rest = Buffer.from(line, 'utf8');
    let first = true;
    while (rest.length > (first ? 75 : 74)) {
      let cut = first ? 75 : 74;
      // A UTF-8 continuation byte (10xxxxxx) is not where a character starts.
      while (cut > 0 && ((rest[cut] ?? 0) & 0xc0) === 0x80) cut -= 1;
      out.push(`${first ? '' : ' '}${rest.subarray(0, cut).toString('utf8')}`);
      rest = rest.subarray(cut);
      first = false;
    }
    out.push(`${first ? '' : ' '}${rest.toString('utf8')}`);
  }
  return `${out.join('\r\n')}\r\n`;
}

// ——— iCalendar ———

/** An instant as a UTC DATE-TIME (20260105T090000Z). */
const utc = (at: Date) => `${at.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/** Graph's dateTimeTimeZone as an instant; the archive reads times in UTC. */
function instantOf(value: DateTimeTimeZone | null | undefined): Date | undefined {
  if (!value?.dateTime) return undefined;
  const at = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(value.dateTime) ? value.dateTime : `${value.dateTime}Z`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** DTSTART or DTEND: a DATE for an all-day event (its days in the calendar), a UTC DATE-TIME otherwise. */
function timeProperty(name: 'DTSTART' | 'DTEND', at: Date, allDay: boolean): string {
  if (allDay) return `${name};VALUE=DATE:${at.toISOString().slice(0, 10).replace(/-/g, '')}`;
  return `${name}:${utc(at)}`;
}

const DAYS: Record<string, string> = {
  sunday: 'SU',
  monday: 'MO',
  tuesday: 'TU',
  wednesday: 'WE',
  thursday: 'TH',
  friday: 'FR',
  saturday: 'SA',
};
/** Graph's weekIndex as BYSETPOS. */
const SET_POSITION: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, last: -1 };

/**
 * Graph's patternedRecurrence as an RRULE value; `start` is the series' first start, which an
 * end-date range's UNTIL keeps the time of (UNTIL in UTC, as DTSTART is).
 */
function rrule(recurrence: PatternedRecurrence, start: Date): string {
  const { pattern, range } = recurrence;
  const parts: string[] = [];
  const days = (pattern?.daysOfWeek ?? []).map((d) => DAYS[d] ?? '').filter(Boolean);
  const position = SET_POSITION[pattern?.index ?? 'first'] ?? 1;
  switch (pattern?.type) {
    case 'daily':
      parts.push('FREQ=DAILY');
      break;
    case 'weekly':
      parts.push('FREQ=WEEKLY');
      if (days.length) parts.push(`BYDAY=${days.join(',')}`);
      if (pattern.firstDayOfWeek) parts.push(`WKST=${DAYS[pattern.firstDayOfWeek] ?? 'SU'}`);
      break;
    case 'absoluteMonthly':
      parts.push('FREQ=MONTHLY', `BYMONTHDAY=${pattern.dayOfMonth ?? 1}`);
      break;
    case 'relativeMonthly':
      parts.push('FREQ=MONTHLY', `BYDAY=${days.join(',')}`, `BYSETPOS=${position}`);
      break;
    case 'absoluteYearly':
      parts.push('FREQ=YEARLY', `BYMONTH=${pattern.month ?? 1}`, `BYMONTHDAY=${pattern.dayOfMonth ?? 1}`);
      break;
    case 'relativeYearly':
      parts.push('FREQ=YEARLY', `BYMONTH=${pattern.month ?? 1}`, `BYDAY=${days.join(',')}`, `BYSETPOS=${position}`);
      break;
    default:
      throw new Error(`A recurrence of type "${pattern?.type}" has no RRULE.`);
  }
  if ((pattern.interval ?? 1) > 1) parts.push(`INTERVAL=${pattern.interval}`);
  if (range?.type === 'numbered' && range.numberOfOccurrences) parts.push(`COUNT=${range.numberOfOccurrences}`);
  if (range?.type === 'endDate' && range.endDate) {
    parts.push(`UNTIL=${utc(new Date(`${range.endDate}T${start.toISOString().slice(11, 19)}Z`))}`);
  }
  return parts.join(';');
}

/** Graph's attendee response as PARTSTAT (RFC 5545 3.2.12). */
const PARTSTAT: Record<string, string> = {
  accepted: 'ACCEPTED',
  tentativelyAccepted: 'TENTATIVE',
  declined: 'DECLINED',
  organizer: 'ACCEPTED',
  none: 'NEEDS-ACTION',
  notResponded: 'NEEDS-ACTION',
};
/** Graph's attendee type as ROLE (a resource, a room, is a non-participant with CUTYPE=RESOURCE). */
const ROLE: Record<string, string> = {
  required: 'REQ-PARTICIPANT',
  optional: 'OPT-PARTICIPANT',
  resource: 'NON-PARTICIPANT',
};

function attendeeLine(a: Attendee): string {
  const address = a.emailAddress?.address ?? '';
  const name = a.emailAddress?.name;
  const cuType = a.type === 'resource' ? ';CUTYPE=RESOURCE' : '';
  const role = ROLE[a.type ?? 'required'] ?? 'REQ-PARTICIPANT';
  const partstat = PARTSTAT[a.status?.response ?? 'none'] ?? 'NEEDS-ACTION';
  return `ATTENDEE${name ? `;CN=${param(name)}` : ''}${cuType};ROLE=${role};PARTSTAT=${partstat}:mailto:${address}`;
}

/** The body as text: Graph gives HTML unless asked otherwise. */
const description = (event: Event) => {
  const content = event.body?.content ?? '';
  return (event.body?.contentType === 'html' ? stripHtml(content) : content).trim();
};

/** The lines of one VEVENT. */
function veventLines(event: Event, uid: string, extra: { recurrenceId?: Date; attachments?: IcsAttachment[] }) {
  const start = instantOf(event.start);
  const end = instantOf(event.end);
  const allDay = event.isAllDay ?? false;
  const lines = ['BEGIN:VEVENT', `UID:${text(uid)}`];
  const stamp = event.lastModifiedDateTime ? new Date(event.lastModifiedDateTime) : new Date(0);
  lines.push(`DTSTAMP:${utc(stamp)}`);
  if (event.createdDateTime) lines.push(`CREATED:${utc(new Date(event.createdDateTime))}`);
  if (event.lastModifiedDateTime) lines.push(`LAST-MODIFIED:${utc(stamp)}`);
  if (extra.recurrenceId)
    lines.push(timeProperty('DTSTART', extra.recurrenceId, allDay).replace('DTSTART', 'RECURRENCE-ID'));
  if (start) lines.push(timeProperty('DTSTART', start, allDay));
  if (end) lines.push(timeProperty('DTEND', end, allDay));
  lines.push(`SUMMARY:${text(event.subject ?? '')}`);
  const body = description(event);
  if (body) lines.push(`DESCRIPTION:${text(body)}`);
  const location = event.location?.displayName;
  if (location) lines.push(`LOCATION:${text(location)}`);
  const organizer = event.organizer?.emailAddress;
  if (organizer?.address) {
    lines.push(`ORGANIZER${organizer.name ? `;CN=${param(organizer.name)}` : ''}:mailto:${organizer.address}`);
  }
  for (const attendee of event.attendees ?? []) lines.push(attendeeLine(attendee));
  if (event.sensitivity === 'private' || event.sensitivity === 'confidential') {
    lines.push(`CLASS:${event.sensitivity === 'private' ? 'PRIVATE' : 'CONFIDENTIAL'}`);
  }
  if (event.showAs === 'free') lines.push('TRANSP:TRANSPARENT');
  if ((event.categories ?? []).length > 0) lines.push(`CATEGORIES:${(event.categories ?? []).map(text).join(',')}`);
  if (event.isCancelled) lines.push('STATUS:CANCELLED');
  for (const a of extra.attachments ?? []) {
    lines.push(
      `ATTACH;FMTTYPE=${param(a.contentType || 'application/octet-stream')};X-FILENAME=${param(a.name)};ENCODING=BASE64;VALUE=BINARY:${Buffer.from(a.content).toString('base64')}`,
    );
  }
  return lines;
}

/**
 * The occurrence start a cancelled occurrence's id names: Graph's `OID.{master}.{yyyy-mm-dd}` gives
 * its date; the time is the series' start time (UTC).
 */
function cancelledStart(id: string, seriesStart: Date): Date | undefined {
  const date = /\.(\d{4}-\d{2}-\d{2})$/.exec(id)?.[1];
  if (!date) return undefined;
  return new Date(`${date}T${seriesStart.toISOString().slice(11, 23)}Z`);
}

/**
 * An event as an iCalendar object: a single event, or a series (its master with its exceptions and
 * cancelled occurrences: `exceptionOccurrences` and `cancelledOccurrences` as the archive reads a
 * master). `attachments`: the event's file attachments.
 */
export function eventToICalendar(event: Event, attachments: readonly IcsAttachment[] = []): string {
  const uid = event.iCalUId || event.id || '';
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Compliance Portal//Archive//EN', 'CALSCALE:GREGORIAN'];
  const vevent = veventLines(event, uid, { attachments: [...attachments] });
  const start = instantOf(event.start);
  if (event.type === 'seriesMaster' && event.recurrence && start) {
    const at = vevent.findIndex((l) => l.startsWith('SUMMARY:'));
    const series = [`RRULE:${rrule(event.recurrence, start)}`];
    for (const id of event.cancelledOccurrences ?? []) {
      const cancelled = cancelledStart(id, start);
      if (cancelled)
        series.push(timeProperty('DTSTART', cancelled, event.isAllDay ?? false).replace('DTSTART', 'EXDATE'));
    }
    vevent.splice(at, 0, ...series);
  }
  lines.push(...vevent, 'END:VEVENT');
  for (const exception of event.exceptionOccurrences ?? []) {
    const original = exception.originalStart ? new Date(exception.originalStart) : undefined;
    if (!original) continue;
    lines.push(...veventLines(exception, uid, { recurrenceId: original }), 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return folded(lines);
}

// ——— To Do tasks ———

/** To Do's status as a VTODO's STATUS (RFC 5545 3.8.1.11): waiting and deferred tasks still need action. */
const TODO_STATUS: Record<string, string> = {
  notStarted: 'NEEDS-ACTION',
  inProgress: 'IN-PROCESS',
  completed: 'COMPLETED',
  waitingOnOthers: 'NEEDS-ACTION',
  deferred: 'NEEDS-ACTION',
};
/** To Do's importance as PRIORITY (RFC 5545 3.8.1.9: 1 highest, 5 medium, 9 lowest). */
const TODO_PRIORITY: Record<string, number> = { high: 1, normal: 5, low: 9 };

/**
 * A To Do task as an iCalendar object: a VTODO with its UID (the task's id), SUMMARY, DESCRIPTION
 * (the body as text), STATUS, PRIORITY, DTSTART, DUE and COMPLETED (each instant in UTC, read in the
 * zone To Do gave it), CATEGORIES, RRULE (its recurrence, dated from its due date) and a VALARM at its
 * reminder. Its checklist items (steps) follow as VTODOs of their own, each RELATED-TO the task as
 * its parent (RFC 5545 3.8.4.5), completed when ticked.
 */
export function todoToICalendar(task: TodoTask): string {
  const uid = task.id ?? '';
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Compliance Portal//Archive//EN', 'CALSCALE:GREGORIAN'];
  lines.push('BEGIN:VTODO', `UID:${text(uid)}`);
  const modified = task.lastModifiedDateTime ? new Date(task.lastModifiedDateTime) : new Date(0);
  lines.push(`DTSTAMP:${utc(modified)}`);
  if (task.createdDateTime) lines.push(`CREATED:${utc(new Date(task.createdDateTime))}`);
  if (task.lastModifiedDateTime) lines.push(`LAST-MODIFIED:${utc(modified)}`);
  lines.push(`SUMMARY:${text(task.title ?? '')}`);
  const body = (
    task.body?.contentType === 'html' ? stripHtml(task.body?.content ?? '') : (task.body?.content ?? '')
  ).trim();
  if (body) lines.push(`DESCRIPTION:${text(body)}`);
  lines.push(`STATUS:${TODO_STATUS[task.status ?? 'notStarted'] ?? 'NEEDS-ACTION'}`);
  lines.push(`PRIORITY:${TODO_PRIORITY[task.importance ?? 'normal'] ?? 5}`);
  const start = zonedInstant(task.startDateTime);
  const due = zonedInstant(task.dueDateTime);
  const completed = zonedInstant(task.completedDateTime);
  if (start) lines.push(`DTSTART:${utc(start)}`);
  if (due) lines.push(`DUE:${utc(due)}`);
  if (completed) lines.push(`COMPLETED:${utc(completed)}`);
  if ((task.categories ?? []).length > 0) lines.push(`CATEGORIES:${(task.categories ?? []).map(text).join(',')}`);
  // An RRULE repeats from DTSTART: a task's recurrence from its due date, which is then its start too.
  if (task.recurrence && due) {
    if (!start) lines.push(`DTSTART:${utc(due)}`);
    lines.push(`RRULE:${rrule(task.recurrence, start ?? due)}`);
  }
  const reminder = task.isReminderOn ? zonedInstant(task.reminderDateTime) : undefined;
  if (reminder) {
    lines.push('BEGIN:VALARM', 'ACTION:DISPLAY', `DESCRIPTION:${text(task.title ?? '')}`);
    lines.push(`TRIGGER;VALUE=DATE-TIME:${utc(reminder)}`, 'END:VALARM');
  }
  lines.push('END:VTODO');
  for (const step of task.checklistItems ?? []) {
    lines.push('BEGIN:VTODO', `UID:${text(`${uid}-${step.id ?? ''}`)}`);
    lines.push(`DTSTAMP:${utc(step.createdDateTime ? new Date(step.createdDateTime) : modified)}`);
    lines.push(`SUMMARY:${text(step.displayName ?? '')}`, `RELATED-TO;RELTYPE=PARENT:${text(uid)}`);
    lines.push(`STATUS:${step.isChecked ? 'COMPLETED' : 'NEEDS-ACTION'}`);
    if (step.isChecked && step.checkedDateTime) lines.push(`COMPLETED:${utc(new Date(step.checkedDateTime))}`);
    lines.push('END:VTODO');
  }
  lines.push('END:VCALENDAR');
  return folded(lines);
}

// ——— vCard ———

const addressLine = (type: string, a: PhysicalAddress | null | undefined) => {
  if (!a || ![a.street, a.city, a.state, a.postalCode, a.countryOrRegion].some(Boolean)) return [];
  const fields = ['', '', a.street ?? '', a.city ?? '', a.state ?? '', a.postalCode ?? '', a.countryOrRegion ?? ''];
  return [`ADR;TYPE=${type}:${fields.map(text).join(';')}`];
};

/** A telephone number as a tel: URI (RFC 3966: no spaces), as vCard 4.0 prefers. */
const tel = (number: string) => `tel:${number.replace(/[^\d+*#;,=a-zA-Z-]/g, '-').replace(/-+/g, '-')}`;

/** A contact as a vCard 4.0 (RFC 6350). */
export function contactToVCard(contact: Contact): string {
  const lines = ['BEGIN:VCARD', 'VERSION:4.0'];
  const fn =
    contact.displayName || [contact.givenName, contact.surname].filter(Boolean).join(' ') || contact.companyName;
  lines.push(`FN:${text(fn ?? '')}`);
  const n = [contact.surname, contact.givenName, contact.middleName, contact.title, contact.generation];
  lines.push(`N:${n.map((p) => text(p ?? '')).join(';')}`);
  if (contact.nickName) lines.push(`NICKNAME:${text(contact.nickName)}`);
  for (const [index, e] of (contact.emailAddresses ?? []).entries()) {
    if (!e.address) continue;
    lines.push(`EMAIL;TYPE=work${index === 0 ? ';PREF=1' : ''}:${e.address}`);
  }
  for (const number of contact.businessPhones ?? []) lines.push(`TEL;VALUE=uri;TYPE="work,voice":${tel(number)}`);
  for (const number of contact.homePhones ?? []) lines.push(`TEL;VALUE=uri;TYPE="home,voice":${tel(number)}`);
  if (contact.mobilePhone) lines.push(`TEL;VALUE=uri;TYPE="cell,voice":${tel(contact.mobilePhone)}`);
  if (contact.companyName || contact.department) {
    lines.push(`ORG:${text(contact.companyName ?? '')}${contact.department ? `;${text(contact.department)}` : ''}`);
  }
  if (contact.jobTitle) lines.push(`TITLE:${text(contact.jobTitle)}`);
  lines.push(...addressLine('work', contact.businessAddress));
  lines.push(...addressLine('home', contact.homeAddress));
  lines.push(...addressLine('other', contact.otherAddress));
  // Graph's birthday is a DateTimeOffset; a vCard's BDAY a date.
  if (contact.birthday) lines.push(`BDAY:${contact.birthday.slice(0, 10).replace(/-/g, '')}`);
  if (contact.personalNotes) lines.push(`NOTE:${text(contact.personalNotes)}`);
  if (contact.businessHomePage) lines.push(`URL;TYPE=work:${contact.businessHomePage}`);
  if ((contact.categories ?? []).length > 0) {
    lines.push(`CATEGORIES:${(contact.categories ?? []).map(text).join(',')}`);
  }
  if (contact.id) lines.push(`UID:${text(contact.id)}`);
  if (contact.lastModifiedDateTime) lines.push(`REV:${utc(new Date(contact.lastModifiedDateTime))}`);
  lines.push('END:VCARD');
  return folded(lines);
}
