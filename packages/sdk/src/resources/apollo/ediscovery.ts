/**
 * Apollo eDiscovery: search across archived mail and Teams messages, an item's preview, cases and
 * their legal hold. An addition to the portal's original contract (which names the /ediscovery/portal
 * screen without its calls). Mail is searched only in the mailboxes the caller may read: their own
 * and those a proxy right gives them (directly or through a group). A legal hold keeps everything of
 * its case's custodians that the case's search finds, whoever placed it, and is placed and released by
 * eDiscovery managers only.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { EDISCOVERY_LIMITS } from '../../limits.js';
import { ArchiveItemId } from '../common.js';

/**
 * A list of ids of the tenant's mailboxes, teams or accounts, as a search or a case names them: its
 * limits are the schema's own (`maxItems`, `maxLength`), and an id that is not the tenant's is the
 * endpoint's 404. The description is given as it is, so the PWA's build can drop it with the rest of
 * the catalogue's documentation.
 */
const idList = (description: string) =>
  s.optional(
    s.array(s.string({ minLength: 1, maxLength: EDISCOVERY_LIMITS.idLength }), {
      maxItems: EDISCOVERY_LIMITS.idsPerList,
      description,
    }),
  );

/** Schema of the body of `POST /api/{tenantId}/ediscovery/search`, and of a case's saved search. */
export const EdiscoverySearch = s.object({
  query: s.string({
    maxLength: 1000,
    description: 'Words, "phrases", AND/OR/NOT, from:, to:, subject:, has:attachment.',
  }),
  kinds: s.optional(
    s.array(s.oneOfStrings(['mail', 'teams', 'events']), {
      uniqueItems: true,
      minItems: 1,
      description:
        "What to search: mail, Teams messages, the mailboxes' archived calendar events. Absent: mail and Teams " +
        'messages (events only when named, so a search saved before they were archived keeps its meaning).',
    }),
  ),
  mailboxes: idList("Only these mailboxes (Graph user ids); a case's mailbox custodians."),
  teams: idList("Only these teams' channel messages (Graph team ids); a case's team custodians."),
  chats: idList(
    "Only the Teams chats these accounts are members of (Graph user ids); a case's chat custodians. Absent: the chats of the mailboxes searched, none when teams are named.",
  ),
  from: s.optional(s.dateTime('Sent (an event: starting) at or after.')),
  to: s.optional(
    s.dateTime('Sent (an event: starting) before. Not before `from`: a range given backwards is refused with 400.'),
  ),
  sort: s.optional(s.oneOfStrings(['relevance', 'date'])),
  order: s.optional(s.oneOfStrings(['asc', 'desc'])),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
/**
 * An eDiscovery search over archived mail, Teams messages and, when `kinds` names `events`, the calendar
 * events archived with the mailboxes searched: the query (words, "phrases", AND/OR/NOT,
 * `from:`, `to:`, `subject:`, `has:attachment`; at most 1000 characters), which kinds, mailboxes, teams
 * and chat accounts to search (default all the caller may read; at most 100 ids of at most 256
 * characters each, every one the tenant's, else 404), a time range (`from` inclusive, `to` exclusive),
 * the order (default by relevance) and the page (`pageSize` at most 500).
 *
 * Events are searched where it makes sense: in the same mailboxes as mail (those the caller may read,
 * narrowed by `mailboxes`; never through `teams` or `chats`), each event once as it was last archived
 * (a deleted one too), single events, occurrences and exceptions of a series (its master is not a hit
 * of its own; its occurrences are). Of the query, `subject:` matches an event's subject, `from:` its
 * organiser, `to:` its attendees (name or address), `has:attachment` an event with attachments, and
 * words, "phrases", OR and NOT its subject, location, organiser and attendees (an event's body is not
 * searched); `from` and `to` bound its start.
 */
export type EdiscoverySearch = s.Static<typeof EdiscoverySearch>;

/** Schema of one hit in the answer of `POST /api/{tenantId}/ediscovery/search`. */
export const EdiscoveryHit = s.object({
  itemId: s.string({ description: "An event's Graph id; the archive's id of a mail or message." }),
  kind: s.oneOfStrings(['mail', 'teams', 'event'], 'event only when the search names `events` among its kinds.'),
  source: s.string({ description: 'The mailbox, team or chat.' }),
  sourceName: s.string(),
  container: s.string({ description: 'The mail folder path, the channel or the calendar; empty for a chat.' }),
  chat: s.optional(s.boolean('A Teams chat message: source is the chat, sourceName its topic or members.')),
  subject: s.string(),
  sender: s.string({ description: "The sender; an event's organiser." }),
  recipients: s.string({ description: "The recipients; an event's attendees." }),
  sentAt: s.nullable(s.dateTime("When it was sent; an event's start.")),
  endsAt: s.optional(s.nullable(s.dateTime("An event's end (events only)."))),
  sizeBytes: s.integer({ minimum: 0 }),
  hasAttachments: s.boolean(),
  snippet: s.string({
    description:
      'HTML: the text around the hits (or, for a search without words, the start of the text), with every ' +
      '& < > " \' of the archived text escaped as &amp; &lt; &gt; &quot; &#39;; its only markup is <mark> and ' +
      '</mark> around each hit. Insert it as HTML as it is, or split it at <mark> and </mark> and decode those ' +
      'five entities to show it as text; never unescape it and then insert it as HTML.',
  }),
});
/**
 * One archived mail, Teams message or calendar event that matches a search: where it is (mailbox, team
 * or chat, and the folder, channel or calendar), its subject, sender, recipients, time sent and size in
 * bytes, and a snippet of escaped HTML with the hits in `<mark>` (insert it as HTML as it is, never
 * unescaped). `itemId` opens a mail or message with `preview`. An event (`kind: 'event'`) has its
 * organiser as `sender`, its attendees as `recipients`, its start as `sentAt` and its end as `endsAt`;
 * `eventPreview` and `eventFile` open it by its mailbox (`source`) and Graph id (`itemId`).
 */
export type EdiscoveryHit = s.Static<typeof EdiscoveryHit>;

/** Schema of the answer of `POST /api/{tenantId}/ediscovery/search`. */
export const EdiscoveryResult = s.object({
  items: s.array(EdiscoveryHit),
  total: s.integer({ minimum: 0, description: 'Hits over all pages.' }),
  page: s.integer({ minimum: 1 }),
  pageSize: s.integer({ minimum: 1 }),
  searchedMailboxes: s.integer({ minimum: 0, description: 'Mailboxes the caller may read.' }),
});
/**
 * One page of a search's hits, with the hits over all pages (`total`) and how many mailboxes were
 * searched: the caller's own and those a proxy right lets them read.
 */
export type EdiscoveryResult = s.Static<typeof EdiscoveryResult>;

/** Schema of the answer of `GET /api/{tenantId}/ediscovery/items/{itemId}`. */
export const EdiscoveryPreview = s.object({
  itemId: s.string(),
  kind: s.oneOfStrings(['mail', 'teams']),
  subject: s.string(),
  sender: s.string(),
  recipients: s.string(),
  sentAt: s.nullable(s.dateTime()),
  body: s.string({ description: 'The text of the mail or message.' }),
});
/**
 * An archived mail or Teams message with its full text (`body`, plain text), subject, sender,
 * recipients and time sent. A mail of a mailbox the caller may not read is refused with 403.
 */
export type EdiscoveryPreview = s.Static<typeof EdiscoveryPreview>;

/** Schema of an attendee of an archived event. */
export const EdiscoveryAttendee = s.object({
  name: s.string(),
  address: s.string(),
  type: s.oneOfStrings(['required', 'optional', 'resource']),
  response: s.string({ description: "Graph's response status: none, accepted, tentativelyAccepted, declined…" }),
});
/** An attendee of an archived event: name, address, whether required, optional or a resource, and their answer. */
export type EdiscoveryAttendee = s.Static<typeof EdiscoveryAttendee>;

/** Schema of the answer of `GET /api/{tenantId}/ediscovery/mailboxes/{mailboxId}/events/{eventId}`. */
export const EdiscoveryEventPreview = s.object({
  eventId: s.string(),
  mailbox: s.string({ description: 'The mailbox (its Graph user id) whose calendar it is in.' }),
  calendar: s.string({ description: "The calendar's name." }),
  subject: s.string(),
  organizer: s.string({ description: 'The organiser, "name <address>".' }),
  attendees: s.array(EdiscoveryAttendee),
  start: s.nullable(s.dateTime()),
  end: s.nullable(s.dateTime()),
  isAllDay: s.boolean(),
  location: s.string(),
  body: s.string({ description: "The event's text (plain text)." }),
  attachments: s.array(s.string(), { description: "The names of the event's attachments." }),
  deletedAt: s.nullable(s.dateTime('When the archive saw it deleted in Microsoft 365; null while it is not.')),
});
/**
 * An archived calendar event as it was last archived: its mailbox and calendar, subject, organiser,
 * attendees with their answers, when (start and end, in UTC), location, text, attachment names and
 * whether it was deleted since. A mailbox the caller may not read is refused with 403, an event the
 * archive does not hold with 404.
 */
export type EdiscoveryEventPreview = s.Static<typeof EdiscoveryEventPreview>;

/** The path parameters naming an archived event of a mailbox. */
const eventParams = s.object({
  tenantId: s.string({ minLength: 1, maxLength: 200 }),
  mailboxId: s.string({ minLength: 1, maxLength: EDISCOVERY_LIMITS.idLength }),
  eventId: s.string({ minLength: 1, maxLength: 512 }),
});

/** The members of a custodian (kind, id, name), for the schemas that name custodians. */
export const custodianProperties = {
  kind: s.oneOfStrings(
    ['mailbox', 'team', 'chats'],
    'mailbox: its mail; team: its channel messages; chats: the Teams chats the account is a member of.',
  ),
  id: s.string({ description: 'The Graph id of the mailbox (its user), team or account.' }),
  name: s.string({ description: "The mailbox's or account's display name, the team's name; the id when unknown." }),
};

/** Schema of a case's custodian. */
export const EdiscoveryCustodian = s.object(custodianProperties);
/**
 * A custodian of a case: a mailbox (its mail), a team (its channel messages) or an account whose Teams
 * chats the case covers (`chats`), by id and by name.
 */
export type EdiscoveryCustodian = s.Static<typeof EdiscoveryCustodian>;

/** Schema of a custodian of a legal hold, with the items the hold keeps of it. */
export const EdiscoveryHeldCustodian = s.object({
  ...custodianProperties,
  items: s.integer({
    minimum: 0,
    description: 'Items of this custodian the hold keeps now (a chat message of two custodians counts for each).',
  }),
});
/** A custodian of a legal hold and how many of its archived items the hold keeps now. */
export type EdiscoveryHeldCustodian = s.Static<typeof EdiscoveryHeldCustodian>;

/** Schema of a case's legal hold. */
export const EdiscoveryHold = s.object({
  heldAt: s.dateTime(),
  heldBy: s.string({ description: 'Who put the case on hold.' }),
  items: s.integer({ minimum: 0, description: 'Archived items the hold keeps now.' }),
  custodians: s.array(EdiscoveryHeldCustodian, {
    description: 'The custodians the hold covers, frozen when it was placed, with the items it keeps of each.',
  }),
});
/**
 * A case's legal hold: since when (`heldAt`), by whom (`heldBy`), how many archived items it keeps
 * (`items`) and its custodians with the items it keeps of each: every item of those custodians that
 * the case's search finds, whether or not the person who placed it may read them, and those archived
 * since that match it. The custodians are frozen when the hold is placed. No deletion job removes a
 * held item while the case is held. Archived calendar events are not counted among its items: a
 * custodian's mailbox keeps all its archived events, contacts and tasks while a hold names it.
 */
export type EdiscoveryHold = s.Static<typeof EdiscoveryHold>;

/** A saved search: its name and criteria; its results are found again when read or exported. */
export const EdiscoveryCase = s.object({
  caseId: s.string(),
  name: s.string({ minLength: 1, maxLength: 120 }),
  search: EdiscoverySearch,
  createdBy: s.string(),
  createdAt: s.dateTime(),
  hits: s.integer({ minimum: 0, description: 'Hits when the case was saved.' }),
  custodians: s.array(EdiscoveryCustodian, {
    description: "The mailboxes, teams and chat accounts the case names (its search's lists); a hold needs one.",
  }),
  hold: s.nullable(EdiscoveryHold),
});
/**
 * A saved search (a case): its name, criteria, who saved it and when, the hits when saved (for who
 * saved it), its custodians by name, and its legal hold (null while it is not held).
 */
export type EdiscoveryCase = s.Static<typeof EdiscoveryCase>;

/** Schema of the body of `POST /api/{tenantId}/ediscovery/cases`. */
export const EdiscoveryCaseCreate = s.object({
  name: s.string({ minLength: 1, maxLength: 120 }),
  search: EdiscoverySearch,
});
/**
 * A search to save as a case, with the case's name (1 to 120 characters, unique in the tenant: a taken
 * name is refused with 409). The search's `mailboxes`, `teams` and `chats` are the case's custodians:
 * once one of them is given, the others not given are saved empty, so the case searches and holds
 * exactly its custodians. A tenant keeps at most 500 cases (409 `caseLimitReached`).
 */
export type EdiscoveryCaseCreate = s.Static<typeof EdiscoveryCaseCreate>;

/** Schema of the answer of `GET /api/{tenantId}/ediscovery/rights`. */
export const EdiscoveryRights = s.object({
  ediscoveryManager: s.boolean(
    "The caller is an eDiscovery manager: they place and release legal holds (granted on the organisation's users list).",
  ),
});
/** What the caller may do in eDiscovery beyond searching: whether they place and release legal holds. */
export type EdiscoveryRights = s.Static<typeof EdiscoveryRights>;

/**
 * The catalogue entries of apollo eDiscovery: `search`, `preview`, an event's `eventPreview` and
 * `eventFile`, the cases (`cases`, `createCase`,
 * `getCase`, `deleteCase`, `exportCase`, and their legal hold: `holdCase`, `releaseCase`) and the
 * caller's `rights` under `/api/{tenantId}/ediscovery/`. {@link ediscoveryApi} binds them.
 */
export const ediscoveryEndpoints = defineResource('apollo', 'ediscovery', {
  search: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/ediscovery/search',
    scope: { tenant: 'path' },
    summary: 'Search archived mail and Teams messages',
    body: EdiscoverySearch,
    response: EdiscoveryResult,
    refusals: { 404: "A mailbox, team or account named is not the tenant's." },
  },
  preview: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/items/{itemId}',
    scope: { tenant: 'path' },
    summary: "An archived item's text",
    params: s.object({ tenantId: s.string({ minLength: 1, maxLength: 200 }), itemId: ArchiveItemId }),
    response: EdiscoveryPreview,
  },
  eventPreview: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/mailboxes/{mailboxId}/events/{eventId}',
    scope: { tenant: 'path' },
    summary: 'An archived calendar event: organiser, attendees, when, location and text',
    params: eventParams,
    response: EdiscoveryEventPreview,
    refusals: { 403: 'The caller may not read the mailbox.' },
  },
  eventFile: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/mailboxes/{mailboxId}/events/{eventId}/ics',
    scope: { tenant: 'path' },
    summary: 'An archived calendar event as an iCalendar file (.ics); a series as a whole',
    params: eventParams,
    responseKind: 'blob',
    contentTypes: ['text/calendar'],
    refusals: { 403: 'The caller may not read the mailbox.' },
  },
  cases: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/cases',
    scope: { tenant: 'path' },
    summary: 'Saved searches (cases)',
    response: s.array(EdiscoveryCase),
  },
  createCase: {
    method: 'POST',
    path: '/api/{tenantId}/ediscovery/cases',
    scope: { tenant: 'path' },
    summary: 'Save a search as a case',
    body: EdiscoveryCaseCreate,
    response: EdiscoveryCase,
    successStatus: 201,
    refusals: {
      404: "A mailbox, team or account named is not the tenant's.",
      409: 'The tenant has a case of this name, or as many cases as it may keep (code caseLimitReached).',
    },
  },
  getCase: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}',
    scope: { tenant: 'path' },
    summary: 'One case',
    response: EdiscoveryCase,
  },
  deleteCase: {
    method: 'DELETE',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}',
    scope: { tenant: 'path' },
    summary: 'Delete a case (the archive keeps its items)',
    refusals: { 409: 'The case is on legal hold (code caseOnLegalHold): release it first.' },
  },
  holdCase: {
    method: 'POST',
    // Holding a held case changes nothing: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/ediscovery/cases/{caseId}/hold',
    scope: { tenant: 'path' },
    summary:
      "Put a case on legal hold: no deletion job removes its custodians' items its search finds until it is released",
    response: EdiscoveryCase,
    refusals: {
      403: 'The caller is not an eDiscovery manager (code ediscoveryManagerRequired).',
      409: 'The case names no custodian (code holdNeedsCustodians).',
    },
  },
  releaseCase: {
    method: 'DELETE',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}/hold',
    scope: { tenant: 'path' },
    summary: "Release a case's legal hold: deletion jobs may remove its items again",
    response: EdiscoveryCase,
    refusals: { 403: 'The caller is not an eDiscovery manager (code ediscoveryManagerRequired).' },
  },
  rights: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/rights',
    scope: { tenant: 'path' },
    summary: 'What the caller may do in eDiscovery: whether they place and release legal holds',
    response: EdiscoveryRights,
  },
  exportCase: {
    method: 'GET',
    path: '/api/{tenantId}/ediscovery/cases/{caseId}/export',
    scope: { tenant: 'path' },
    summary: "A case's results: mail as .eml, Teams messages as .json, events as .ics, and manifest.csv, in a ZIP",
    responseKind: 'blob',
    contentTypes: ['application/zip'],
  },
});

/**
 * Binds apollo eDiscovery to a transport: searching archived mail and Teams messages, an item's text,
 * and saved searches (cases) with their ZIP export (mail as .eml, Teams messages as .json, and
 * manifest.csv). The same methods as `client.apollo.ediscovery`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function ediscoveryApi(transport: Transport) {
  return bindResource(transport, ediscoveryEndpoints);
}
