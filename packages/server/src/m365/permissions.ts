/**
 * The Microsoft Graph application permissions a real tenant must grant the portal's app registration,
 * per area of the portal: the least set that lets through every Graph call the area makes (the jobs'
 * executors and the modules that choose their sources), as Microsoft documents each call's
 * application permissions (learn.microsoft.com, the API page's "Permissions" table: the least
 * privileged one, or a higher privileged one listed beside it). The accounts, sites and teams that
 * jobs are set up with are read into discovery by the area that first offers them (backup: accounts,
 * sites, teams; the mail archive: mailboxes); restore and clean-up choose among those. One source for
 * the connection test, the README's table (a test keeps them equal) and the tests against the
 * simulator, which enforces the same per-call lists.
 */
import type { MissingPermission, PermissionArea } from '@compliance-portal/sdk';
import { PERMISSION_AREAS } from '@compliance-portal/sdk';

export const AREA_PERMISSIONS: Readonly<Record<PermissionArea, readonly string[]>> = {
  // Backup of OneDrive, SharePoint and Teams, and the accounts, sites and teams it is set up with.
  backup: [
    // List users: the OneDrive accounts to back up (discovery).
    'User.Read.All',
    // Search for sites: the SharePoint sites to back up. Every drive read of the backup (a user's
    // drive, a site's drives, delta, items, versions, content, sharing permissions) lists
    // Files.Read.All as least privileged and Sites.Read.All beside it, so with Sites.Read.All needed
    // anyway, Files.Read.All would add nothing.
    'Sites.Read.All',
    // List groups filtered to those provisioned as teams: the teams to back up.
    'GroupMember.Read.All',
    // List channels of a team.
    'Channel.ReadBasic.All',
    // List channel messages and their replies.
    'ChannelMessage.Read.All',
  ],
  // Restore of files (into the original or another OneDrive or site, with their sharing), of a site's
  // lists, list items and pages, of archived mail (MIME import into a folder made for it) and of a
  // mailbox's archived calendars, contacts and To Do tasks. Teams messages restore as a download only.
  restore: [
    // Create listItem and update listItem (its fields), create sitePage: Sites.ReadWrite.All least.
    // Create list lists Sites.Manage.All least, and Sites.ReadWrite.All beside it for an application;
    // List lists, List columns, Get listItem and List pages list it too. publish (sitePage) and every
    // drive call of a file restore (get drive, list drives, an item by path, create folder, upload
    // and upload session, invite) list Files.ReadWrite.All least and Sites.ReadWrite.All beside it,
    // so with Sites.ReadWrite.All needed anyway, Files.ReadWrite.All or Sites.Manage.All would add nothing.
    'Sites.ReadWrite.All',
    // List mail folders, create mail folder and child folder, create message from MIME.
    'Mail.ReadWrite',
    // Create calendar, create event, update event (an occurrence too), delete event (an occurrence:
    // cancelled), add attachment; the reads beside them (list calendars, get event, list instances,
    // list attachments) list Calendars.ReadWrite as well.
    'Calendars.ReadWrite',
    // Create contactFolder, create contact, update contact; list contactFolders and child folders
    // and get contact list Contacts.ReadWrite as well.
    'Contacts.ReadWrite',
    // Create todoTaskList, create todoTask, update todoTask, create and delete checklistItem; list
    // lists, get todoTask and list checklistItems list Tasks.ReadWrite.All as well.
    'Tasks.ReadWrite.All',
  ],
  // Exchange archive, its mailboxes and its proxy rights (distribution groups and their members).
  mailArchive: [
    // List users: the mailboxes to archive (discovery).
    'User.Read.All',
    // List groups and group members: distribution groups holding proxy rights, for eDiscovery too.
    'GroupMember.Read.All',
    // Mail folders and message delta need Mail.ReadBasic.All; a message's MIME ($value) needs Mail.Read.
    'Mail.Read',
    // Calendars and calendar view delta list Calendars.ReadBasic least, but it reads events without
    // their body, and an event's attachments need Calendars.Read.
    'Calendars.Read',
    // Contact folders, child folders and contact delta.
    'Contacts.Read',
    // To Do lists, task delta and a task's checklist items.
    'Tasks.Read.All',
  ],
  // Teams archive of channel messages, and the teams and members it is set up with.
  teamsArchive: [
    // List groups (teams among them) and a team's members.
    'GroupMember.Read.All',
    'Channel.ReadBasic.All',
    'ChannelMessage.Read.All',
  ],
  // The chats of chosen accounts, archived with the Teams archive. List chats (Chat.ReadBasic.All
  // least) and list chat members (ChatMember.Read.All least) both list Chat.Read.All beside their
  // least one, and list chat messages needs it: one permission for the three.
  chats: ['Chat.Read.All'],
  // Clean-up of old file versions, the file manager and the storage analysis it is chosen from.
  cleanup: [
    // Search for sites: the storage analysis and the sites to clean up; a team group's root site
    // (Get site, /groups/{id}/sites/root): which of them is a team's.
    'Sites.Read.All',
    // Delete a version; the drive reads (drives, delta, items, children, versions) list it too.
    'Files.ReadWrite.All',
    // List groups filtered to those provisioned as teams: the teams whose sites are labelled as teams.
    'GroupMember.Read.All',
  ],
  // User synchronisation: List users.
  userSync: ['User.Read.All'],
  // The connection test reads one page of users, and the organization's verified domains: the
  // tenant's default domain, by which the header names it (without it the header names none).
  connectionTest: ['User.Read.All', 'Organization.Read.All'],
};

/**
 * Higher privileged permissions that satisfy an area's permission: each is listed beside it in the
 * application row of every call the areas make with it (the simulator's ROUTE_PERMISSIONS hold those
 * rows; a test checks this table against them). Only permissions the areas ask for have an entry.
 */
export const SATISFIED_BY: Readonly<Record<string, readonly string[]>> = {
  'User.Read.All': ['User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  'Sites.Read.All': ['Sites.ReadWrite.All'],
  'Files.ReadWrite.All': ['Sites.ReadWrite.All'],
  'GroupMember.Read.All': ['Group.Read.All', 'Group.ReadWrite.All', 'Directory.Read.All'],
  'Channel.ReadBasic.All': [
    'ChannelSettings.Read.All',
    'ChannelSettings.ReadWrite.All',
    'Group.Read.All',
    'Group.ReadWrite.All',
    'Directory.Read.All',
    'Directory.ReadWrite.All',
  ],
  'ChannelMessage.Read.All': ['Group.Read.All', 'Group.ReadWrite.All'],
  'Mail.Read': ['Mail.ReadWrite'],
  'Calendars.Read': ['Calendars.ReadWrite'],
  'Contacts.Read': ['Contacts.ReadWrite'],
  'Tasks.Read.All': ['Tasks.ReadWrite.All'],
  'Chat.Read.All': ['Chat.ReadWrite.All'],
  'Organization.Read.All': ['Directory.Read.All', 'Organization.ReadWrite.All', 'Directory.ReadWrite.All'],
};

/** Whether `roles` hold `permission` or a higher privileged one that satisfies it. */
export function grants(roles: readonly string[], permission: string): boolean {
  return roles.includes(permission) || (SATISFIED_BY[permission] ?? []).some((p) => roles.includes(p));
}

/** The areas' permissions `roles` do not grant, each with the areas needing it, in the areas' order. */
export function missingPermissions(roles: readonly string[]): MissingPermission[] {
  const missing = new Map<string, PermissionArea[]>();
  for (const area of PERMISSION_AREAS) {
    for (const permission of AREA_PERMISSIONS[area]) {
      if (grants(roles, permission)) continue;
      missing.set(permission, [...(missing.get(permission) ?? []), area]);
    }
  }
  return [...missing].map(([permission, areas]) => ({ permission, areas }));
}

/**
 * The `roles` claim of an app-only access token (the application permissions granted), or undefined
 * when the token is not a JWT with a readable payload. The signature is not verified: the token came
 * to this process from the identity platform, and its claims serve a diagnosis shown to an
 * administrator, never an access decision (Graph makes those).
 */
export function tokenRoles(token: string): string[] | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { roles?: unknown };
    if (typeof claims !== 'object' || claims === null) return undefined;
    // Entra ID leaves the claim out when no application permission is granted.
    if (claims.roles === undefined) return [];
    return Array.isArray(claims.roles) ? claims.roles.filter((r): r is string => typeof r === 'string') : undefined;
  } catch {
    return undefined;
  }
}
