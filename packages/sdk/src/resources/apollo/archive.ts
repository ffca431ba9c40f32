/**
 * Apollo archive browsing, outside eDiscovery: a mailbox's archived mail by folder (paged, sorted,
 * filtered), one archived item with its headers, attachments and text, a mailbox's archived calendar
 * events, contacts and To Do tasks (each with its versions, an event as .ics, a contact as .vcf), and
 * the Teams archive's teams,
 * channels and chats with their messages threaded (replies under their post). Mail follows
 * eDiscovery's rule: only the mailboxes the caller may read (their own and those a proxy right gives
 * them); a chat is readable when one of its members' mailboxes is; channel messages are open to the
 * people who act for the organisation. Downloads and restores are legacy email's
 * (`fullRestoreDownload`, `restore`).
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { ArchiveItemId, page } from '../common.js';
import { TeamsArchiveNode } from '../legacy/teams.js';

/** Schema of the body of `POST /api/{tenantId}/archive/mail/browse`. */
export const ArchivedMailBrowse = s.object({
  mailboxId: s.string({ minLength: 1, maxLength: 256, description: 'The archived mailbox.' }),
  folder: s.optional(
    s.string({ maxLength: 400, description: 'Only this folder (its path, such as Inbox/Orders); default all.' }),
  ),
  search: s.optional(s.string({ maxLength: 200, description: 'Words found in the subject or the sender.' })),
  from: s.optional(s.dateTime('Sent at or after.')),
  to: s.optional(s.dateTime('Sent before.')),
  attachments: s.optional(s.boolean('Only mails with (true) or without (false) attachments.')),
  sort: s.optional(s.oneOfStrings(['subject', 'sender', 'sentAt', 'sizeBytes'], 'Default sentAt.')),
  order: s.optional(s.oneOfStrings(['asc', 'desc'], 'Default desc.')),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
/**
 * Which archived mails of a mailbox to list: a folder (default all), words of the subject or sender,
 * when they were sent (`from` inclusive, `to` exclusive), with or without attachments, the order
 * (default newest first) and the page (`pageSize` at most 500).
 */
export type ArchivedMailBrowse = s.Static<typeof ArchivedMailBrowse>;

/** Schema of one mail in the answer of `POST /api/{tenantId}/archive/mail/browse`. */
export const ArchivedMail = s.object({
  itemId: s.string(),
  folder: s.string(),
  subject: s.string(),
  sender: s.string(),
  recipients: s.string(),
  sentAt: s.nullable(s.dateTime()),
  sizeBytes: s.integer({ minimum: 0 }),
  hasAttachments: s.boolean(),
});
/** An archived mail as a mailbox's list shows it: folder, subject, sender, recipients, time sent, size. */
export type ArchivedMail = s.Static<typeof ArchivedMail>;

/** Schema of an attachment of an archived mail or Teams message. */
export const ArchivedAttachment = s.object({
  name: s.string(),
  contentType: s.string(),
  sizeBytes: s.nullable(s.integer({ minimum: 0, description: 'Null when the archive holds a link only.' })),
  url: s.nullable(
    s.string({ description: "A Teams file's address in SharePoint or OneDrive (the archive keeps the link)." }),
  ),
});
/**
 * An attachment: its name, media type, size (null for a Teams file the message only links to) and,
 * for such a file, its address in Microsoft 365.
 */
export type ArchivedAttachment = s.Static<typeof ArchivedAttachment>;

/** Schema of the answer of `GET /api/{tenantId}/archive/items/{itemId}`. */
export const ArchivedItem = s.object({
  itemId: s.string(),
  kind: s.oneOfStrings(['mail', 'teams', 'chat']),
  source: s.string({ description: 'The mailbox, team or chat.' }),
  sourceName: s.string(),
  container: s.string({ description: 'The mail folder, the channel or the chat.' }),
  subject: s.string(),
  from: s.string(),
  to: s.string(),
  cc: s.string(),
  sentAt: s.nullable(s.dateTime()),
  sizeBytes: s.integer({ minimum: 0 }),
  attachments: s.array(ArchivedAttachment),
  body: s.string({ description: 'Plain text (show it as text, not HTML).' }),
});
/**
 * An archived mail or Teams message to read: where it is (by name), its subject, sender, recipients
 * (`to`, `cc`), time sent, size, attachments and its text as plain text. A mail of a mailbox the
 * caller may not read is refused with 403; a chat no member's mailbox of the caller's opens is 404.
 */
export type ArchivedItem = s.Static<typeof ArchivedItem>;

/** Schema of the kinds of mailbox item the archive keeps beside mail. */
export const MailboxItemKind = s.oneOfStrings(
  ['event', 'contact', 'task'],
  'A calendar event, a contact or a To Do task.',
);
/** A calendar event, a contact or a To Do task of a mailbox, as the Exchange archive keeps them beside mail. */
export type MailboxItemKind = s.Static<typeof MailboxItemKind>;

/** Schema of the body of `POST /api/{tenantId}/archive/mailbox-items/browse`. */
export const ArchivedMailboxItemsBrowse = s.object({
  mailboxId: s.string({ minLength: 1, maxLength: 256, description: 'The archived mailbox.' }),
  kind: MailboxItemKind,
  search: s.optional(
    s.string({
      maxLength: 200,
      description:
        "Words found in the title (an event's subject, a contact's name or e-mail, a task's title) or its container.",
    }),
  ),
  container: s.optional(
    s.string({ maxLength: 400, description: 'Only this calendar, contact folder (its path) or To Do list, by name.' }),
  ),
  deleted: s.optional(s.boolean('Only items deleted in the mailbox since (true) or still there (false).')),
  sort: s.optional(
    s.oneOfStrings(
      ['title', 'container', 'start', 'due', 'status', 'email', 'versions', 'archivedAt'],
      'Default title; start applies to events, due and status to tasks, email to contacts.',
    ),
  ),
  order: s.optional(s.oneOfStrings(['asc', 'desc'], 'Default asc.')),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
/**
 * Which archived calendar events, contacts or To Do tasks of a mailbox to list: words of the title or
 * container, one container, deleted or not, the order (default by title) and the page (`pageSize` at
 * most 500). A sort that does not apply to the kind (`due` for contacts) is refused with 400.
 */
export type ArchivedMailboxItemsBrowse = s.Static<typeof ArchivedMailboxItemsBrowse>;

/** Schema of one item in the answer of `POST /api/{tenantId}/archive/mailbox-items/browse`. */
export const ArchivedMailboxItemRow = s.object({
  itemId: s.string({ description: "The item's id in Microsoft 365 (Graph's id)." }),
  kind: MailboxItemKind,
  title: s.string({ description: "An event's subject, a contact's display name, a task's title." }),
  container: s.string({ description: 'The calendar, the contact folder (its path) or the To Do list.' }),
  start: s.nullable(s.dateTime('An event: when it starts (null for other kinds).')),
  end: s.nullable(s.dateTime('An event: when it ends.')),
  organizer: s.nullable(s.string({ description: "An event: the organiser's name or address." })),
  attendees: s.nullable(s.integer({ minimum: 0, description: 'An event: how many attendees it has.' })),
  email: s.nullable(s.string({ description: "A contact: its first e-mail address ('' when none)." })),
  status: s.nullable(s.string({ description: "A task: Graph's status (notStarted, inProgress, completed…)." })),
  due: s.nullable(s.dateTime('A task: when it is due.')),
  versions: s.integer({ minimum: 1, description: 'How many versions the archive keeps.' }),
  deleted: s.boolean('Whether the item was deleted in the mailbox since it was archived.'),
  deletedAt: s.nullable(s.dateTime('When the archive saw it deleted.')),
  archivedAt: s.dateTime('When its latest version was archived.'),
});
/**
 * An archived calendar event, contact or To Do task as a mailbox's list shows it, from its latest
 * version: title, container, an event's start, end, organiser and attendee count, a contact's e-mail, a
 * task's status and due date, how many versions are kept, whether and when it was deleted since, and
 * when it was last archived. Fields of another kind are null.
 */
export type ArchivedMailboxItemRow = s.Static<typeof ArchivedMailboxItemRow>;

/** Schema of a person of an archived event: the organiser or an attendee. */
export const ArchivedEventPerson = s.object({
  name: s.string(),
  address: s.string(),
  type: s.nullable(s.string({ description: 'An attendee: required, optional or resource.' })),
  response: s.nullable(
    s.string({ description: "An attendee's answer: accepted, tentativelyAccepted, declined, none, notResponded." }),
  ),
});
/** The organiser or an attendee of an archived event: name, address and, for an attendee, its type and answer. */
export type ArchivedEventPerson = s.Static<typeof ArchivedEventPerson>;

/** Schema of a recurring event's pattern, as Graph's patternedRecurrence gives it. */
export const ArchivedRecurrence = s.object({
  type: s.string({ description: 'daily, weekly, absoluteMonthly, relativeMonthly, absoluteYearly or relativeYearly.' }),
  interval: s.integer({ minimum: 0 }),
  daysOfWeek: s.array(s.string()),
  dayOfMonth: s.integer({ minimum: 0 }),
  month: s.integer({ minimum: 0 }),
  index: s.nullable(s.string({ description: 'first, second, third, fourth or last (relative patterns).' })),
  range: s.string({ description: 'endDate, noEnd or numbered.' }),
  startDate: s.nullable(s.date('The first day of the series.')),
  endDate: s.nullable(s.date('The last day (an endDate range).')),
  occurrences: s.integer({ minimum: 0, description: 'How many occurrences (a numbered range).' }),
});
/** How an archived series repeats: its pattern (type, interval, days, month) and its range. */
export type ArchivedRecurrence = s.Static<typeof ArchivedRecurrence>;

/** Schema of an archived event's fields. */
export const ArchivedEventFields = s.object({
  subject: s.string(),
  eventType: s.string({ description: 'singleInstance, occurrence, exception or seriesMaster.' }),
  organizer: s.nullable(ArchivedEventPerson),
  attendees: s.array(ArchivedEventPerson),
  start: s.nullable(s.dateTime()),
  end: s.nullable(s.dateTime()),
  isAllDay: s.boolean(),
  timeZone: s.string({ description: 'The time zone the organiser created it in (originalStartTimeZone).' }),
  location: s.string(),
  recurrence: s.nullable(ArchivedRecurrence),
  body: s.string({ description: 'Plain text (show it as text, not HTML).' }),
  attachments: s.array(ArchivedAttachment),
});
/**
 * An archived event: subject, type, organiser, attendees with their answers, start and end (UTC), all
 * day or not, the organiser's time zone, location, the series' pattern (null for a single event), its
 * text and the file attachments the archive keeps.
 */
export type ArchivedEventFields = s.Static<typeof ArchivedEventFields>;

/** Schema of an archived contact's postal address. */
export const ArchivedContactAddress = s.object({
  kind: s.oneOfStrings(['business', 'home', 'other']),
  street: s.string(),
  city: s.string(),
  state: s.string(),
  postalCode: s.string(),
  countryOrRegion: s.string(),
});
/** A postal address of an archived contact: business, home or other, by its parts. */
export type ArchivedContactAddress = s.Static<typeof ArchivedContactAddress>;

/** Schema of an archived contact's fields. */
export const ArchivedContactFields = s.object({
  displayName: s.string(),
  givenName: s.string(),
  middleName: s.string(),
  surname: s.string(),
  emails: s.array(s.object({ name: s.string(), address: s.string() })),
  phones: s.array(s.object({ kind: s.oneOfStrings(['business', 'home', 'mobile']), number: s.string() })),
  addresses: s.array(ArchivedContactAddress),
  companyName: s.string(),
  department: s.string(),
  jobTitle: s.string(),
  birthday: s.nullable(s.dateTime()),
  notes: s.string(),
});
/** An archived contact: names, e-mail addresses, phone numbers, postal addresses, company, birthday and notes. */
export type ArchivedContactFields = s.Static<typeof ArchivedContactFields>;

/** Schema of an archived To Do task's fields. */
export const ArchivedTaskFields = s.object({
  title: s.string(),
  status: s.string({ description: 'notStarted, inProgress, completed, waitingOnOthers or deferred.' }),
  importance: s.string({ description: 'low, normal or high.' }),
  due: s.nullable(s.dateTime()),
  completed: s.nullable(s.dateTime()),
  body: s.string({ description: 'Plain text (show it as text, not HTML).' }),
  checklist: s.array(s.object({ displayName: s.string(), isChecked: s.boolean() })),
});
/** An archived To Do task: title, status, importance, due and completion dates, text and checklist. */
export type ArchivedTaskFields = s.Static<typeof ArchivedTaskFields>;

/** Schema of one version in the answer of `POST /api/{tenantId}/archive/mailbox-items/item`. */
export const ArchivedMailboxItemVersion = s.object({
  version: s.integer({ minimum: 1 }),
  title: s.string(),
  archivedAt: s.dateTime(),
  deletedAt: s.nullable(s.dateTime('Set on the latest version of an item deleted since.')),
  sizeBytes: s.integer({ minimum: 0 }),
});
/** A kept version of an archived mailbox item: its number, title then, when it was archived, and its size. */
export type ArchivedMailboxItemVersion = s.Static<typeof ArchivedMailboxItemVersion>;

/** Schema of the answer of `POST /api/{tenantId}/archive/mailbox-items/item`. */
export const ArchivedMailboxItem = s.object({
  itemId: s.string(),
  kind: MailboxItemKind,
  mailboxId: s.string(),
  container: s.string({ description: 'The calendar, contact folder (its path) or To Do list of the version shown.' }),
  version: s.integer({ minimum: 1, description: 'The version whose fields are shown.' }),
  jobId: s.nullable(
    s.string({ description: 'The archive job that kept its latest version: a restore job restores from it.' }),
  ),
  deleted: s.boolean(),
  deletedAt: s.nullable(s.dateTime()),
  versions: s.array(ArchivedMailboxItemVersion, { description: 'Newest first.' }),
  event: s.nullable(ArchivedEventFields),
  contact: s.nullable(ArchivedContactFields),
  task: s.nullable(ArchivedTaskFields),
});
/**
 * An archived calendar event, contact or To Do task to read: one of its versions (the latest unless
 * asked) with the fields of its kind (`event`, `contact` or `task`; the others null), whether it was
 * deleted since, every version kept (newest first), and the archive job a restore takes it from. An
 * item of a mailbox the caller may not read is refused with 403.
 */
export type ArchivedMailboxItem = s.Static<typeof ArchivedMailboxItem>;

const mailboxItemRef = {
  mailboxId: s.string({ minLength: 1, maxLength: 256, description: 'The archived mailbox.' }),
  itemId: s.string({ minLength: 1, maxLength: 512, description: "The item's id in Microsoft 365 (Graph's id)." }),
};

/** Schema of an archived Teams message in a thread. */
export const TeamsPost = s.object({
  itemId: s.string(),
  author: s.string({ description: "The author's name." }),
  created: s.nullable(s.dateTime()),
  subject: s.nullable(s.string()),
  body: s.string({ description: 'Plain text (show it as text, not HTML).' }),
  attachments: s.array(ArchivedAttachment),
});
/** An archived Teams message: author's name, time, subject (null when none), text and attachments. */
export type TeamsPost = s.Static<typeof TeamsPost>;

/** Schema of one thread in the answer of `GET /api/{tenantId}/archive/teams/threads`. */
export const TeamsThread = s.object({
  post: TeamsPost,
  replies: s.array(TeamsPost, { description: 'Oldest first.' }),
});
/** A post of a channel or chat with its replies, oldest first. */
export type TeamsThread = s.Static<typeof TeamsThread>;

/**
 * The catalogue entries of apollo archive browsing: a mailbox's mail (`browseMail`), one item
 * (`item`), a mailbox's calendar events, contacts and To Do tasks (`browseMailboxItems`), one of them
 * with its versions (`mailboxItem`) and as a standard file (`mailboxItemFile`, .ics or .vcf), the
 * Teams archive's teams, channels and readable chats (`teams`) and a channel's or chat's threads
 * (`teamsThreads`) under `/api/{tenantId}/archive/`. {@link archiveApi} binds them.
 */
export const archiveEndpoints = defineResource('apollo', 'archive', {
  browseMail: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/archive/mail/browse',
    scope: { tenant: 'path' },
    summary: "A mailbox's archived mail, by folder",
    body: ArchivedMailBrowse,
    response: page(ArchivedMail),
    refusals: { 403: "The caller may not read the mailbox's archive (no proxy right)." },
  },
  item: {
    method: 'GET',
    path: '/api/{tenantId}/archive/items/{itemId}',
    scope: { tenant: 'path' },
    summary: 'An archived mail or Teams message with its headers and attachments',
    params: s.object({ tenantId: s.string({ minLength: 1, maxLength: 200 }), itemId: ArchiveItemId }),
    response: ArchivedItem,
    refusals: { 403: 'A mail of a mailbox the caller may not read (no proxy right).' },
  },
  browseMailboxItems: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/archive/mailbox-items/browse',
    scope: { tenant: 'path' },
    summary: "A mailbox's archived calendar events, contacts or To Do tasks, each by its latest version",
    body: ArchivedMailboxItemsBrowse,
    response: page(ArchivedMailboxItemRow),
    refusals: { 403: "The caller may not read the mailbox's archive (no proxy right)." },
  },
  mailboxItem: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/archive/mailbox-items/item',
    scope: { tenant: 'path' },
    summary: 'An archived calendar event, contact or To Do task with its fields and its versions',
    body: s.object({
      ...mailboxItemRef,
      kind: MailboxItemKind,
      version: s.optional(s.integer({ minimum: 1, description: 'The version to show; default the latest.' })),
    }),
    response: ArchivedMailboxItem,
    refusals: {
      403: "The caller may not read the mailbox's archive (no proxy right).",
      404: 'The mailbox keeps no such item (or no such version of it).',
    },
  },
  mailboxItemFile: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/archive/mailbox-items/file',
    scope: { tenant: 'path' },
    summary: 'An archived event as iCalendar (.ics) or an archived contact as vCard 4.0 (.vcf)',
    body: s.object({
      ...mailboxItemRef,
      kind: s.oneOfStrings(
        ['event', 'contact'],
        'An event (.ics, its whole series for a recurring one) or a contact (.vcf).',
      ),
    }),
    responseKind: 'blob',
    contentTypes: ['text/calendar', 'text/vcard'],
    refusals: {
      403: "The caller may not read the mailbox's archive (no proxy right).",
      404: 'The mailbox keeps no such event or contact.',
    },
  },
  teams: {
    method: 'GET',
    path: '/api/{tenantId}/archive/teams',
    scope: { tenant: 'path' },
    summary: 'Archived teams with their channels, and the archived chats the caller may read',
    response: s.array(TeamsArchiveNode),
  },
  teamsThreads: {
    method: 'GET',
    path: '/api/{tenantId}/archive/teams/threads',
    scope: { tenant: 'path' },
    summary: "A channel's or chat's archived messages, threaded",
    query: s.object({
      source: s.string({ minLength: 1, maxLength: 256, description: 'The team or the chat.' }),
      channel: s.optional(s.string({ maxLength: 400, description: "A team's channel, by its name." })),
      page: s.optional(s.integer({ minimum: 1 })),
      pageSize: s.optional(s.integer({ minimum: 1, maximum: 100, description: 'Threads per page; default 20.' })),
    }),
    response: page(TeamsThread),
    refusals: { 404: 'The team, channel or chat has nothing archived the caller may read.' },
  },
});

/**
 * Binds apollo archive browsing to a transport: a mailbox's archived mail by folder, one archived
 * item, the Teams archive's teams, channels and chats, and their threads. The same methods as
 * `client.apollo.archive`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function archiveApi(transport: Transport) {
  return bindResource(transport, archiveEndpoints);
}
