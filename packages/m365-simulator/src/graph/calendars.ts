/**
 * Calendars as Outlook serves them: a mailbox's calendars (the default one, others, a colleague's
 * shared with it), their events (single events and series masters), one event (an occurrence or
 * exception of a series too), the calendar view of a time window (series expanded into occurrences,
 * a moved occurrence as an exception, a cancelled one left out), a series' instances, calendar view
 * delta (its tokens carry the window), attachments with their bytes, and the writes a restore makes
 * (calendars, events in a calendar, file attachments; an event updated or deleted, an occurrence
 * moved or cancelled). Times are answered in UTC, or in the zone of
 * `Prefer: outlook.timezone`; bodies as HTML, or as text with `Prefer: outlook.body-content-type`.
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  PatternedRecurrence,
  SimAttachment,
  SimAttendee,
  SimCalendar,
  SimEvent,
  SimException,
} from '../mailbox-items.js';
import type { SimTenant, SimUser } from '../model.js';
import type { GraphAccess } from '../permissions.js';
import { itemNotFound, onMailbox } from './mail.js';
import { mimeTypeOf } from './mime.js';
import {
  delta,
  graphError,
  jsonBody,
  type ListOptions,
  page,
  type SimRequest,
  type SimResponse,
  tokenResource,
} from './odata.js';
import type { GraphCall, GraphRoute, RouteOptions } from './router.js';
import { dateIn, ianaZone, inZone, toInstant } from './timezones.js';

/** Outlook pages events and calendars up to 1,000. */
const OUTLOOK: ListOptions = { max: 1000 };

const NO_TIME = '0001-01-01T00:00:00Z';

const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value;

/** A calendar as a mailbox lists it, and where its events are: its own, or the sharing colleague's. */
interface CalendarView {
  calendar: SimCalendar;
  /** The mailbox whose events the calendar shows. */
  owner: SimUser;
  /** The calendar of `owner` holding them. */
  eventsCalendarId: string;
}

function calendarOf(tenant: SimTenant, user: SimUser, key: string | undefined): CalendarView | undefined {
  const calendar =
    key === undefined ? user.calendars.find((c) => c.isDefault) : user.calendars.find((c) => c.id === key);
  if (!calendar) return undefined;
  if (!calendar.sharedFrom) return { calendar, owner: user, eventsCalendarId: calendar.id };
  const owner = tenant.users.find((u) => u.id === calendar.sharedFrom);
  const theirs = owner?.calendars.find((c) => c.isDefault);
  return owner && theirs ? { calendar, owner, eventsCalendarId: theirs.id } : undefined;
}

const eventsOf = (view: CalendarView) =>
  [...view.owner.events.values()].filter((e) => e.calendarId === view.eventsCalendarId && !e.deleted);

const changeKeyOf = (id: string, changed: number) =>
  createHash('sha256').update(`${id}:${changed}`).digest('base64').slice(0, 24);

function calendarJson(tenant: SimTenant, user: SimUser, c: SimCalendar) {
  const owner = c.sharedFrom ? (tenant.users.find((u) => u.id === c.sharedFrom) ?? user) : user;
  const shared = Boolean(c.sharedFrom);
  return {
    id: c.id,
    name: c.name,
    color: 'auto',
    hexColor: '',
    isDefaultCalendar: c.isDefault,
    changeKey: changeKeyOf(c.id, 0),
    // A share recipient with read rights: neither shares it on nor edits it nor sees private items.
    canShare: !shared,
    canViewPrivateItems: !shared,
    canEdit: !shared,
    allowedOnlineMeetingProviders: ['teamsForBusiness'],
    defaultOnlineMeetingProvider: 'teamsForBusiness',
    isTallyingResponses: !shared,
    isRemovable: !c.isDefault,
    owner: { name: owner.displayName, address: owner.upn },
  };
}

// ——— Series ———

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const INDEXES = ['first', 'second', 'third', 'fourth'];
const DAY = 86_400_000;

/** Whether a date is the pattern's week of the month (`first` … `fourth`, `last`) for its weekday. */
function isWeekIndex(date: Date, index: string): boolean {
  const day = date.getUTCDate();
  if (index === 'last')
    return day + 7 > new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  return Math.ceil(day / 7) === INDEXES.indexOf(index) + 1;
}

/** The instants (ms) a series' pattern gives from its range's start, up to `until`, each with its date. */
function patternOccurrences(event: SimEvent, recurrence: PatternedRecurrence, until: number) {
  const { pattern, range } = recurrence;
  const zone = ianaZone(range.recurrenceTimeZone || event.startTimeZone)
    ? range.recurrenceTimeZone || event.startTimeZone
    : 'UTC';
  const startMs = Date.parse(event.start);
  const time = inZone(startMs, zone).dateTime.slice(11, 19);
  const first =
    /^\d{4}-\d{2}-\d{2}$/.test(range.startDate) && range.startDate !== '0001-01-01'
      ? range.startDate
      : dateIn(startMs, zone).date;
  const firstDay = Date.parse(`${first}T00:00:00Z`);
  const last =
    range.type === 'endDate' && range.endDate !== '0001-01-01'
      ? Date.parse(`${range.endDate}T00:00:00Z`)
      : Number.POSITIVE_INFINITY;
  const count = range.type === 'numbered' ? Math.max(0, range.numberOfOccurrences) : Number.POSITIVE_INFINITY;
  const interval = Math.max(1, pattern.interval || 1);
  const days = new Set((pattern.daysOfWeek ?? []).map((d) => WEEKDAYS.indexOf(d.toLowerCase())));
  const firstWeekday = Math.max(0, WEEKDAYS.indexOf((pattern.firstDayOfWeek || 'sunday').toLowerCase()));
  const start = new Date(firstDay);
  const weekStart = firstDay - ((start.getUTCDay() - firstWeekday + 7) % 7) * DAY;
  const months = (d: Date) =>
    (d.getUTCFullYear() - start.getUTCFullYear()) * 12 + d.getUTCMonth() - start.getUTCMonth();
  const matches = (d: Date, dayNumber: number): boolean => {
    switch (pattern.type) {
      case 'daily':
        return dayNumber % interval === 0;
      case 'weekly':
        return days.has(d.getUTCDay()) && Math.floor((d.getTime() - weekStart) / (7 * DAY)) % interval === 0;
      case 'absoluteMonthly':
        return d.getUTCDate() === pattern.dayOfMonth && months(d) % interval === 0;
      case 'relativeMonthly':
        return days.has(d.getUTCDay()) && isWeekIndex(d, pattern.index || 'first') && months(d) % interval === 0;
      case 'absoluteYearly':
        return (
          d.getUTCMonth() + 1 === pattern.month &&
          d.getUTCDate() === pattern.dayOfMonth &&
          (months(d) / 12) % interval === 0
        );
      case 'relativeYearly':
        return (
          d.getUTCMonth() + 1 === pattern.month &&
          days.has(d.getUTCDay()) &&
          isWeekIndex(d, pattern.index || 'first') &&
          Math.floor(months(d) / 12) % interval === 0
        );
      default:
        return false;
    }
  };
  const out: { at: number; date: string }[] = [];
  // Twenty years of days at most: a series without end is cut at `until` long before.
  for (let n = 0; n < 7320 && out.length < count; n++) {
    const day = firstDay + n * DAY;
    if (day > last) break;
    const d = new Date(day);
    if (!matches(d, n)) continue;
    const date = d.toISOString().slice(0, 10);
    const at = toInstant(`${date}T${time}`, zone) ?? day;
    if (at > until) break;
    out.push({ at, date });
  }
  return out;
}

/** One instance of the calendar: a single event, or an occurrence or exception of a series. */
interface Instance {
  event: SimEvent;
  type: 'singleInstance' | 'occurrence' | 'exception';
  id: string;
  start: number;
  end: number;
  originalStart?: number;
  exception?: SimException;
}

const occurrenceId = (masterId: string, date: string) => `${masterId}_${date.replace(/-/g, '')}`;

/** A series' occurrences and exceptions up to `until` (cancelled ones left out). */
function seriesInstances(event: SimEvent, until: number): Instance[] {
  if (!event.recurrence) return [];
  const duration = Date.parse(event.end) - Date.parse(event.start);
  const out: Instance[] = [];
  for (const { at, date } of patternOccurrences(event, event.recurrence, until)) {
    const original = new Date(at).toISOString();
    const exception = event.exceptions.find((x) => Date.parse(x.originalStart) === Date.parse(original));
    if (exception?.cancelled) continue;
    const start = exception?.start ? Date.parse(exception.start) : at;
    const end = exception?.end ? Date.parse(exception.end) : start + duration;
    out.push({
      event,
      type: exception ? 'exception' : 'occurrence',
      id: occurrenceId(event.id, date),
      start,
      end,
      originalStart: at,
      ...(exception ? { exception } : {}),
    });
  }
  return out;
}

/** The instances of events that overlap a window: singles as they are, series expanded. */
function instancesIn(events: SimEvent[], from: number, to: number): Instance[] {
  const out: Instance[] = [];
  for (const event of events) {
    if (event.recurrence) {
      // An exception may have moved an occurrence from before the window into it: expand a day on.
      out.push(...seriesInstances(event, to + DAY).filter((i) => i.start < to && i.end > from));
    } else {
      const start = Date.parse(event.start);
      const end = Date.parse(event.end);
      if (start < to && end > from) out.push({ event, type: 'singleInstance', id: event.id, start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
}

/** An event of the mailbox by id: a single event or series master, or an occurrence or exception of one. */
function findEvent(user: SimUser, id: string): { event: SimEvent; instance?: Instance } | undefined {
  const own = user.events.get(id);
  if (own) return own.deleted ? undefined : { event: own };
  const m = /^(.+)_(\d{4})(\d{2})(\d{2})$/.exec(id);
  const master = m ? user.events.get(m[1] ?? '') : undefined;
  if (!m || !master || master.deleted || !master.recurrence) return undefined;
  const date = `${m[2]}-${m[3]}-${m[4]}`;
  const until = Date.parse(`${date}T00:00:00Z`) + 2 * DAY;
  const instance = seriesInstances(master, until).find((i) => i.id === id);
  return instance ? { event: master, instance } : undefined;
}

// ——— JSON ———

/** What the request prefers: the zone of times and the type of bodies (Outlook's Prefer header). */
interface Preferences {
  timeZone?: string;
  bodyType?: 'text' | 'html';
}

function preferencesOf(request: SimRequest): Preferences {
  const prefer = request.headers.prefer ?? '';
  const zone = /outlook\.timezone\s*=\s*"([^"]+)"/i.exec(prefer)?.[1];
  const body = /outlook\.body-content-type\s*=\s*"?(text|html)"?/i.exec(prefer)?.[1]?.toLowerCase();
  return {
    ...(zone && ianaZone(zone) ? { timeZone: zone } : {}),
    ...(body === 'text' || body === 'html' ? { bodyType: body } : {}),
  };
}

/** Graph's `Preference-Applied` for what it honoured. */
function applied(preferences: Preferences): Record<string, string> {
  const parts = [
    ...(preferences.timeZone ? [`outlook.timezone="${preferences.timeZone}"`] : []),
    ...(preferences.bodyType ? [`outlook.body-content-type="${preferences.bodyType}"`] : []),
  ];
  return parts.length > 0 ? { 'preference-applied': parts.join(', ') } : {};
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An HTML body as Exchange stores one: a whole document around the content. */
const htmlDocument = (inner: string) =>
  `<html>\r\n<head>\r\n<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\r\n</head>\r\n<body>\r\n${inner}\r\n</body>\r\n</html>\r\n`;

const textOf = (body: SimEvent['body']) =>
  body.contentType === 'text'
    ? body.content
    : body.content
        .replace(/<head>[\s\S]*?<\/head>/i, '')
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<[^>]+>/g, '')
        .replace(/&nbsp;/g, ' ')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
        .trim();

function bodyAs(body: SimEvent['body'], type: 'text' | 'html') {
  if (type === 'text') return { contentType: 'text', content: textOf(body) };
  return {
    contentType: 'html',
    content:
      body.contentType === 'html' ? body.content : htmlDocument(escapeHtml(body.content).replace(/\n/g, '<br>\r\n')),
  };
}

/** Whether the caller reads events without their bodies (Calendars.ReadBasic and nothing more). */
function basicOnly(access: GraphAccess): boolean {
  const held = access.kind === 'application' ? access.roles : access.scopes;
  const full = ['Calendars.Read', 'Calendars.ReadWrite', 'Calendars.Read.Shared', 'Calendars.ReadWrite.Shared'];
  return !held.some((p) => full.includes(p));
}

/** How one answer renders events: for whose mailbox, in which zone and body type, with or without bodies. */
interface Rendering {
  owner: SimUser;
  preferences: Preferences;
  basic: boolean;
  /** The series' cancelled occurrences, which Graph gives only when `$select` names them. */
  cancelledOccurrences?: boolean;
}

function renderingOf(call: GraphCall, owner: SimUser): Rendering {
  const select = call.request.query.get('$select') ?? '';
  return {
    owner,
    preferences: preferencesOf(call.request),
    basic: basicOnly(call.access),
    cancelledOccurrences: /(^|,)\s*cancelledOccurrences\s*(,|$)/i.test(select),
  };
}

function locationJson(name: string) {
  return name
    ? { displayName: name, locationType: 'default', uniqueId: name, uniqueIdType: 'private' }
    : { displayName: '', locationType: 'default', uniqueIdType: 'unknown', address: {}, coordinates: {} };
}

const attendeeJson = (a: SimAttendee) => ({
  type: a.type,
  status: { response: a.response, time: a.responded ?? NO_TIME },
  emailAddress: { name: a.name, address: a.address },
});

function eventJson(render: Rendering, event: SimEvent, instance?: Instance) {
  const zone = render.preferences.timeZone ?? 'UTC';
  const id = instance?.id ?? event.id;
  const changeKey = changeKeyOf(id, event.changed);
  const master = Boolean(event.recurrence) && !instance;
  const subject = instance?.exception?.subject ?? event.subject;
  const type = instance ? instance.type : master ? 'seriesMaster' : 'singleInstance';
  const start = instance?.start ?? Date.parse(event.start);
  const end = instance?.end ?? Date.parse(event.end);
  const text = textOf(event.body).replace(/\s+/g, ' ').trim();
  const isOrganizer = event.organizer.address.toLowerCase() === render.owner.upn.toLowerCase();
  const cancelled =
    master && render.cancelledOccurrences
      ? {
          cancelledOccurrences: event.exceptions
            .filter((x) => x.cancelled)
            .map(
              (x) =>
                `OID.${event.id}.${dateIn(Date.parse(x.originalStart), event.recurrence?.range.recurrenceTimeZone || 'UTC').date}`,
            ),
        }
      : {};
  return {
    '@odata.etag': `W/"${changeKey}"`,
    id,
    createdDateTime: event.created,
    lastModifiedDateTime: event.modified,
    changeKey,
    categories: event.categories,
    transactionId: instance ? null : (event.transactionId ?? null),
    originalStartTimeZone: event.startTimeZone,
    originalEndTimeZone: event.endTimeZone,
    iCalUId: event.iCalUId,
    reminderMinutesBeforeStart: event.reminderMinutesBeforeStart,
    isReminderOn: event.isReminderOn,
    hasAttachments: event.attachments.length > 0,
    subject,
    ...(render.basic ? {} : { bodyPreview: text.slice(0, 255) }),
    importance: event.importance,
    sensitivity: event.sensitivity,
    isAllDay: event.isAllDay,
    isCancelled: false,
    isOrganizer,
    responseRequested: true,
    seriesMasterId: instance ? event.id : null,
    showAs: event.showAs,
    type,
    webLink: `https://outlook.office365.com/owa/?itemid=${encodeURIComponent(id)}&exvsurl=1&path=/calendar/item`,
    onlineMeetingUrl: null,
    isOnlineMeeting: false,
    onlineMeetingProvider: 'unknown',
    allowNewTimeProposals: true,
    isDraft: false,
    hideAttendees: false,
    ...(instance?.originalStart !== undefined ? { originalStart: new Date(instance.originalStart).toISOString() } : {}),
    recurrence: master ? (event.recurrence ?? null) : null,
    ...cancelled,
    responseStatus: {
      response: event.response,
      time: event.response === 'organizer' || event.response === 'none' ? NO_TIME : event.created,
    },
    ...(render.basic ? {} : { body: bodyAs(event.body, render.preferences.bodyType ?? 'html') }),
    start: inZone(start, zone),
    end: inZone(end, zone),
    location: locationJson(event.location),
    locations: event.location ? [locationJson(event.location)] : [],
    attendees: event.attendees.map(attendeeJson),
    organizer: { emailAddress: { name: event.organizer.name, address: event.organizer.address } },
    onlineMeeting: null,
  };
}

function attachmentJson(a: SimAttachment, withBytes = true) {
  return {
    '@odata.type': '#microsoft.graph.fileAttachment',
    '@odata.mediaContentType': a.contentType,
    id: a.id,
    lastModifiedDateTime: a.modified,
    name: a.name,
    contentType: a.contentType,
    size: a.content.length,
    isInline: a.isInline,
    contentId: null,
    contentLocation: null,
    ...(withBytes ? { contentBytes: Buffer.from(a.content).toString('base64') } : {}),
  };
}

// ——— Time windows ———

/** A query parameter by name without regard to case, as Outlook reads startDateTime and endDateTime. */
function queryValue(request: SimRequest, name: string): string | null {
  for (const [key, value] of request.query) if (key.toLowerCase() === name.toLowerCase()) return value;
  return null;
}

const WINDOW_MISSING =
  'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.';

/** A calendar view's window from startDateTime and endDateTime (UTC without an offset), or Outlook's 400. */
function windowOf(request: SimRequest): { from: number; to: number } | SimResponse {
  const start = queryValue(request, 'startDateTime');
  const end = queryValue(request, 'endDateTime');
  if (start === null || end === null) return graphError(400, 'ErrorInvalidParameter', WINDOW_MISSING);
  const from = toInstant(start, 'UTC');
  const to = toInstant(end, 'UTC');
  if (from === undefined)
    return graphError(400, 'ErrorInvalidParameter', `The value '${start}' of parameter 'StartDateTime' is invalid.`);
  if (to === undefined)
    return graphError(400, 'ErrorInvalidParameter', `The value '${end}' of parameter 'EndDateTime' is invalid.`);
  return { from, to };
}

// ——— Routes ———

/** A route on one calendar of a mailbox (`:calendar`, or the default one where the path has none). */
const onCalendar = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, user: SimUser, view: CalendarView) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  onMailbox(
    method,
    patterns,
    (call, user) => {
      const view = calendarOf(call.tenant, user, call.params.calendar);
      return view ? handle(call, user, view) : itemNotFound();
    },
    options,
  );

function calendarView(call: GraphCall, view: CalendarView): SimResponse {
  const window = windowOf(call.request);
  if (isAnswer(window)) return window;
  const render = renderingOf(call, view.owner);
  const answer = page(
    call.context,
    call.request,
    instancesIn(eventsOf(view), window.from, window.to),
    (i) => eventJson(render, i.event, i.type === 'singleInstance' ? undefined : i),
    OUTLOOK,
  );
  return { ...answer, headers: { ...answer.headers, ...applied(render.preferences) } };
}

/** A row of calendar view delta: an instance as it is now, or the id of one gone from the window. */
type DeltaRow = { instance: Instance } | { removed: string };

function calendarViewDelta(call: GraphCall, user: SimUser, view: CalendarView): SimResponse {
  const { request, tenant, context } = call;
  const prefix = `events:${user.id}:${view.calendar.id}:`;
  // The window comes with the first request, and afterwards from the token, which carries it.
  const token = request.query.get('$skiptoken') ?? request.query.get('$deltatoken');
  let from: number;
  let to: number;
  let resource: string;
  if (token !== null && token !== 'latest') {
    // A token of another calendar or user, or not the simulator's, stays unread: delta answers its 410.
    const issuedFor = tokenResource(tenant, request);
    const own = issuedFor?.startsWith(prefix) ? issuedFor : undefined;
    const [a = 0, b = 0] = (own?.slice(prefix.length) ?? '').split(':').map(Number);
    from = a;
    to = b;
    resource = own ?? `${prefix}not-issued-here`;
  } else {
    const window = windowOf(request);
    if (isAnswer(window)) return window;
    ({ from, to } = window);
    resource = `${prefix}${from}:${to}`;
  }
  const render = renderingOf(call, view.owner);
  const all = [...view.owner.events.values()].filter((e) => e.calendarId === view.eventsCalendarId);
  const answer = delta<DeltaRow>(context, request, tenant, {
    resource,
    style: 'outlook',
    max: 1000,
    inToken: ['startDateTime', 'endDateTime'],
    changes(after) {
      if (after < 0)
        return instancesIn(
          all.filter((e) => !e.deleted),
          from,
          to,
        ).map((instance) => ({ instance }));
      const changed = all.filter((e) => e.changed > after);
      const removed: DeltaRow[] = [];
      const live: DeltaRow[] = [];
      for (const event of changed) {
        const now = event.deleted ? [] : instancesIn([event], from, to);
        if (now.length > 0) live.push(...now.map((instance) => ({ instance })));
        else if (event.recurrence) {
          // A deleted series: each of its occurrences in the window is gone.
          for (const i of instancesIn([{ ...event, deleted: false }], from, to)) removed.push({ removed: i.id });
        } else removed.push({ removed: event.id });
      }
      return [...removed, ...live];
    },
    map: (row) =>
      'removed' in row
        ? { '@odata.type': '#microsoft.graph.event', id: row.removed, '@removed': { reason: 'deleted' } }
        : {
            '@odata.type': '#microsoft.graph.event',
            ...eventJson(render, row.instance.event, row.instance.type === 'singleInstance' ? undefined : row.instance),
          },
  });
  return { ...answer, headers: { ...answer.headers, ...applied(render.preferences) } };
}

/** An event of the path's mailbox, or Outlook's 404. */
const onEvent = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, user: SimUser, found: { event: SimEvent; instance?: Instance }) => SimResponse,
): GraphRoute[] =>
  onMailbox(method, patterns, (call, user) => {
    const found = findEvent(user, call.params.event ?? '');
    return found ? handle(call, user, found) : itemNotFound();
  });

// ——— Writes ———

const RESPONSES = ['none', 'organizer', 'tentativelyAccepted', 'accepted', 'declined', 'notResponded'];
const ATTENDEE_TYPES = ['required', 'optional', 'resource'];
const PATTERN_TYPES = ['daily', 'weekly', 'absoluteMonthly', 'relativeMonthly', 'absoluteYearly', 'relativeYearly'];
const RANGE_TYPES = ['endDate', 'noEnd', 'numbered'];

const invalid = (message: string) => graphError(400, 'ErrorInvalidRequest', message);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);

/** A dateTimeTimeZone of a request: its instant and zone, or Outlook's 400 naming the zone it does not know. */
function readDateTime(value: unknown, name: string): { at: number; zone: string } | SimResponse {
  if (!isObject(value) || typeof value.dateTime !== 'string')
    return invalid(`The event's ${name} is missing or not a dateTimeTimeZone.`);
  const zone = str(value.timeZone, 'UTC') || 'UTC';
  if (!ianaZone(zone)) {
    return graphError(
      400,
      'TimeZoneNotSupportedException',
      `A valid TimeZone value must be specified. The following TimeZone value is not supported: '${zone}'.`,
    );
  }
  const at = toInstant(value.dateTime, zone);
  return at === undefined ? invalid(`The ${name} dateTime '${value.dateTime}' is not a date-time.`) : { at, zone };
}

/** A patternedRecurrence of a request, filled out as Outlook stores it, or a 400. */
export function readRecurrence(
  value: unknown,
  start: number,
  zone: string,
): PatternedRecurrence | SimResponse | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || !isObject(value.pattern) || !isObject(value.range))
    return invalid('The recurrence needs a pattern and a range.');
  const { pattern, range } = value;
  if (!PATTERN_TYPES.includes(str(pattern.type)))
    return invalid(`The recurrence pattern type '${str(pattern.type)}' is not valid.`);
  if (!RANGE_TYPES.includes(str(range.type)))
    return invalid(`The recurrence range type '${str(range.type)}' is not valid.`);
  const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : 0);
  return {
    pattern: {
      type: str(pattern.type),
      interval: Math.max(1, num(pattern.interval)),
      month: num(pattern.month),
      dayOfMonth: num(pattern.dayOfMonth),
      daysOfWeek: Array.isArray(pattern.daysOfWeek) ? pattern.daysOfWeek.map((d) => str(d).toLowerCase()) : [],
      firstDayOfWeek: str(pattern.firstDayOfWeek, 'sunday').toLowerCase(),
      index: str(pattern.index, 'first'),
    },
    range: {
      type: str(range.type),
      startDate: str(range.startDate, dateIn(start, zone).date),
      endDate: str(range.endDate, '0001-01-01'),
      recurrenceTimeZone: str(range.recurrenceTimeZone, zone),
      numberOfOccurrences: num(range.numberOfOccurrences),
    },
  };
}

function readAttendees(value: unknown): SimAttendee[] | SimResponse {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return invalid('attendees must be a collection of attendee.');
  const out: SimAttendee[] = [];
  for (const a of value) {
    const email = isObject(a) && isObject(a.emailAddress) ? a.emailAddress : undefined;
    const address = str(email?.address);
    if (!address) return invalid('Every attendee needs an emailAddress with an address.');
    const status = isObject(a) && isObject(a.status) ? a.status : undefined;
    const response = RESPONSES.includes(str(status?.response)) ? str(status?.response) : 'none';
    const type = isObject(a) && ATTENDEE_TYPES.includes(str(a.type)) ? str(a.type) : 'required';
    out.push({
      name: str(email?.name, address),
      address,
      type: type as SimAttendee['type'],
      // A new meeting's attendees have not answered yet, whatever the request says.
      response: response === 'organizer' ? 'organizer' : 'none',
    });
  }
  return out;
}

function readBody(value: unknown): SimEvent['body'] {
  if (!isObject(value)) return { contentType: 'text', content: '' };
  const content = str(value.content);
  if (str(value.contentType).toLowerCase() !== 'html') return { contentType: 'text', content };
  return { contentType: 'html', content: /^\s*<html/i.test(content) ? content : htmlDocument(content) };
}

const pickFrom = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.find((a) => a === value) ?? fallback;

/** A new event in a calendar, from a request as Graph takes it; Outlook's 400 for what it refuses. */
function createEvent(call: GraphCall, user: SimUser, view: CalendarView): SimResponse {
  if (view.calendar.sharedFrom) {
    return graphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
  }
  const { request, tenant } = call;
  let body: Json;
  try {
    body = jsonBody<Json>(request) as Json;
  } catch {
    return graphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }
  const render: Rendering = { owner: user, preferences: preferencesOf(request), basic: false };
  const transactionId = typeof body.transactionId === 'string' ? body.transactionId : undefined;
  if (transactionId) {
    // Graph creates an event once per transaction id: a client's retry gets the same event.
    const earlier = [...user.events.values()].find((e) => e.transactionId === transactionId && !e.deleted);
    if (earlier) return { status: 201, json: eventJson(render, earlier) };
  }
  const start = readDateTime(body.start, 'start');
  if (isAnswer(start)) return start;
  const end = readDateTime(body.end, 'end');
  if (isAnswer(end)) return end;
  if (end.at < start.at) return invalid("The event's end is before its start.");
  const attendees = readAttendees(body.attendees);
  if (isAnswer(attendees)) return attendees;
  const recurrence = readRecurrence(body.recurrence, start.at, start.zone);
  if (isAnswer(recurrence)) return recurrence;
  tenant.clock += 1;
  const now = new Date().toISOString();
  const id = `ev-${randomBytes(12).toString('hex')}`;
  const location = isObject(body.location) ? str(body.location.displayName) : '';
  const event: SimEvent = {
    id,
    calendarId: view.eventsCalendarId,
    subject: str(body.subject),
    body: readBody(body.body),
    start: new Date(start.at).toISOString(),
    end: new Date(end.at).toISOString(),
    startTimeZone: start.zone,
    endTimeZone: end.zone,
    isAllDay: body.isAllDay === true,
    location,
    // The mailbox's owner organizes what is created in their calendar.
    organizer: { name: user.displayName, address: user.upn },
    attendees,
    ...(recurrence ? { recurrence } : {}),
    exceptions: [],
    attachments: [],
    importance: pickFrom(body.importance, ['low', 'normal', 'high'] as const, 'normal'),
    sensitivity: pickFrom(body.sensitivity, ['normal', 'personal', 'private', 'confidential'] as const, 'normal'),
    showAs: pickFrom(body.showAs, ['unknown', 'free', 'tentative', 'busy', 'oof', 'workingElsewhere'] as const, 'busy'),
    categories: Array.isArray(body.categories) ? body.categories.map((c) => str(c)).filter(Boolean) : [],
    isReminderOn: body.isReminderOn !== false,
    reminderMinutesBeforeStart:
      typeof body.reminderMinutesBeforeStart === 'number' ? Math.trunc(body.reminderMinutesBeforeStart) : 15,
    response: 'organizer',
    ...(transactionId ? { transactionId } : {}),
    iCalUId: `040000008200E00074C5B7101A82E00800000000${createHash('sha256').update(id).digest('hex').slice(0, 32).toUpperCase()}`,
    created: now,
    modified: now,
    changed: tenant.clock,
    deleted: false,
  };
  user.events.set(id, event);
  // As documented, the new event answers its times in the zone they were given in.
  const json = eventJson(
    { ...render, preferences: { ...render.preferences, timeZone: render.preferences.timeZone ?? start.zone } },
    event,
  );
  return { status: 201, json: { ...json, end: inZone(end.at, render.preferences.timeZone ?? end.zone) } };
}

/** The largest attachment Graph takes in one POST; larger ones need an upload session. */
const ATTACHMENT_LIMIT = 3 * 1024 * 1024;

function addAttachment(call: GraphCall, event: SimEvent): SimResponse {
  let body: Json;
  try {
    body = jsonBody<Json>(call.request) as Json;
  } catch {
    return graphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }
  if (str(body['@odata.type']).replace(/^#/, '') !== 'microsoft.graph.fileAttachment') {
    return invalid('Only a fileAttachment (@odata.type #microsoft.graph.fileAttachment) can be added here.');
  }
  const name = str(body.name);
  const bytes = typeof body.contentBytes === 'string' ? Buffer.from(body.contentBytes, 'base64') : undefined;
  if (!name || !bytes) return invalid('A fileAttachment needs a name and contentBytes.');
  if (bytes.length > ATTACHMENT_LIMIT) {
    return graphError(
      413,
      'ErrorAttachmentSizeShouldNotBeLessThanMinimumSize',
      'The attachment is larger than 3 MB: use an upload session.',
    );
  }
  call.tenant.clock += 1;
  const now = new Date().toISOString();
  const attachment: SimAttachment = {
    id: `at-${randomBytes(12).toString('hex')}`,
    name,
    // Without a content type, Outlook names one by the file's extension.
    contentType: str(body.contentType) || mimeTypeOf(name),
    content: new Uint8Array(bytes),
    modified: now,
    isInline: body.isInline === true,
  };
  event.attachments.push(attachment);
  event.modified = now;
  event.changed = call.tenant.clock;
  return { status: 201, json: attachmentJson(attachment) };
}

/**
 * PATCH an event. A single event or a series master takes the properties given (a series its new
 * pattern too); an occurrence becomes an exception of its series with the subject and times given,
 * an exception keeps its own and takes these, as Outlook keeps only what differs from the pattern.
 */
function updateEvent(call: GraphCall, user: SimUser, found: { event: SimEvent; instance?: Instance }): SimResponse {
  let body: Json;
  try {
    body = jsonBody<Json>(call.request) as Json;
  } catch {
    return graphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }
  const { event, instance } = found;
  const start = body.start === undefined ? undefined : readDateTime(body.start, 'start');
  if (isAnswer(start)) return start;
  const end = body.end === undefined ? undefined : readDateTime(body.end, 'end');
  if (isAnswer(end)) return end;
  const render: Rendering = { owner: user, preferences: preferencesOf(call.request), basic: false };
  call.tenant.clock += 1;
  const now = new Date().toISOString();
  if (instance?.originalStart !== undefined) {
    const originalStart = instance.originalStart;
    let exception = event.exceptions.find((x) => Date.parse(x.originalStart) === originalStart);
    if (!exception) {
      exception = { originalStart: new Date(originalStart).toISOString() };
      event.exceptions.push(exception);
    }
    const from = start?.at ?? instance.start;
    const to = end?.at ?? from + (instance.end - instance.start);
    if (to < from) return invalid("The event's end is before its start.");
    exception.start = new Date(from).toISOString();
    exception.end = new Date(to).toISOString();
    if (typeof body.subject === 'string') exception.subject = body.subject;
    event.modified = now;
    event.changed = call.tenant.clock;
    const again = findEvent(user, instance.id);
    return { status: 200, json: eventJson(render, event, again?.instance ?? instance) };
  }
  const attendees = body.attendees === undefined ? undefined : readAttendees(body.attendees);
  if (isAnswer(attendees)) return attendees;
  const from = start?.at ?? Date.parse(event.start);
  const recurrence =
    body.recurrence === undefined
      ? undefined
      : readRecurrence(body.recurrence, from, start?.zone ?? event.startTimeZone);
  if (isAnswer(recurrence)) return recurrence;
  const to = end?.at ?? Date.parse(event.end);
  if (to < from) return invalid("The event's end is before its start.");
  if (typeof body.subject === 'string') event.subject = body.subject;
  if (body.body !== undefined) event.body = readBody(body.body);
  if (start) {
    event.start = new Date(start.at).toISOString();
    event.startTimeZone = start.zone;
  }
  if (end) {
    event.end = new Date(end.at).toISOString();
    event.endTimeZone = end.zone;
  }
  if (typeof body.isAllDay === 'boolean') event.isAllDay = body.isAllDay;
  if (isObject(body.location)) event.location = str(body.location.displayName);
  if (attendees) event.attendees = attendees;
  if (body.recurrence === null && event.recurrence) {
    delete event.recurrence;
    event.exceptions = [];
  } else if (recurrence) event.recurrence = recurrence;
  if (body.importance !== undefined)
    event.importance = pickFrom(body.importance, ['low', 'normal', 'high'] as const, event.importance);
  if (body.sensitivity !== undefined) {
    event.sensitivity = pickFrom(
      body.sensitivity,
      ['normal', 'personal', 'private', 'confidential'] as const,
      event.sensitivity,
    );
  }
  if (body.showAs !== undefined) {
    event.showAs = pickFrom(
      body.showAs,
      ['unknown', 'free', 'tentative', 'busy', 'oof', 'workingElsewhere'] as const,
      event.showAs,
    );
  }
  if (Array.isArray(body.categories)) event.categories = body.categories.map((c) => str(c)).filter(Boolean);
  if (typeof body.isReminderOn === 'boolean') event.isReminderOn = body.isReminderOn;
  if (typeof body.reminderMinutesBeforeStart === 'number') {
    event.reminderMinutesBeforeStart = Math.trunc(body.reminderMinutesBeforeStart);
  }
  event.modified = now;
  event.changed = call.tenant.clock;
  return { status: 200, json: eventJson(render, event) };
}

/** DELETE an event: a single event or a whole series goes; an occurrence is cancelled in its series. */
function deleteEvent(call: GraphCall, found: { event: SimEvent; instance?: Instance }): SimResponse {
  const { event, instance } = found;
  call.tenant.clock += 1;
  if (instance?.originalStart !== undefined) {
    const originalStart = instance.originalStart;
    const exception = event.exceptions.find((x) => Date.parse(x.originalStart) === originalStart);
    if (exception) {
      exception.cancelled = true;
      delete exception.start;
      delete exception.end;
      delete exception.subject;
    } else event.exceptions.push({ originalStart: new Date(originalStart).toISOString(), cancelled: true });
  } else event.deleted = true;
  event.modified = new Date().toISOString();
  event.changed = call.tenant.clock;
  return { status: 204 };
}

function createCalendar(call: GraphCall, user: SimUser): SimResponse {
  let body: Json;
  try {
    body = jsonBody<Json>(call.request) as Json;
  } catch {
    return graphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }
  const name = str(body.name).trim();
  if (!name) return invalid('A calendar needs a name.');
  if (user.calendars.some((c) => c.name.toLowerCase() === name.toLowerCase())) {
    return graphError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
  }
  const calendar: SimCalendar = { id: `cal-${randomBytes(12).toString('hex')}`, name, isDefault: false };
  user.calendars.push(calendar);
  return { status: 201, json: calendarJson(call.tenant, user, calendar) };
}

/** A series' instances in a window; a single event has none. */
function instancesRoute(call: GraphCall, user: SimUser, found: { event: SimEvent; instance?: Instance }): SimResponse {
  const window = windowOf(call.request);
  if (isAnswer(window)) return window;
  const render = renderingOf(call, user);
  const rows = found.instance || !found.event.recurrence ? [] : instancesIn([found.event], window.from, window.to);
  return page(call.context, call.request, rows, (i) => eventJson(render, i.event, i), OUTLOOK);
}

export const calendarRoutes: GraphRoute[] = [
  ...onMailbox('GET', 'users/:user/calendars', ({ context, request, tenant }, user) =>
    page(context, request, user.calendars, (c) => calendarJson(tenant, user, c), OUTLOOK),
  ),
  ...onCalendar('GET', ['users/:user/calendar', 'users/:user/calendars/:calendar'], ({ tenant }, user, view) => ({
    status: 200,
    json: calendarJson(tenant, user, view.calendar),
  })),
  ...onCalendar(
    'GET',
    ['users/:user/calendarView/delta', 'users/:user/calendars/:calendar/calendarView/delta'],
    calendarViewDelta,
    { context: 'Collection(microsoft.graph.event)', functionParameters: [] },
  ),
  ...onCalendar(
    'GET',
    ['users/:user/calendarView', 'users/:user/calendar/calendarView', 'users/:user/calendars/:calendar/calendarView'],
    (call, _user, view) => calendarView(call, view),
  ),
  ...onCalendar(
    'GET',
    ['users/:user/events', 'users/:user/calendar/events', 'users/:user/calendars/:calendar/events'],
    (call, _user, view) => {
      const render = renderingOf(call, view.owner);
      const events = eventsOf(view).sort(
        (a, b) => Date.parse(a.start) - Date.parse(b.start) || a.id.localeCompare(b.id),
      );
      const answer = page(call.context, call.request, events, (e) => eventJson(render, e), OUTLOOK);
      return { ...answer, headers: { ...answer.headers, ...applied(render.preferences) } };
    },
  ),
  ...onEvent('GET', 'users/:user/events/:event/instances', instancesRoute),
  ...onEvent('GET', 'users/:user/events/:event', (call, user, { event, instance }) => {
    const render = renderingOf(call, user);
    const json: Record<string, unknown> = eventJson(render, event, instance);
    // The series' exceptions come with the master when asked: `$expand=exceptionOccurrences`.
    if (!instance && event.recurrence && /exceptionOccurrences/i.test(call.request.query.get('$expand') ?? '')) {
      json.exceptionOccurrences = seriesInstances(event, Number.MAX_SAFE_INTEGER)
        .filter((i) => i.type === 'exception')
        .map((i) => eventJson(render, event, i));
    }
    return { status: 200, json, headers: applied(render.preferences) };
  }),
  ...onEvent('GET', 'users/:user/events/:event/attachments', ({ context, request }, _user, { event }) =>
    page(context, request, event.attachments, (a) => attachmentJson(a), OUTLOOK),
  ),
  ...onEvent('GET', 'users/:user/events/:event/attachments/:attachment', ({ params }, _user, { event }) => {
    const attachment = event.attachments.find((a) => a.id === params.attachment);
    return attachment ? { status: 200, json: attachmentJson(attachment) } : itemNotFound();
  }),
  ...onEvent('GET', 'users/:user/events/:event/attachments/:attachment/$value', ({ params }, _user, { event }) => {
    const attachment = event.attachments.find((a) => a.id === params.attachment);
    return attachment
      ? { status: 200, headers: { 'content-type': attachment.contentType }, bytes: attachment.content }
      : itemNotFound();
  }),
  ...onMailbox('POST', 'users/:user/calendars', createCalendar),
  ...onCalendar(
    'POST',
    ['users/:user/events', 'users/:user/calendar/events', 'users/:user/calendars/:calendar/events'],
    createEvent,
  ),
  ...onEvent('POST', 'users/:user/events/:event/attachments', (call, _user, { event, instance }) =>
    instance ? invalid('Attachments are added to the series, not to one occurrence.') : addAttachment(call, event),
  ),
  ...onEvent('PATCH', 'users/:user/events/:event', updateEvent),
  ...onEvent('DELETE', 'users/:user/events/:event', (call, _user, found) => deleteEvent(call, found)),
];
