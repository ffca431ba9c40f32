/**
 * Microsoft Graph application permissions (app roles) a tenant's administrator grants an app
 * registration. A simulated tenant's consent set becomes the `roles` claim of its tokens, and every
 * Graph route asks for one of the permissions Microsoft documents for its call (the "Permissions"
 * table of each API page on learn.microsoft.com, application row: the least privileged permission
 * first, then the higher privileged ones, any one of which is enough). Resource-specific consent
 * (`….Group`, `….Chat`) and `Sites.Selected` are left out: they grant one team, chat or site, not the
 * tenant, and the simulator grants tenant-wide permissions only.
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
  // sites and their document libraries
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
]);

/** The Microsoft 365 service behind a Graph path: each refuses a missing permission with its own error body. */
export type Workload = 'directory' | 'sharepoint' | 'outlook' | 'teams';

/** What a Graph route asks of a token's `roles`. */
export interface RouteRule {
  /** The application permissions Microsoft documents for the call, least privileged first; one suffices. */
  anyOf: readonly string[];
  workload: Workload;
}

const rule = (workload: Workload, ...anyOf: string[]): RouteRule => Object.freeze({ workload, anyOf });

// List organization, Get organization.
const ORGANIZATION = rule(
  'directory',
  'Organization.Read.All',
  'Directory.Read.All',
  'Organization.ReadWrite.All',
  'Directory.ReadWrite.All',
);
// List users, Get user, users/$count.
const USERS = rule('directory', 'User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All');
// List groups, Get group, groups/$count.
const GROUPS = rule(
  'directory',
  'GroupMember.Read.All',
  'Group.Read.All',
  'Directory.Read.All',
  'Group.ReadWrite.All',
  'Directory.ReadWrite.All',
);
// List group members (and its cast to users, and their count).
const GROUP_MEMBERS = rule(
  'directory',
  'GroupMember.Read.All',
  'Group.Read.All',
  'Directory.Read.All',
  'Group.ReadWrite.All',
  'GroupMember.ReadWrite.All',
);
// Search for sites, Get site (a group's root site too).
const SITES = rule('sharepoint', 'Sites.Read.All', 'Sites.ReadWrite.All');
// Get drive, List drives, driveItem get, list children, delta, versions, content, list permissions.
const FILES_READ = rule('sharepoint', 'Files.Read.All', 'Files.ReadWrite.All', 'Sites.Read.All', 'Sites.ReadWrite.All');
// Upload (PUT content, createUploadSession), create folder, invite, restoreVersion, delete a version.
const FILES_WRITE = rule('sharepoint', 'Files.ReadWrite.All', 'Sites.ReadWrite.All');
// List mailFolders, Get mailFolder, childFolders, List messages, Get message, message delta.
const MAIL_BASIC = rule('outlook', 'Mail.ReadBasic.All', 'Mail.Read', 'Mail.ReadWrite');
// A message's MIME ($value): Mail.ReadBasic.All reads no bodies.
const MAIL_READ = rule('outlook', 'Mail.Read', 'Mail.ReadWrite');
// Create mailFolder, create child folder, create message (MIME import).
const MAIL_WRITE = rule('outlook', 'Mail.ReadWrite');
// Get team.
const TEAM = rule(
  'teams',
  'Team.ReadBasic.All',
  'TeamSettings.Read.All',
  'TeamSettings.ReadWrite.All',
  'Group.Read.All',
  'Group.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
);
// List channels, Get channel.
const CHANNELS = rule(
  'teams',
  'Channel.ReadBasic.All',
  'ChannelSettings.Read.All',
  'ChannelSettings.ReadWrite.All',
  'Group.Read.All',
  'Group.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
);
// List channel messages, Get channel message, List replies.
const CHANNEL_MESSAGES = rule('teams', 'ChannelMessage.Read.All', 'Group.Read.All', 'Group.ReadWrite.All');
// List chats (of a user), Get chat.
const CHATS = rule('teams', 'Chat.ReadBasic.All', 'Chat.Read.All', 'Chat.ReadWrite.All');
// List members of a chat.
const CHAT_MEMBERS = rule(
  'teams',
  'ChatMember.Read.All',
  'ChatMember.ReadWrite.All',
  'Chat.ReadBasic.All',
  'Chat.Read.All',
  'Chat.ReadWrite.All',
);
// List chat messages, Get chat message.
const CHAT_MESSAGES = rule('teams', 'Chat.Read.All', 'Chat.ReadWrite.All');

/**
 * Each Graph route (`METHOD pattern`, as the router names it) and what it asks. `/users/{id}/drive/…`
 * and `/sites/{id}/drive/…` are served as `/drives/{id}/…` and ask what those do.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, RouteRule>> = Object.freeze({
  'GET organization': ORGANIZATION,
  'GET organization/:organization': ORGANIZATION,
  'GET users': USERS,
  'GET users/$count': USERS,
  'GET users/:user': USERS,
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
  'GET teams/:team': TEAM,
  'GET teams/:team/channels': CHANNELS,
  'GET teams/:team/channels/:channel': CHANNELS,
  'GET teams/:team/channels/:channel/messages': CHANNEL_MESSAGES,
  'GET teams/:team/channels/:channel/messages/:message/replies': CHANNEL_MESSAGES,
  'GET teams/:team/channels/:channel/messages/:message': CHANNEL_MESSAGES,
  'GET users/:user/chats': CHATS,
  'GET chats/:chat': CHATS,
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

/**
 * Graph's 403 for a token whose `roles` hold none of the route's permissions, as each workload
 * words it: the directory's Authorization_RequestDenied, SharePoint's accessDenied (which names a
 * token without any roles), Outlook's ErrorAccessDenied, and Teams' Forbidden naming what the API
 * requires and what the token holds. Undefined when one of them is granted.
 */
export function permissionRefusal(routeRule: RouteRule, roles: readonly string[]): SimResponse | undefined {
  if (routeRule.anyOf.some((permission) => roles.includes(permission))) return undefined;
  switch (routeRule.workload) {
    case 'directory':
      return graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    case 'sharepoint':
      return graphError(
        403,
        'accessDenied',
        roles.length === 0 ? 'Either scp or roles claim need to be present in the token.' : 'Access denied',
      );
    case 'outlook':
      return graphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    case 'teams':
      return graphError(
        403,
        'Forbidden',
        `Missing role permissions on the request. API requires one of '${routeRule.anyOf.join(', ')}'. Roles on the request '${roles.join(', ')}'.`,
      );
  }
}
