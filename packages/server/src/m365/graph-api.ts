/**
 * The part of Microsoft Graph v1.0 the data plane uses, as the jobs see it. One implementation talks
 * HTTP to graph.microsoft.com (or to the built-in simulator, which speaks the same protocol); tests
 * and jobs depend on this interface only.
 */
import type {
  AadUserConversationMember,
  Calendar,
  Channel,
  Chat,
  ChatMessage,
  ChecklistItem,
  ColumnDefinition,
  Contact,
  ContactFolder,
  ContentType,
  Deleted,
  Drive,
  DriveItem,
  DriveItemVersion,
  Event,
  FileAttachment,
  Group,
  List,
  ListItem,
  ListItemVersion,
  MailFolder,
  Message,
  Organization,
  Permission,
  Site,
  SitePage,
  TodoTask,
  TodoTaskList,
  User,
} from '@microsoft/microsoft-graph-types';

/** What a tenant's app registration gives: enough to reach its Microsoft 365 data. */
export interface TenantGraphConnection {
  /** The Entra ID (directory) tenant id. */
  directoryId: string;
  clientId: string;
  clientSecret: string;
  /** https://login.microsoftonline.com, or the simulator's login host. */
  authorityHost: string;
  /** https://graph.microsoft.com/v1.0, or the simulator's. */
  graphBaseUrl: string;
}

/** Pages of a delta query; after the last page `deltaLink()` gives the link for the next run. */
export interface DeltaPages<T> extends AsyncIterable<T[]> {
  deltaLink(): string | undefined;
  /**
   * True once Graph refused the given delta link (410 Gone) and the pages were read in full instead:
   * they hold every item, not only the changes, and deletions since the link are not reported.
   */
  resynced(): boolean;
}

export type ConflictBehavior = 'fail' | 'replace' | 'rename';

export interface GraphApi {
  /** The tenant's organization (Graph lists its one) with its id, name and verified domains. */
  organization(): Promise<Organization | undefined>;
  users(): AsyncIterable<User>;
  userDrive(userId: string): Promise<Drive>;
  sites(): AsyncIterable<Site>;
  siteDrives(siteId: string): AsyncIterable<Drive>;
  /** The drive's items changed since `deltaLink` (all items without one); deleted items carry `deleted`. */
  driveDelta(driveId: string, deltaLink?: string): DeltaPages<DriveItem>;
  children(driveId: string, itemId: string): AsyncIterable<DriveItem>;
  item(driveId: string, itemId: string): Promise<DriveItem>;
  /** null when nothing is at that path (a 404 is not an error here). */
  itemByPath(driveId: string, path: string): Promise<DriveItem | null>;
  itemVersions(driveId: string, itemId: string): AsyncIterable<DriveItemVersion>;
  /** The bytes of the item, or of one of its versions. */
  itemContent(driveId: string, itemId: string, versionId?: string): Promise<Uint8Array>;
  /** Every group of the directory: Microsoft 365, security and distribution groups. */
  groups(): AsyncIterable<Group>;
  /** The group's members that are user accounts. */
  groupMembers(groupId: string): AsyncIterable<User>;
  /**
   * How many of each group's members are user accounts, counted by Graph
   * (`/members/microsoft.graph.user/$count`), read in JSON batches of 20: one round trip per 20
   * groups. A count throttled inside a batch is read again after its Retry-After; a group Graph
   * refuses (404 for one deleted meanwhile, 403) fails the call with that GraphError, as reading its
   * count alone would.
   */
  groupUserCounts(groupIds: readonly string[]): Promise<Map<string, number>>;
  /** Groups provisioned as Teams. */
  teams(): AsyncIterable<Group>;
  /** The group's root site: a team's own SharePoint site. */
  groupRootSite(groupId: string): Promise<Site>;
  channels(teamId: string): AsyncIterable<Channel>;
  /**
   * Each team's channels, read in JSON batches of 20 teams (one round trip per 20 rather than one
   * per team; a further page, which Graph does not give for channels, read alone). A team Graph
   * refuses (404, 403) fails the call with that GraphError, as reading its channels alone would.
   */
  teamsChannels(teamIds: readonly string[]): Promise<Map<string, Channel[]>>;
  channelMessages(teamId: string, channelId: string): AsyncIterable<ChatMessage>;
  messageReplies(teamId: string, channelId: string, messageId: string): AsyncIterable<ChatMessage>;
  /** The chats (one-on-one, group and meeting chats) the user takes part in. */
  userChats(userId: string): AsyncIterable<Chat>;
  chatMembers(chatId: string): AsyncIterable<AadUserConversationMember>;
  /** A chat's messages, system events included (callers skip what is not a message). */
  chatMessages(chatId: string): AsyncIterable<ChatMessage>;
  /** Every mail folder of the mailbox, child folders included, each with its path in `displayName` order. */
  mailFolders(userId: string): AsyncIterable<MailFolder & { path: string }>;
  messagesDelta(userId: string, folderId: string, deltaLink?: string): DeltaPages<Message>;
  /** The message as MIME (.eml). */
  messageMime(userId: string, messageId: string): Promise<Uint8Array>;
  /** The mailbox's calendars (its own and those shared with it), as List calendars gives them. */
  calendars(userId: string): AsyncIterable<Calendar>;
  /**
   * The calendar's event instances in `window` changed since `deltaLink` (all of them without one):
   * single events, occurrences and exceptions of series (never a series master: Graph's event delta
   * works on a calendar view only); deleted ones, or moved out of the window, carry `@removed`. The
   * window (the instances overlapping it) is given on the first round only: the links carry it.
   */
  calendarViewDelta(
    userId: string,
    calendarId: string,
    window: { start: Date; end: Date },
    deltaLink?: string,
  ): DeltaPages<Event>;
  /**
   * One event by its id (a series master too), with the ids of its cancelled occurrences
   * (`OID.{master}.{date}`) and its exceptions expanded: what a series is restored or exported from.
   */
  seriesMaster(userId: string, eventId: string): Promise<Event>;
  /** The event's attachments; a file attachment carries its bytes in `contentBytes` (base64). */
  eventAttachments(userId: string, eventId: string): AsyncIterable<FileAttachment>;
  /** Every contact folder of the mailbox, child folders included, each with its path. */
  contactFolders(userId: string): AsyncIterable<ContactFolder & { path: string }>;
  /** The folder's contacts changed since `deltaLink` (all without one); deleted ones carry `@removed`. */
  contactsDelta(userId: string, folderId: string, deltaLink?: string): DeltaPages<Contact>;
  /** The mailbox owner's To Do lists. */
  todoLists(userId: string): AsyncIterable<TodoTaskList>;
  /** The list's tasks changed since `deltaLink` (all without one); deleted ones carry `@removed`. */
  tasksDelta(userId: string, listId: string, deltaLink?: string): DeltaPages<TodoTask>;
  /** A task's checklist items (the steps of the task). */
  checklistItems(userId: string, listId: string, taskId: string): AsyncIterable<ChecklistItem>;
  // ——— Restore of calendars, contacts and To Do (the writes an Exchange restore makes) ———
  /** One event (a series master, an occurrence or exception too); null when the mailbox has none by that id. */
  event(userId: string, eventId: string): Promise<Event | null>;
  /** A series' occurrences and exceptions in `window`, each with its `originalStart`. */
  eventInstances(userId: string, eventId: string, window: { start: Date; end: Date }): AsyncIterable<Event>;
  createCalendar(userId: string, name: string): Promise<Calendar>;
  /** Creates an event (a series with its `recurrence`) in the calendar. */
  createEvent(userId: string, calendarId: string, event: Event): Promise<Event>;
  /** Updates an event; an occurrence's id moves or changes that occurrence (it becomes an exception). */
  updateEvent(userId: string, eventId: string, changes: Event): Promise<Event>;
  /** Deletes an event; an occurrence's id cancels that occurrence of its series. */
  deleteEvent(userId: string, eventId: string): Promise<void>;
  /** Adds a file attachment (its bytes in one request: Graph takes up to 3 MB so). */
  addEventAttachment(
    userId: string,
    eventId: string,
    file: { name: string; contentType: string; isInline: boolean; content: Uint8Array },
  ): Promise<void>;
  /** Creates a contact folder at the top of the mailbox. */
  createContactFolder(userId: string, name: string): Promise<ContactFolder>;
  /** One contact; null when the mailbox has none by that id. */
  contact(userId: string, contactId: string): Promise<Contact | null>;
  createContact(userId: string, folderId: string, contact: Contact): Promise<Contact>;
  updateContact(userId: string, contactId: string, changes: Contact): Promise<Contact>;
  createTodoList(userId: string, name: string): Promise<TodoTaskList>;
  /** One task of a list; null when the list has none by that id (or the list is gone). */
  todoTask(userId: string, listId: string, taskId: string): Promise<TodoTask | null>;
  /** Creates a task; checklist items given with it are created with it. */
  createTodoTask(userId: string, listId: string, task: TodoTask): Promise<TodoTask>;
  updateTodoTask(userId: string, listId: string, taskId: string, changes: TodoTask): Promise<TodoTask>;
  createChecklistItem(userId: string, listId: string, taskId: string, item: ChecklistItem): Promise<ChecklistItem>;
  deleteChecklistItem(userId: string, listId: string, taskId: string, itemId: string): Promise<void>;
  // ——— end of the restore of calendars, contacts and To Do ———
  /** Creates a mail folder at the top of the mailbox, or below `parentId`. */
  createMailFolder(userId: string, parentId: string | null, name: string): Promise<MailFolder>;
  /** Puts a message (its MIME) into a folder, as a restore does. */
  importMessage(userId: string, folderId: string, mime: Uint8Array): Promise<Message>;
  /** Creates or replaces a file under `parentId`; large files go through an upload session. */
  uploadContent(
    driveId: string,
    parentId: string,
    name: string,
    bytes: Uint8Array,
    conflict: ConflictBehavior,
  ): Promise<DriveItem>;
  createFolder(driveId: string, parentId: string, name: string, conflict: ConflictBehavior): Promise<DriveItem>;
  restoreVersion(driveId: string, itemId: string, versionId: string): Promise<void>;
  /** Who the item is shared with (direct and inherited grants, owners included). */
  itemPermissions(driveId: string, itemId: string): AsyncIterable<Permission>;
  /** Shares the item with users of the tenant (no invitation mail), as a restore puts grants back. */
  grantPermission(driveId: string, itemId: string, grant: { userIds: string[]; roles: string[] }): Promise<void>;
  deleteVersion(driveId: string, itemId: string, versionId: string): Promise<void>;
  /**
   * The site's lists a list backup keeps: neither hidden lists nor document libraries (the drive
   * backup holds those), and no system list (Graph lists them only when `$select` names `system`).
   */
  siteLists(siteId: string): AsyncIterable<List>;
  listColumns(siteId: string, listId: string): AsyncIterable<ColumnDefinition>;
  listContentTypes(siteId: string, listId: string): AsyncIterable<ContentType>;
  /** The list's items changed since `deltaLink` (all without one), each with its fields; deleted ones carry `deleted`. */
  listItemsDelta(siteId: string, listId: string, deltaLink?: string): DeltaPages<ListItem & { deleted?: Deleted }>;
  /** The item's versions, newest first, each with its fields at that version. */
  listItemVersions(siteId: string, listId: string, itemId: string): AsyncIterable<ListItemVersion>;
  /** The site's pages (sitePages only), without their canvas. */
  sitePages(siteId: string): AsyncIterable<SitePage>;
  /** One site page with its canvas (sections, columns, web parts). */
  sitePage(siteId: string, pageId: string): Promise<SitePage>;

  // The writes a restore of a site's lists, list items and pages makes.
  /**
   * Creates a list of `template` with `columns` besides the template's own: Graph v1.0 takes a
   * list's columns in this call only (a template Graph does not make is refused with a 400).
   */
  createList(
    siteId: string,
    list: { displayName: string; description: string; template: string; columns: ColumnDefinition[] },
  ): Promise<List>;
  /** One item of the list, or null when the list has no such item (a 404 is not an error here). */
  listItem(siteId: string, listId: string, itemId: string): Promise<ListItem | null>;
  /** Creates an item with these column values (a person or lookup column as `<name>LookupId`). */
  createListItem(siteId: string, listId: string, fields: Record<string, unknown>): Promise<ListItem>;
  /** Writes these column values over the item's current ones, saved as its new version. */
  updateListItemFields(siteId: string, listId: string, itemId: string, fields: Record<string, unknown>): Promise<void>;
  /** Creates a site page (checked out to the app until published) with its canvas. */
  createSitePage(siteId: string, page: SitePage): Promise<SitePage>;
  /** Publishes the page's current version. */
  publishSitePage(siteId: string, pageId: string): Promise<void>;
}

/** The code of a GraphError raised before any request, for an id that cannot name a Graph resource. */
export const INVALID_GRAPH_ID = 'invalidGraphId';

/** What Microsoft said beside a refusal, or where a request did not get through, for its diagnosis. */
export interface GraphErrorDetails {
  /** Graph's `request-id`, or the identity platform's `x-ms-request-id`. */
  requestId?: string;
  /** The `client-request-id` Microsoft echoed. */
  clientRequestId?: string;
  /** The identity platform's AADSTS code (AADSTS7000222), correlation and trace ids and time. */
  aadsts?: string;
  correlationId?: string;
  traceId?: string;
  timestamp?: string;
  /** The roles of the token a refused (403) Graph call carried; undefined when it is not readable. */
  roles?: readonly string[];
  /** The host (with its port) the request went to. */
  host?: string;
  /** Microsoft's own words, or the network's. */
  said?: string;
}

/** A failed Graph call (or token request): its HTTP status, error code and whether retrying can help. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds from Retry-After, when given. */
    readonly retryAfter?: number,
    readonly details: GraphErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GraphError';
  }

  /**
   * Permanent: retrying the same item will fail the same way (not found, forbidden, no mailbox,
   * bad request). Transient: throttling, server errors, timeouts.
   */
  get permanent(): boolean {
    return this.status !== 429 && this.status !== 408 && this.status < 500;
  }
}
