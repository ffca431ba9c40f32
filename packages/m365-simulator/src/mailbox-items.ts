/**
 * A mailbox's other items: its calendars and their events (meetings with attendees, an all-day event,
 * a weekly series with a moved and a cancelled occurrence, attachments), its contact folders and
 * contacts, and its Microsoft To Do lists and tasks. Generated per user from the tenant's seed, as the
 * rest of the tenant is, and changed by `evolve`: every item keeps the change number of its last
 * change, and a deleted one stays (marked) so that delta queries can report it removed.
 */
import { BASE_TIME, hexId, iso, later, pick, prng, words } from './generate.js';
import type { SimTenant, SimUser, TenantSize } from './model.js';

/** Graph's dateTimeTimeZone: a wall-clock date-time and the zone it is in. */
export interface DateTimeTimeZone {
  dateTime: string;
  timeZone: string;
}

/** Graph's patternedRecurrence, kept as a client gave it (or as generated). */
export interface PatternedRecurrence {
  pattern: {
    type: string;
    interval: number;
    month: number;
    dayOfMonth: number;
    daysOfWeek: string[];
    firstDayOfWeek: string;
    index: string;
  };
  range: {
    type: string;
    startDate: string;
    endDate: string;
    recurrenceTimeZone: string;
    numberOfOccurrences: number;
  };
}

interface PhysicalAddress {
  street: string;
  city: string;
  state: string;
  countryOrRegion: string;
  postalCode: string;
}

export interface SimCalendar {
  id: string;
  name: string;
  isDefault: boolean;
  /**
   * For a colleague's calendar shared with this mailbox (read only, as a share recipient without
   * edit rights sees it): the colleague's id; the events are those of the colleague's default calendar.
   */
  sharedFrom?: string;
}

export interface SimAttendee {
  name: string;
  address: string;
  type: 'required' | 'optional' | 'resource';
  response: 'none' | 'organizer' | 'tentativelyAccepted' | 'accepted' | 'declined' | 'notResponded';
  /** When they responded (ISO); none: never. */
  responded?: string;
}

export interface SimAttachment {
  id: string;
  name: string;
  contentType: string;
  content: Uint8Array;
  modified: string;
  isInline: boolean;
}

/** An occurrence of a series that differs from its pattern: moved (another start and end) or cancelled. */
export interface SimException {
  /** The occurrence's start as the pattern gives it (ISO, UTC). */
  originalStart: string;
  start?: string;
  end?: string;
  subject?: string;
  cancelled?: boolean;
}

export interface SimEvent {
  id: string;
  calendarId: string;
  subject: string;
  body: { contentType: 'text' | 'html'; content: string };
  /** UTC instants (ISO). */
  start: string;
  end: string;
  /** The zones its start and end were given in (originalStartTimeZone, originalEndTimeZone). */
  startTimeZone: string;
  endTimeZone: string;
  isAllDay: boolean;
  location: string;
  organizer: { name: string; address: string };
  attendees: SimAttendee[];
  /** A series master's pattern; its occurrences are computed from it. */
  recurrence?: PatternedRecurrence;
  exceptions: SimException[];
  attachments: SimAttachment[];
  importance: 'low' | 'normal' | 'high';
  sensitivity: 'normal' | 'personal' | 'private' | 'confidential';
  showAs: 'unknown' | 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere';
  categories: string[];
  isReminderOn: boolean;
  reminderMinutesBeforeStart: number;
  /** The mailbox owner's response (organizer for their own meetings). */
  response: SimAttendee['response'];
  transactionId?: string;
  iCalUId: string;
  created: string;
  modified: string;
  changed: number;
  deleted: boolean;
}

export interface SimContactFolder {
  id: string;
  name: string;
  /** null: at the top of the mailbox, as the default Contacts folder is. */
  parentId: string | null;
  isDefault: boolean;
}

/**
 * A contact: Graph's writable contact properties as they were given or generated (`displayName`,
 * `givenName`, `emailAddresses`, `businessPhones`, `homeAddress`, `birthday`, `personalNotes`…), kept
 * whole so that a restored contact answers what was written.
 */
export interface SimContact {
  id: string;
  folderId: string;
  properties: Record<string, unknown>;
  created: string;
  modified: string;
  changed: number;
  deleted: boolean;
}

export interface SimTaskList {
  id: string;
  name: string;
  wellknownListName: 'none' | 'defaultList' | 'flaggedEmails';
  isShared: boolean;
  changed: number;
  deleted: boolean;
}

export interface SimChecklistItem {
  id: string;
  displayName: string;
  isChecked: boolean;
  created: string;
  checked?: string;
}

export interface SimLinkedResource {
  id: string;
  applicationName: string;
  displayName: string;
  externalId?: string;
  webUrl: string;
}

export interface SimTask {
  id: string;
  listId: string;
  title: string;
  body: { contentType: 'text' | 'html'; content: string };
  status: 'notStarted' | 'inProgress' | 'completed' | 'waitingOnOthers' | 'deferred';
  importance: 'low' | 'normal' | 'high';
  isReminderOn: boolean;
  reminderDateTime?: DateTimeTimeZone;
  dueDateTime?: DateTimeTimeZone;
  startDateTime?: DateTimeTimeZone;
  completedDateTime?: DateTimeTimeZone;
  recurrence?: PatternedRecurrence;
  categories: string[];
  checklistItems: SimChecklistItem[];
  linkedResources: SimLinkedResource[];
  created: string;
  modified: string;
  bodyModified: string;
  changed: number;
  deleted: boolean;
}

/** What a mailbox holds besides mail. */
export interface MailboxItems {
  calendars: SimCalendar[];
  events: Map<string, SimEvent>;
  contactFolders: SimContactFolder[];
  contacts: Map<string, SimContact>;
  taskLists: SimTaskList[];
  tasks: Map<string, SimTask>;
}

/** How much of it a generated mailbox has (part of TenantSize). */
export interface MailboxItemsSize {
  /** Calendars besides the default one ("Calendar"), each with `eventsPerCalendar` events. */
  extraCalendars: number;
  /** Events of each calendar; the default calendar's first is a weekly series, its second all day. */
  eventsPerCalendar: number;
  /**
   * Each mailbox also lists the next colleague's default calendar, shared with it read only (named
   * after the colleague, `canEdit` false, the colleague its `owner`). Off by default.
   */
  sharedCalendars: boolean;
  /** Contact folders besides the default one ("Contacts"); the first has a child folder. */
  extraContactFolders: number;
  contactsPerFolder: number;
  /** To Do lists besides the default one ("Tasks"). */
  extraTaskLists: number;
  tasksPerList: number;
}

export const emptyMailboxItems = (): MailboxItems => ({
  calendars: [],
  events: new Map(),
  contactFolders: [],
  contacts: new Map(),
  taskLists: [],
  tasks: new Map(),
});

const capitalised = (text: string) => text.replace(/^./, (c) => c.toUpperCase());

/** Outlook's iCalendar UID form: its fixed prefix, then the item's own part, in upper-case hex. */
const iCalUIdOf = (id: string) =>
  `040000008200E00074C5B7101A82E00800000000${hexId('ical', id).replace(/-/g, '').toUpperCase()}`;

const EVENT_TOPICS = ['Team sync', 'Budget review', 'Customer call', 'Release planning', 'Quarterly figures', 'Audit'];
const PLACES = ['Room 1.12', 'Microsoft Teams Meeting', 'Café Central', 'Room Berlin', 'Head office'];
const CALENDAR_NAMES = ['Project deadlines', 'Team events', 'Holidays', 'Travel'];
const GIVEN = ['Ana', 'Ben', 'Carla', 'David', 'Elif', 'Frank', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Katrin', 'Luis'];
const SURNAMES = ['Schmidt', 'Novak', 'Rossi', 'Dubois', 'Meyer', 'Kowalski', 'Jensen', 'Santos', 'Weber'];
const COMPANIES: [string, string][] = [
  ['Fabrikam', 'fabrikam.example'],
  ['Litware', 'litware.example'],
  ['Northwind Traders', 'northwind.example'],
  ['Tailspin Toys', 'tailspin.example'],
  ['Wingtip Toys', 'wingtip.example'],
];
const JOBS = ['Account manager', 'Buyer', 'Project lead', 'Controller', 'Consultant', 'Sales director'];
const ADDRESSES: PhysicalAddress[] = [
  { street: 'Unter den Linden 12', city: 'Berlin', state: 'Berlin', countryOrRegion: 'Germany', postalCode: '10117' },
  { street: 'Graben 7', city: 'Vienna', state: 'Vienna', countryOrRegion: 'Austria', postalCode: '1010' },
  { street: 'Bahnhofstrasse 21', city: 'Zurich', state: 'ZH', countryOrRegion: 'Switzerland', postalCode: '8001' },
  { street: 'Marienplatz 3', city: 'Munich', state: 'Bavaria', countryOrRegion: 'Germany', postalCode: '80331' },
];
const CONTACT_FOLDER_NAMES = ['Suppliers', 'Clients', 'Family', 'Press'];
const TASK_LIST_NAMES = ['Project Falcon', 'Groceries', 'Travel preparation'];
const TASK_TITLES = [
  'Send the quarterly report',
  'Book the travel',
  'Review the contract',
  'Renew the licence',
  'Prepare the agenda',
  'Call the customer back',
  'Submit the expenses',
];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** A small text file attached to an item: its bytes derived from the seed. */
function attachmentOf(tenantId: string, ownerId: string, n: number, modified: string): SimAttachment {
  const random = prng(tenantId, ownerId, 'attachment', n);
  const text = `${capitalised(words(random, 8))}.\n${words(random, 40)}\n`;
  return {
    id: hexId(tenantId, ownerId, 'attachment', n),
    name: `${words(random, 1)}-notes-${n}.txt`,
    contentType: 'text/plain',
    content: new Uint8Array(Buffer.from(text)),
    modified,
    isInline: false,
  };
}

const dateOf = (instant: string) => instant.slice(0, 10);

/** A weekly series of `count` occurrences from the start, on its weekday, as Outlook stores one. */
function weekly(start: string, count: number): PatternedRecurrence {
  return {
    pattern: {
      type: 'weekly',
      interval: 1,
      month: 0,
      dayOfMonth: 0,
      daysOfWeek: [WEEKDAYS[new Date(start).getUTCDay()] ?? 'monday'],
      firstDayOfWeek: 'sunday',
      index: 'first',
    },
    range: {
      type: 'numbered',
      startDate: dateOf(start),
      endDate: '0001-01-01',
      recurrenceTimeZone: 'UTC',
      numberOfOccurrences: count,
    },
  };
}

/** The occurrences a generated series has. */
const SERIES_LENGTH = 6;

/** One generated event of a calendar; the default calendar's first is a series, its second all day. */
function addEvent(
  tenant: SimTenant,
  user: SimUser,
  colleagues: SimUser[],
  calendar: SimCalendar,
  n: number,
  changed: number,
  at?: string,
): SimEvent {
  const random = prng(tenant.tenantId, user.id, calendar.id, 'event', n);
  const series = calendar.isDefault && n === 0;
  const allDay = calendar.isDefault && n === 1;
  // A colleague's invitation now and then: the mailbox owner is an attendee, not the organizer.
  const invitedBy = calendar.isDefault && n % 4 === 3 ? colleagues[n % Math.max(1, colleagues.length)] : undefined;
  const startMs = at
    ? Date.parse(`${at.slice(0, 13)}:00:00Z`) + 86_400_000
    : series
      ? BASE_TIME + 6 * 86_400_000 + 3_600_000
      : BASE_TIME + (calendar.isDefault ? 1 + 2 * n : 3 + 3 * n) * 86_400_000 + (1 + (n % 3) * 2) * 3_600_000;
  const start = allDay
    ? `${new Date(startMs).toISOString().slice(0, 10)}T00:00:00.000Z`
    : new Date(startMs).toISOString();
  const end = new Date(Date.parse(start) + (allDay ? 86_400_000 : (n % 2 === 0 ? 60 : 30) * 60_000)).toISOString();
  const organizer = invitedBy ?? user;
  const invited = calendar.isDefault && !allDay ? colleagues.filter((_c, i) => (i + n) % 2 === 0).slice(0, 2) : [];
  const responses: SimAttendee['response'][] = ['accepted', 'tentativelyAccepted', 'declined', 'none'];
  const attendees: SimAttendee[] = [...(invitedBy ? [user] : []), ...invited.filter((c) => c.id !== invitedBy?.id)].map(
    (person, i) => {
      const response = person.id === user.id ? 'accepted' : (responses[(n + i) % responses.length] ?? 'none');
      return {
        name: person.displayName,
        address: person.upn,
        type: i === 0 ? 'required' : 'optional',
        response,
        ...(response !== 'none' ? { responded: later(start, -2 * 24 * 60 + i * 7) } : {}),
      };
    },
  );
  const created = at ?? iso(-7 * 24 * 60 + n * 11);
  const id = hexId(tenant.tenantId, user.id, calendar.id, 'event', n);
  const event: SimEvent = {
    id,
    calendarId: calendar.id,
    subject: series
      ? 'Weekly team sync'
      : allDay
        ? 'Company offsite'
        : `${pick(random, EVENT_TOPICS)}: ${words(random, 2)} ${n}`,
    body: { contentType: 'text', content: `${capitalised(words(random, 24))}.` },
    start,
    end,
    startTimeZone: 'UTC',
    endTimeZone: 'UTC',
    isAllDay: allDay,
    location: allDay ? '' : pick(random, PLACES),
    organizer: { name: organizer.displayName, address: organizer.upn },
    attendees,
    ...(series ? { recurrence: weekly(start, SERIES_LENGTH) } : {}),
    exceptions: series
      ? [
          // The third meeting moved a day later and an hour on; the fifth cancelled.
          {
            originalStart: later(start, 14 * 24 * 60),
            start: later(start, 15 * 24 * 60 + 60),
            end: later(end, 15 * 24 * 60 + 60),
          },
          { originalStart: later(start, 28 * 24 * 60), cancelled: true },
        ]
      : [],
    attachments: n % 3 === 2 ? [attachmentOf(tenant.tenantId, id, 0, created)] : [],
    importance: n % 5 === 4 ? 'high' : 'normal',
    sensitivity: n % 6 === 5 ? 'private' : 'normal',
    showAs: allDay ? 'free' : 'busy',
    categories: n % 4 === 2 ? ['Blue category'] : [],
    isReminderOn: !allDay,
    reminderMinutesBeforeStart: allDay ? 1080 : 15,
    response: invitedBy ? 'accepted' : 'organizer',
    iCalUId: iCalUIdOf(id),
    created,
    modified: created,
    changed,
    deleted: false,
  };
  user.events.set(id, event);
  return event;
}

function addContact(
  tenant: SimTenant,
  user: SimUser,
  folder: SimContactFolder,
  n: number,
  changed: number,
  at?: string,
) {
  const random = prng(tenant.tenantId, user.id, folder.id, 'contact', n);
  const givenName = pick(random, GIVEN);
  const surname = pick(random, SURNAMES);
  const [companyName, domain] = pick(random, COMPANIES);
  const address = pick(random, ADDRESSES);
  const id = hexId(tenant.tenantId, user.id, folder.id, 'contact', n);
  const created = at ?? iso(-30 * 24 * 60 + n * 13);
  const properties: Record<string, unknown> = {
    givenName,
    surname,
    displayName: `${givenName} ${surname}`,
    fileAs: `${surname}, ${givenName}`,
    emailAddresses: [
      { name: `${givenName} ${surname}`, address: `${givenName}.${surname}@${domain}`.toLowerCase() },
      ...(n % 3 === 0
        ? [{ name: `${givenName} (private)`, address: `${givenName}${n}@mail.example`.toLowerCase() }]
        : []),
    ],
    businessPhones: [`+49 30 5550 ${String(100 + n).padStart(4, '0')}`],
    mobilePhone: n % 2 === 0 ? `+49 170 555 ${String(1000 + n * 7).slice(-4)}` : null,
    companyName,
    jobTitle: pick(random, JOBS),
    department: n % 2 === 1 ? 'Purchasing' : 'Sales',
    businessAddress: address,
    ...(n % 3 === 1 ? { homeAddress: pick(random, ADDRESSES) } : {}),
    ...(n % 4 === 0 ? { birthday: `19${70 + (n % 25)}-0${1 + (n % 9)}-1${n % 10}T11:59:00Z` } : {}),
    personalNotes: n % 2 === 0 ? `${capitalised(words(random, 10))}.` : '',
  };
  user.contacts.set(id, { id, folderId: folder.id, properties, created, modified: created, changed, deleted: false });
}

const taskDate = (instant: number): DateTimeTimeZone => ({
  dateTime: `${new Date(instant).toISOString().slice(0, 10)}T00:00:00.0000000`,
  timeZone: 'UTC',
});

function addTask(tenant: SimTenant, user: SimUser, list: SimTaskList, n: number, changed: number, at?: string) {
  const random = prng(tenant.tenantId, user.id, list.id, 'task', n);
  const id = hexId(tenant.tenantId, user.id, list.id, 'task', n);
  const created = at ?? iso(-14 * 24 * 60 + n * 17);
  const status: SimTask['status'] = at
    ? 'notStarted'
    : ((['notStarted', 'inProgress', 'completed'] as const)[n % 3] ?? 'notStarted');
  const due = Date.parse(created) + (7 + n) * 86_400_000;
  const recurring = list.wellknownListName === 'defaultList' && n === 0 && !at;
  const task: SimTask = {
    id,
    listId: list.id,
    title: `${pick(random, TASK_TITLES)} ${n}`,
    body: { contentType: 'text', content: n % 2 === 0 ? `${capitalised(words(random, 12))}.` : '' },
    status,
    importance: n % 3 === 1 ? 'high' : 'normal',
    isReminderOn: n % 2 === 0,
    ...(n % 2 === 0
      ? {
          reminderDateTime: {
            dateTime: `${new Date(due - 86_400_000).toISOString().slice(0, 19)}.0000000`,
            timeZone: 'UTC',
          },
        }
      : {}),
    ...(n % 3 !== 2 ? { dueDateTime: taskDate(due) } : {}),
    ...(status === 'completed' ? { completedDateTime: taskDate(due - 2 * 86_400_000) } : {}),
    ...(recurring ? { recurrence: weekly(new Date(due).toISOString(), 0) } : {}),
    categories: [],
    checklistItems:
      n % 2 === 0
        ? [0, 1].map((k) => ({
            id: hexId(id, 'check', k),
            displayName: capitalised(words(random, 2)),
            isChecked: k === 0 && status !== 'notStarted',
            created: later(created, k + 1),
            ...(k === 0 && status !== 'notStarted' ? { checked: later(created, 60) } : {}),
          }))
        : [],
    linkedResources:
      n % 3 === 0
        ? [
            {
              id: hexId(id, 'link'),
              applicationName: 'Outlook',
              displayName: `Mail: ${words(random, 3)}`,
              externalId: hexId(id, 'external'),
              webUrl: `https://outlook.office365.com/owa/?ItemID=${hexId(id, 'external')}&exvsurl=1&viewmodel=ReadMessageItem`,
            },
          ]
        : [],
    created,
    modified: created,
    bodyModified: created,
    changed,
    deleted: false,
  };
  if (recurring && task.recurrence) {
    // A weekly task that repeats without end, as To Do's "Repeat weekly" sets it.
    task.recurrence.range = { ...task.recurrence.range, type: 'noEnd', numberOfOccurrences: 0 };
  }
  user.tasks.set(id, task);
}

/**
 * Makes a mailbox's calendars, contacts and To Do lists when they are first read (or changed), from
 * the same seeds whenever that is: a tenant of many mailboxes (a fleet) costs nothing for those never
 * read. Every user of the tenant exists already.
 */
export function deferMailboxItems(tenant: SimTenant, user: SimUser) {
  const keys = Object.keys(emptyMailboxItems()) as (keyof MailboxItems)[];
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    const items = emptyMailboxItems();
    for (const key of keys) {
      Object.defineProperty(user, key, { value: items[key], writable: true, enumerable: true, configurable: true });
    }
    buildMailboxItems(tenant, user);
  };
  for (const key of keys) {
    Object.defineProperty(user, key, {
      get() {
        build();
        return user[key];
      },
      set(value: unknown) {
        build();
        Object.defineProperty(user, key, { value, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    });
  }
}

/** Fills a mailbox's calendars, contacts and To Do lists; every user of the tenant exists already. */
function buildMailboxItems(tenant: SimTenant, user: SimUser) {
  const size: TenantSize = tenant.size;
  const key = (...parts: (string | number)[]) => hexId(tenant.tenantId, user.id, ...parts);
  user.calendars.push({ id: key('calendar', 'default'), name: 'Calendar', isDefault: true });
  for (let c = 0; c < size.extraCalendars; c++) {
    const name =
      (CALENDAR_NAMES[c % CALENDAR_NAMES.length] ?? 'Calendar') + (c >= CALENDAR_NAMES.length ? ` ${c}` : '');
    user.calendars.push({ id: key('calendar', c), name, isDefault: false });
  }
  // A few colleagues to invite, or to be invited by: those after the user, in turn.
  const people = tenant.users.filter((u) => u.hasMailbox);
  const at = people.indexOf(user);
  const colleagues = [...people.slice(at + 1), ...people.slice(0, Math.max(0, at))].slice(0, 4);
  for (const calendar of user.calendars) {
    for (let n = 0; n < size.eventsPerCalendar; n++) addEvent(tenant, user, colleagues, calendar, n, 0);
  }
  if (size.sharedCalendars) {
    const colleague = colleagues[0];
    if (colleague) {
      user.calendars.push({
        id: key('calendar', 'shared', colleague.id),
        name: colleague.displayName,
        isDefault: false,
        sharedFrom: colleague.id,
      });
    }
  }
  user.contactFolders.push({ id: key('contactfolder', 'Contacts'), name: 'Contacts', parentId: null, isDefault: true });
  for (let f = 0; f < size.extraContactFolders; f++) {
    const folder: SimContactFolder = {
      id: key('contactfolder', f),
      name:
        (CONTACT_FOLDER_NAMES[f % CONTACT_FOLDER_NAMES.length] ?? 'Contacts') +
        (f >= CONTACT_FOLDER_NAMES.length ? ` ${f}` : ''),
      parentId: null,
      isDefault: false,
    };
    user.contactFolders.push(folder);
    if (f === 0)
      user.contactFolders.push({
        id: key('contactfolder', f, 'former'),
        name: `Former ${folder.name.toLowerCase()}`,
        parentId: folder.id,
        isDefault: false,
      });
  }
  for (const folder of user.contactFolders) {
    for (let n = 0; n < size.contactsPerFolder; n++) addContact(tenant, user, folder, n, 0);
  }
  user.taskLists.push({
    id: key('tasklist', 'Tasks'),
    name: 'Tasks',
    wellknownListName: 'defaultList',
    isShared: false,
    changed: 0,
    deleted: false,
  });
  for (let l = 0; l < size.extraTaskLists; l++) {
    const name = (TASK_LIST_NAMES[l % TASK_LIST_NAMES.length] ?? 'List') + (l >= TASK_LIST_NAMES.length ? ` ${l}` : '');
    user.taskLists.push({
      id: key('tasklist', l),
      name,
      wellknownListName: 'none',
      isShared: l === 0,
      changed: 0,
      deleted: false,
    });
  }
  for (const list of user.taskLists) {
    for (let n = 0; n < size.tasksPerList; n++) addTask(tenant, user, list, n, 0);
  }
}

/** The changes `evolve` makes to mailboxes' events, contacts and tasks (counts across the tenant). */
export interface MailboxItemsEvolution {
  newEvents?: number;
  editedEvents?: number;
  deletedEvents?: number;
  newContacts?: number;
  editedContacts?: number;
  deletedContacts?: number;
  newTasks?: number;
  editedTasks?: number;
  deletedTasks?: number;
  newTaskLists?: number;
}

/**
 * Applies a change's events, contacts and tasks: new ones go to the mailboxes in turn (the default
 * calendar, contact folder and list), edits and deletions fall on live items drawn with `random`.
 * `when(k)` dates the change's k-th new or edited item; `at` is the change number.
 */
export function evolveMailboxItems(
  tenant: SimTenant,
  change: MailboxItemsEvolution,
  at: number,
  random: () => number,
  when: (k: number) => string,
) {
  const mailboxes = tenant.users.filter((u) => u.hasMailbox);
  if (mailboxes.length === 0) return;
  const owner = (n: number) => mailboxes[n % mailboxes.length] as SimUser;
  const drawn = <T extends { deleted: boolean }>(rows: () => [SimUser, T][]) => {
    const live = rows().filter(([, row]) => !row.deleted);
    return live[Math.floor(random() * live.length)];
  };
  const allEvents = () => mailboxes.flatMap((u) => [...u.events.values()].map((e): [SimUser, SimEvent] => [u, e]));
  const allContacts = () =>
    mailboxes.flatMap((u) => [...u.contacts.values()].map((c): [SimUser, SimContact] => [u, c]));
  const allTasks = () => mailboxes.flatMap((u) => [...u.tasks.values()].map((t): [SimUser, SimTask] => [u, t]));

  for (let n = 0; n < (change.newEvents ?? 0); n++) {
    const user = owner(n);
    const calendar = user.calendars.find((c) => c.isDefault);
    const colleagues = [1, 2].map((k) => owner(n + k)).filter((c) => c !== user);
    if (calendar) addEvent(tenant, user, colleagues, calendar, 10_000 + at * 1000 + n, at, when(n));
  }
  // A series keeps its pattern (its exceptions are dated by it): edits move single events.
  const singleEvents = () => allEvents().filter(([, e]) => !e.recurrence);
  for (let n = 0; n < (change.editedEvents ?? 0); n++) {
    const [, event] = drawn(singleEvents) ?? [];
    if (!event) break;
    event.subject = `${event.subject.replace(/ \(moved\)$/, '')} (moved)`;
    event.start = later(event.start, 60);
    event.end = later(event.end, 60);
    event.body = { contentType: 'text', content: `${event.body.content} Moved by an hour.` };
    event.modified = when(n);
    event.changed = at;
  }
  for (let n = 0; n < (change.deletedEvents ?? 0); n++) {
    const [, event] = drawn(allEvents) ?? [];
    if (!event) break;
    event.deleted = true;
    event.modified = when(n);
    event.changed = at;
  }
  for (let n = 0; n < (change.newContacts ?? 0); n++) {
    const user = owner(n);
    const folder = user.contactFolders.find((f) => f.isDefault);
    if (folder) addContact(tenant, user, folder, 10_000 + at * 1000 + n, at, when(n));
  }
  for (let n = 0; n < (change.editedContacts ?? 0); n++) {
    const [, contact] = drawn(allContacts) ?? [];
    if (!contact) break;
    contact.properties.jobTitle = pick(random, JOBS);
    contact.properties.mobilePhone = `+49 171 555 ${String(at * 10 + n)
      .padStart(4, '0')
      .slice(-4)}`;
    contact.modified = when(n);
    contact.changed = at;
  }
  for (let n = 0; n < (change.deletedContacts ?? 0); n++) {
    const [, contact] = drawn(allContacts) ?? [];
    if (!contact) break;
    contact.deleted = true;
    contact.modified = when(n);
    contact.changed = at;
  }
  for (let n = 0; n < (change.newTaskLists ?? 0); n++) {
    const user = owner(n);
    const id = hexId(tenant.tenantId, user.id, 'tasklist', 'new', at, n);
    user.taskLists.push({
      id,
      name: `${capitalised(words(random, 2))} ${at}`,
      wellknownListName: 'none',
      isShared: false,
      changed: at,
      deleted: false,
    });
  }
  for (let n = 0; n < (change.newTasks ?? 0); n++) {
    const user = owner(n);
    const list = user.taskLists.find((l) => l.wellknownListName === 'defaultList');
    if (list) addTask(tenant, user, list, 10_000 + at * 1000 + n, at, when(n));
  }
  for (let n = 0; n < (change.editedTasks ?? 0); n++) {
    const [, task] = drawn(allTasks) ?? [];
    if (!task) break;
    const done = when(n);
    task.status = 'completed';
    task.completedDateTime = { dateTime: `${done.slice(0, 10)}T00:00:00.0000000`, timeZone: 'UTC' };
    task.modified = done;
    task.changed = at;
  }
  for (let n = 0; n < (change.deletedTasks ?? 0); n++) {
    const [, task] = drawn(allTasks) ?? [];
    if (!task) break;
    task.deleted = true;
    task.modified = when(n);
    task.changed = at;
  }
}
