/**
 * Microsoft Graph application permissions (app roles) a tenant's administrator grants an app
 * registration, and the delegated permissions a signed-in user's token carries. A simulated tenant's
 * consent set becomes the `roles` claim of its tokens, a user's consent at sign-in the `scp` claim of
 * theirs, and every Graph route asks for one of the permissions Microsoft documents for its call (the
 * "Permissions" table of each API page on learn.microsoft.com, application and delegated rows: the
 * least privileged permission first, then the higher privileged ones, any one of which is enough).
 * Resource-specific consent (`….Group`, `….Chat`) and `Sites.Selected` are left out: they grant one
 * team, chat or site, not the tenant, and the simulator grants tenant-wide permissions only. Nor is
 * what a signed-in user may reach beyond their token's scopes (their mailbox folder permissions, a
 * file's sharing, a team's or chat's membership) modelled: a delegated token with a `.All` or
 * `.Shared` scope reads every user's data of that kind.
 */
import { graphError, type SimResponse } from './graph/odata.js';

/** Every application permission the simulated paths need; a tenant's consent set by default. */
export const ALL_APPLICATION_PERMISSIONS: readonly string[] = Object.freeze([
  // the tenant's organization and its verified domains
  'Organization.Read.All',
  // users, their drives, mailboxes and chats
  'User.Read.All',
  // drives, items, versions, content, permissions, uploads and version restore or removal
  'Files.ReadWrite.All',
  // sites, their document libraries, lists, items and pages, and the writes restores make to them
  'Sites.ReadWrite.All',
  // mail folders, messages, delta and MIME, folder creation and MIME import
  'Mail.ReadWrite',
  // groups and their members
  'Group.Read.All',
  // teams, their channels and members
  'Team.ReadBasic.All',
  'Channel.ReadBasic.All',
  'TeamMember.Read.All',
  // channel messages and replies
  'ChannelMessage.Read.All',
  // chats, their members and messages
  'Chat.Read.All',
  // calendars, events, calendar view and its delta, attachments; new calendars, events and attachments
  'Calendars.ReadWrite',
  // contact folders, contacts and their delta; new folders and contacts
  'Contacts.ReadWrite',
  // To Do lists and tasks and their delta; new lists and tasks
  'Tasks.ReadWrite.All',
]);

/** The Microsoft 365 service behind a Graph path: each refuses a missing permission with its own error body. */
export type Workload = 'directory' | 'sharepoint' | 'outlook' | 'teams';

/** What a Graph route asks of a token: of an app-only token's `roles`, or of a user's token's `scp`. */
export interface RouteRule {
  /** The application permissions Microsoft documents for the call, least privileged first; one suffices. */
  anyOf: readonly string[];
  workload: Workload;
  /** The delegated permissions that reach any user's data on the route (the signed-in user's too). */
  delegated: readonly string[];
  /**
   * Delegated permissions that reach only the signed-in user's own profile, mailbox, OneDrive or chats
   * (User.Read, Mail.Read, Files.Read…): on another user's they are refused.
   */
  delegatedOwn: readonly string[];
}

/** The caller of a Graph request, as its token says: an app by its `roles`, or a signed-in user by `scp`. */
export type GraphAccess =
  | { kind: 'application'; roles: readonly string[] }
  | { kind: 'delegated'; userId: string; scopes: readonly string[] };

const rule = (workload: Workload, anyOf: string[], delegated: { any?: string[]; own?: string[] } = {}): RouteRule =>
  Object.freeze({ workload, anyOf, delegated: delegated.any ?? anyOf, delegatedOwn: delegated.own ?? [] });

// Each rule: the application row of the call's "Permissions" table, then its delegated (work or school
// account) row; `own` holds the delegated permissions Microsoft grants on the signed-in user's data only.

// List organization, Get organization: any signed-in user reads their own organization with User.Read.
const ORGANIZATION = rule(
  'directory',
  ['Organization.Read.All', 'Directory.Read.All', 'Organization.ReadWrite.All', 'Directory.ReadWrite.All'],
  {
    any: [
      'User.Read',
      'Organization.Read.All',
      'Directory.Read.All',
      'Organization.ReadWrite.All',
      'Directory.ReadWrite.All',
    ],
  },
);
const DIRECTORY_USERS = [
  'User.ReadBasic.All',
  'User.Read.All',
  'User.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];
// List users, users/$count.
const USERS = rule(
  'directory',
  ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  {
    any: DIRECTORY_USERS,
  },
);
// Get user: User.Read reads the signed-in user's profile only (/me).
const USER = rule(
  'directory',
  ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  {
    any: DIRECTORY_USERS,
    own: ['User.Read', 'User.ReadWrite'],
  },
);
// List groups, Get group, groups/$count.
const GROUPS = rule('directory', [
  'GroupMember.Read.All',
  'Group.Read.All',
  'Directory.Read.All',
  'Group.ReadWrite.All',
  'Directory.ReadWrite.All',
]);
// List group members (and its cast to users, and their count).
const GROUP_MEMBERS = rule('directory', [
  'GroupMember.Read.All',
  'Group.Read.All',
  'Directory.Read.All',
  'Group.ReadWrite.All',
  'GroupMember.ReadWrite.All',
]);
// Search for sites, Get site (a group's root site too).
const SITES = rule('sharepoint', ['Sites.Read.All', 'Sites.ReadWrite.All']);
// List lists, Get list, List items, listItem delta, List versions of a listItem, List pages, Get page
// (and its canvas and web parts).
const SITE_CONTENT = SITES;
// List columns, List contentTypes (of a list and of a site).
const LIST_SCHEMA = rule('sharepoint', [
  'Sites.Read.All',
  'Sites.ReadWrite.All',
  'Sites.Manage.All',
  'Sites.FullControl.All',
]);
// Get listItem (and its fields, one version): Sites.Manage.All reads items awaiting content approval too.
const LIST_ITEM = rule('sharepoint', ['Sites.Read.All', 'Sites.ReadWrite.All', 'Sites.Manage.All'], {
  any: ['Sites.Read.All', 'Sites.ReadWrite.All'],
});
// Create list: Sites.Manage.All, or Sites.ReadWrite.All for an app.
const LIST_CREATE = rule('sharepoint', ['Sites.Manage.All', 'Sites.ReadWrite.All'], { any: ['Sites.Manage.All'] });
// Create listItem, Update listItem (its fields); Create sitePage.
const SITE_WRITE = rule('sharepoint', ['Sites.ReadWrite.All']);
// Get drive, List drives, driveItem get, list children, delta, versions, content, list permissions:
// Files.Read reads the signed-in user's own OneDrive only.
const FILES_READ = rule(
  'sharepoint',
  ['Files.Read.All', 'Files.ReadWrite.All', 'Sites.Read.All', 'Sites.ReadWrite.All'],
  {
    any: ['Files.Read.All', 'Files.ReadWrite.All', 'Sites.Read.All', 'Sites.ReadWrite.All'],
    own: ['Files.Read', 'Files.ReadWrite'],
  },
);
// Upload (PUT content, createUploadSession), create folder, invite, restoreVersion, delete a version.
const FILES_WRITE = rule('sharepoint', ['Files.ReadWrite.All', 'Sites.ReadWrite.All'], {
  any: ['Files.ReadWrite.All', 'Sites.ReadWrite.All'],
  own: ['Files.ReadWrite'],
});
// List mailFolders, Get mailFolder, childFolders, List messages, Get message, message delta: Mail.Read
// and its kin read the signed-in user's mailbox, the .Shared ones also mailboxes shared with them.
const MAIL_BASIC = rule('outlook', ['Mail.ReadBasic.All', 'Mail.Read', 'Mail.ReadWrite'], {
  any: ['Mail.Read.Shared', 'Mail.ReadWrite.Shared'],
  own: ['Mail.ReadBasic', 'Mail.Read', 'Mail.ReadWrite'],
});
// A message's MIME ($value): Mail.ReadBasic.All reads no bodies.
const MAIL_READ = rule('outlook', ['Mail.Read', 'Mail.ReadWrite'], {
  any: ['Mail.Read.Shared', 'Mail.ReadWrite.Shared'],
  own: ['Mail.Read', 'Mail.ReadWrite'],
});
// Create mailFolder, create child folder, create message (MIME import).
const MAIL_WRITE = rule('outlook', ['Mail.ReadWrite'], { any: ['Mail.ReadWrite.Shared'], own: ['Mail.ReadWrite'] });
// List calendars, Get calendar, List events, Get event, List calendarView, event delta, List instances:
// Calendars.ReadBasic reads events without their bodies (answered so), the .Shared ones other users'.
const CALENDARS_BASIC_LIST = ['Calendars.ReadBasic', 'Calendars.Read', 'Calendars.ReadWrite'];
const CALENDARS_READ = rule('outlook', CALENDARS_BASIC_LIST, {
  any: ['Calendars.Read.Shared', 'Calendars.ReadWrite.Shared'],
  own: CALENDARS_BASIC_LIST,
});
// List attachments, Get attachment (and its $value): ReadBasic reads no attachments.
const CALENDAR_ATTACHMENTS = rule('outlook', ['Calendars.Read', 'Calendars.ReadWrite'], {
  any: ['Calendars.Read.Shared', 'Calendars.ReadWrite.Shared'],
  own: ['Calendars.Read', 'Calendars.ReadWrite'],
});
// Create calendar, Create event, Add attachment, Update event, Delete event.
const CALENDARS_WRITE = rule('outlook', ['Calendars.ReadWrite'], {
  any: ['Calendars.ReadWrite.Shared'],
  own: ['Calendars.ReadWrite'],
});
// List contactFolders, Get contactFolder, List childFolders, List contacts, Get contact, contact delta.
const CONTACTS_READ = rule('outlook', ['Contacts.Read', 'Contacts.ReadWrite'], {
  any: ['Contacts.Read.Shared', 'Contacts.ReadWrite.Shared'],
  own: ['Contacts.Read', 'Contacts.ReadWrite'],
});
// Create contactFolder, Create childFolder, Create contact, Update contact.
const CONTACTS_WRITE = rule('outlook', ['Contacts.ReadWrite'], {
  any: ['Contacts.ReadWrite.Shared'],
  own: ['Contacts.ReadWrite'],
});
// List lists, Get todoTaskList, todoTaskList delta, List tasks, Get todoTask, todoTask delta, List
// checklistItems, List linkedResources. The application rows name Tasks.Read.All (some with
// Tasks.ReadWrite.All beside it, some without); Tasks.ReadWrite.All reads every user's tasks too, so
// either does for every read. A signed-in user reads only their own To Do.
const TASKS_READ = rule('outlook', ['Tasks.Read.All', 'Tasks.ReadWrite.All'], {
  any: [],
  own: ['Tasks.Read', 'Tasks.ReadWrite'],
});
// Create todoTaskList, Create todoTask, Update todoTask, Create checklistItem, Delete checklistItem.
const TASKS_WRITE = rule('outlook', ['Tasks.ReadWrite.All'], { any: [], own: ['Tasks.ReadWrite'] });
// Get team.
const TEAM = rule('teams', [
  'Team.ReadBasic.All',
  'TeamSettings.Read.All',
  'TeamSettings.ReadWrite.All',
  'Group.Read.All',
  'Group.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
]);
// List joinedTeams.
const JOINED_TEAMS = rule('teams', [
  'Team.ReadBasic.All',
  'TeamSettings.Read.All',
  'TeamSettings.ReadWrite.All',
  'User.Read.All',
  'User.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
]);
// List channels, Get channel.
const CHANNELS = rule('teams', [
  'Channel.ReadBasic.All',
  'ChannelSettings.Read.All',
  'ChannelSettings.ReadWrite.All',
  'Group.Read.All',
  'Group.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
]);
// List channel messages, Get channel message, List replies.
const CHANNEL_MESSAGES = rule('teams', ['ChannelMessage.Read.All', 'Group.Read.All', 'Group.ReadWrite.All'], {
  any: ['ChannelMessage.Read.All', 'ChannelMessage.ReadWrite', 'Group.Read.All', 'Group.ReadWrite.All'],
});
const DELEGATED_CHATS = ['Chat.ReadBasic', 'Chat.Read', 'Chat.ReadWrite'];
// List chats: a user lists their own chats only.
const USER_CHATS = rule('teams', ['Chat.ReadBasic.All', 'Chat.Read.All', 'Chat.ReadWrite.All'], {
  any: [],
  own: DELEGATED_CHATS,
});
// Get chat.
const CHAT = rule('teams', ['Chat.ReadBasic.All', 'Chat.Read.All', 'Chat.ReadWrite.All'], { any: DELEGATED_CHATS });
// List members of a chat.
const CHAT_MEMBERS = rule(
  'teams',
  ['ChatMember.Read.All', 'ChatMember.ReadWrite.All', 'Chat.ReadBasic.All', 'Chat.Read.All', 'Chat.ReadWrite.All'],
  { any: ['ChatMember.Read', 'ChatMember.ReadWrite', ...DELEGATED_CHATS] },
);
// List chat messages, Get chat message.
const CHAT_MESSAGES = rule('teams', ['Chat.Read.All', 'Chat.ReadWrite.All'], { any: ['Chat.Read', 'Chat.ReadWrite'] });

/**
 * Each Graph route (`METHOD pattern`, as the router names it) and what it asks. `/users/{id}/drive/…`
 * and `/sites/{id}/drive/…` are served as `/drives/{id}/…` and ask what those do.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, RouteRule>> = Object.freeze({
  'GET organization': ORGANIZATION,
  'GET organization/:organization': ORGANIZATION,
  'GET users': USERS,
  'GET users/$count': USERS,
  'GET users/:user': USER,
  'GET users/:user/drive': FILES_READ,
  'GET sites': SITES,
  'GET sites/:site': SITES,
  'GET sites/:site/drive': FILES_READ,
  'GET sites/:site/drives': FILES_READ,
  'GET groups': GROUPS,
  'GET groups/$count': GROUPS,
  'GET groups/:group': GROUPS,
  'GET groups/:group/members': GROUP_MEMBERS,
  'GET groups/:group/members/microsoft.graph.user': GROUP_MEMBERS,
  'GET groups/:group/members/microsoft.graph.user/$count': GROUP_MEMBERS,
  'GET groups/:group/sites/root': SITES,
  'GET sites/:site/lists': SITE_CONTENT,
  'POST sites/:site/lists': LIST_CREATE,
  'GET sites/:site/contentTypes': LIST_SCHEMA,
  'GET sites/:site/lists/:list/items/delta': SITE_CONTENT,
  'GET sites/:site/lists/:list': SITE_CONTENT,
  'GET sites/:site/lists/:list/drive': FILES_READ,
  'GET sites/:site/lists/:list/columns': LIST_SCHEMA,
  'GET sites/:site/lists/:list/contentTypes': LIST_SCHEMA,
  'GET sites/:site/lists/:list/items': SITE_CONTENT,
  'POST sites/:site/lists/:list/items': SITE_WRITE,
  'GET sites/:site/lists/:list/items/:item': LIST_ITEM,
  'GET sites/:site/lists/:list/items/:item/fields': LIST_ITEM,
  'PATCH sites/:site/lists/:list/items/:item/fields': SITE_WRITE,
  'GET sites/:site/lists/:list/items/:item/versions': SITE_CONTENT,
  'GET sites/:site/lists/:list/items/:item/versions/:version': LIST_ITEM,
  'GET sites/:site/lists/:list/items/:item/versions/:version/fields': LIST_ITEM,
  'GET sites/:site/pages': SITE_CONTENT,
  'GET sites/:site/pages/microsoft.graph.sitePage': SITE_CONTENT,
  'POST sites/:site/pages': SITE_WRITE,
  'GET sites/:site/pages/:page': SITE_CONTENT,
  'GET sites/:site/pages/:page/microsoft.graph.sitePage': SITE_CONTENT,
  'GET sites/:site/pages/:page/microsoft.graph.sitePage/canvasLayout': SITE_CONTENT,
  'GET sites/:site/pages/:page/microsoft.graph.sitePage/webParts': SITE_CONTENT,
  // sitePage publish: Files.ReadWrite.All or Sites.ReadWrite.All (Files.ReadWrite delegated).
  'POST sites/:site/pages/:page/microsoft.graph.sitePage/publish': FILES_WRITE,
  'GET teams/:team': TEAM,
  'GET teams/:team/channels': CHANNELS,
  'GET teams/:team/channels/:channel': CHANNELS,
  'GET teams/:team/channels/:channel/messages': CHANNEL_MESSAGES,
  'GET teams/:team/channels/:channel/messages/:message/replies': CHANNEL_MESSAGES,
  'GET teams/:team/channels/:channel/messages/:message': CHANNEL_MESSAGES,
  'GET users/:user/chats': USER_CHATS,
  'GET users/:user/joinedTeams': JOINED_TEAMS,
  'GET chats/:chat': CHAT,
  'GET chats/:chat/members': CHAT_MEMBERS,
  'GET chats/:chat/messages': CHAT_MESSAGES,
  'GET chats/:chat/messages/:message': CHAT_MESSAGES,
  'GET users/:user/mailFolders': MAIL_BASIC,
  'GET users/:user/mailFolders/:folder': MAIL_BASIC,
  'GET users/:user/mailFolders/:folder/childFolders': MAIL_BASIC,
  'GET users/:user/mailFolders/:folder/messages/delta': MAIL_BASIC,
  'GET users/:user/mailFolders/:folder/messages': MAIL_BASIC,
  'GET users/:user/messages': MAIL_BASIC,
  'GET users/:user/messages/:message': MAIL_BASIC,
  'GET users/:user/mailFolders/:folder/messages/:message': MAIL_BASIC,
  'POST users/:user/mailFolders': MAIL_WRITE,
  'POST users/:user/mailFolders/:folder/childFolders': MAIL_WRITE,
  'POST users/:user/mailFolders/:folder/messages': MAIL_WRITE,
  'GET users/:user/messages/:message/$value': MAIL_READ,
  'GET users/:user/calendars': CALENDARS_READ,
  'GET users/:user/calendar': CALENDARS_READ,
  'GET users/:user/calendars/:calendar': CALENDARS_READ,
  'GET users/:user/calendarView/delta': CALENDARS_READ,
  'GET users/:user/calendars/:calendar/calendarView/delta': CALENDARS_READ,
  'GET users/:user/calendarView': CALENDARS_READ,
  'GET users/:user/calendar/calendarView': CALENDARS_READ,
  'GET users/:user/calendars/:calendar/calendarView': CALENDARS_READ,
  'GET users/:user/events': CALENDARS_READ,
  'GET users/:user/calendar/events': CALENDARS_READ,
  'GET users/:user/calendars/:calendar/events': CALENDARS_READ,
  'GET users/:user/events/:event/instances': CALENDARS_READ,
  'GET users/:user/events/:event': CALENDARS_READ,
  'GET users/:user/events/:event/attachments': CALENDAR_ATTACHMENTS,
  'GET users/:user/events/:event/attachments/:attachment': CALENDAR_ATTACHMENTS,
  'GET users/:user/events/:event/attachments/:attachment/$value': CALENDAR_ATTACHMENTS,
  'POST users/:user/calendars': CALENDARS_WRITE,
  'POST users/:user/events': CALENDARS_WRITE,
  'POST users/:user/calendar/events': CALENDARS_WRITE,
  'POST users/:user/calendars/:calendar/events': CALENDARS_WRITE,
  'POST users/:user/events/:event/attachments': CALENDARS_WRITE,
  'PATCH users/:user/events/:event': CALENDARS_WRITE,
  'DELETE users/:user/events/:event': CALENDARS_WRITE,
  'GET users/:user/contactFolders': CONTACTS_READ,
  'GET users/:user/contactFolders/:folder': CONTACTS_READ,
  'GET users/:user/contactFolders/:folder/childFolders': CONTACTS_READ,
  'GET users/:user/contactFolders/:folder/contacts/delta': CONTACTS_READ,
  'GET users/:user/contacts': CONTACTS_READ,
  'GET users/:user/contactFolders/:folder/contacts': CONTACTS_READ,
  'GET users/:user/contacts/:contact': CONTACTS_READ,
  'GET users/:user/contactFolders/:folder/contacts/:contact': CONTACTS_READ,
  'POST users/:user/contactFolders': CONTACTS_WRITE,
  'POST users/:user/contactFolders/:folder/childFolders': CONTACTS_WRITE,
  'POST users/:user/contacts': CONTACTS_WRITE,
  'POST users/:user/contactFolders/:folder/contacts': CONTACTS_WRITE,
  'PATCH users/:user/contacts/:contact': CONTACTS_WRITE,
  'PATCH users/:user/contactFolders/:folder/contacts/:contact': CONTACTS_WRITE,
  'GET users/:user/todo/lists/delta': TASKS_READ,
  'GET users/:user/todo/lists': TASKS_READ,
  'GET users/:user/todo/lists/:list': TASKS_READ,
  'GET users/:user/todo/lists/:list/tasks/delta': TASKS_READ,
  'GET users/:user/todo/lists/:list/tasks': TASKS_READ,
  'GET users/:user/todo/lists/:list/tasks/:task': TASKS_READ,
  'GET users/:user/todo/lists/:list/tasks/:task/checklistItems': TASKS_READ,
  'GET users/:user/todo/lists/:list/tasks/:task/linkedResources': TASKS_READ,
  'POST users/:user/todo/lists': TASKS_WRITE,
  'POST users/:user/todo/lists/:list/tasks': TASKS_WRITE,
  'PATCH users/:user/todo/lists/:list/tasks/:task': TASKS_WRITE,
  'POST users/:user/todo/lists/:list/tasks/:task/checklistItems': TASKS_WRITE,
  'DELETE users/:user/todo/lists/:list/tasks/:task/checklistItems/:item': TASKS_WRITE,
  'GET drives/:drive': FILES_READ,
  'GET drives/:drive/root/delta': FILES_READ,
  'GET drives/:drive/items/:item/delta': FILES_READ,
  'GET drives/:drive/root': FILES_READ,
  'GET drives/:drive/items/:item': FILES_READ,
  'GET drives/:drive/root/children': FILES_READ,
  'GET drives/:drive/items/:item/children': FILES_READ,
  'POST drives/:drive/root/children': FILES_WRITE,
  'POST drives/:drive/items/:item/children': FILES_WRITE,
  'GET drives/:drive/items/:item/versions': FILES_READ,
  'GET drives/:drive/items/:item/versions/:version': FILES_READ,
  'GET drives/:drive/items/:item/permissions': FILES_READ,
  'POST drives/:drive/items/:item/invite': FILES_WRITE,
  'GET drives/:drive/items/:item/content': FILES_READ,
  'GET drives/:drive/items/:item/versions/:version/content': FILES_READ,
  'POST drives/:drive/items/:item/versions/:version/restoreVersion': FILES_WRITE,
  'DELETE drives/:drive/items/:item/versions/:version': FILES_WRITE,
});

/** A path-addressed drive item (`root:/a/b:`): reading it as any item; PUT content and createUploadSession write. */
export const drivePathRule = (method: string): RouteRule => (method === 'GET' ? FILES_READ : FILES_WRITE);

/** The permissions a caller's token holds, and which of the rule's would do for it. */
function heldAndWanted(routeRule: RouteRule, access: GraphAccess, ownTarget: boolean) {
  if (access.kind === 'application') return { held: access.roles, wanted: routeRule.anyOf };
  return {
    held: access.scopes,
    wanted: ownTarget ? [...routeRule.delegatedOwn, ...routeRule.delegated] : routeRule.delegated,
  };
}

/**
 * Graph's 403 for a token that holds none of the permissions the route asks of it: of an app's
 * `roles`, or of a user's `scp` (where User.Read, Mail.Read, Files.Read and Chat.Read reach only the
 * signed-in user's own data: `ownTarget` says whether the path is theirs). Each workload words it as
 * Graph does: the directory's Authorization_RequestDenied, SharePoint's accessDenied (which names a
 * token without any roles or scopes), Outlook's ErrorAccessDenied, and Teams' Forbidden naming what
 * the API requires and what the token holds. Undefined when one of them is held.
 */
export function permissionRefusal(
  routeRule: RouteRule,
  access: GraphAccess,
  ownTarget = false,
): SimResponse | undefined {
  const { held, wanted } = heldAndWanted(routeRule, access, ownTarget);
  if (wanted.some((permission) => held.includes(permission))) return undefined;
  const kind = access.kind === 'application' ? 'role' : 'scope';
  switch (routeRule.workload) {
    case 'directory':
      return graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    case 'sharepoint':
      return graphError(
        403,
        'accessDenied',
        held.length === 0 ? 'Either scp or roles claim need to be present in the token.' : 'Access denied',
      );
    case 'outlook':
      return graphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    case 'teams':
      return graphError(
        403,
        'Forbidden',
        // A user's own-data permission named for another user's (their chats) still says what the API takes.
        `Missing ${kind} permissions on the request. API requires one of '${(wanted.length > 0 ? wanted : routeRule.delegatedOwn).join(', ')}'. ${kind === 'role' ? 'Roles' : 'Scopes'} on the request '${held.join(', ')}'.`,
      );
  }
}
