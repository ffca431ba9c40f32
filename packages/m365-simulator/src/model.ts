/**
 * The simulated Microsoft 365 tenant: users and their OneDrives and mailboxes, SharePoint sites,
 * Teams with channels; generated from a seed, so the same tenant id gives the same content (bytes
 * are derived on demand, only metadata and what restores write are kept in memory). Changes are
 * numbered: a delta link carries the number it was issued at, and a delta query returns what changed
 * after it.
 */
import { BASE_TIME, hexId, iso, later, prng, words } from './generate.js';
import {
  deferMailboxItems,
  emptyMailboxItems,
  evolveMailboxItems,
  type MailboxItems,
  type MailboxItemsEvolution,
  type MailboxItemsSize,
} from './mailbox-items.js';
import { buildSiteContent, evolveSiteContent, type SimList, type SimPage, type SiteEvolution } from './sites.js';

export interface TenantSize extends MailboxItemsSize {
  users: number;
  sites: number;
  teams: number;
  channelsPerTeam: number;
  foldersPerDrive: number;
  filesPerDrive: number;
  versionsPerFile: number;
  /** File sizes, bytes: from min to max. */
  fileSize: [number, number];
  /** Every n-th file is a copy of a shared template (identical bytes), as real tenants have. */
  templateEvery: number;
  messagesPerFolder: number;
  messagesPerChannel: number;
  repliesPerMessage: number;
  /** Chats between the accounts: one-on-one and group chats in turn. */
  chats: number;
  messagesPerChat: number;
  /**
   * Every mailbox also has Exchange's other standard folders (Deleted Items, Drafts, Junk Email), empty;
   * off by default, so that a mailbox lists only Inbox (with Inbox/TestOrder), Sent Items and Archive.
   */
  standardFolders: boolean;
  /**
   * Every team also has its SharePoint site, as Microsoft 365 makes one for each team: its group's root
   * site (`/groups/{id}/sites/root`), named after the team, listed among the sites with a library of
   * its own. Off by default, so that a tenant's sites are `sites` only.
   */
  teamSites: boolean;
  /** Generic lists per site besides its library: an issue tracker, a register and a custom list in turn. */
  listsPerSite: number;
  listItemsPerList: number;
  /** Versions of each generated list item (each save after the first changes a column). */
  versionsPerListItem: number;
  /** Site pages per site: the home page, then articles. */
  pagesPerSite: number;
}

export const DEMO_SIZE: TenantSize = {
  users: 4,
  sites: 2,
  teams: 2,
  channelsPerTeam: 2,
  foldersPerDrive: 3,
  filesPerDrive: 12,
  versionsPerFile: 3,
  fileSize: [2_000, 24_000],
  templateEvery: 5,
  messagesPerFolder: 5,
  messagesPerChannel: 4,
  repliesPerMessage: 2,
  chats: 3,
  messagesPerChat: 4,
  standardFolders: false,
  teamSites: false,
  listsPerSite: 3,
  listItemsPerList: 4,
  versionsPerListItem: 2,
  pagesPerSite: 2,
  extraCalendars: 1,
  eventsPerCalendar: 4,
  sharedCalendars: false,
  extraContactFolders: 1,
  contactsPerFolder: 3,
  extraTaskLists: 1,
  tasksPerList: 3,
};

export interface SimVersion {
  id: string;
  size: number;
  modified: string;
  /** Bytes written by a restore or upload; otherwise generated from the seed. */
  content?: Uint8Array;
  /** Same bytes as another item's version (templates). */
  contentKey: string;
  /** The QuickXorHash of its bytes, once computed. */
  quickXorHash?: string;
}

export interface SimItem {
  id: string;
  driveId: string;
  name: string;
  parentId: string;
  kind: 'root' | 'folder' | 'file';
  versions: SimVersion[];
  created: string;
  /** Change number of the last change; deleted items keep theirs. */
  changed: number;
  deleted: boolean;
  forbidden?: boolean;
  /** Direct grants to users of the tenant. */
  permissions: { id: string; userId: string; roles: string[] }[];
}

export interface SimDrive {
  id: string;
  name: string;
  ownerId: string;
  items: Map<string, SimItem>;
}

export interface SimMessage {
  id: string;
  folderId: string;
  /** Decoded text (an imported RFC 2047 encoded-word subject is stored decoded). */
  subject: string;
  /** An address, or `Name <address>` as a MIME header has it. */
  from: string;
  /** Addresses, or `Name <address>`, separated by commas. */
  to: string;
  body: string;
  received: string;
  changed: number;
  /** The MIME as imported (a restored message), served as is. */
  raw?: Buffer;
  /** The Message-ID of an imported message. */
  internetMessageId?: string;
  hasAttachments?: boolean;
}

export interface SimMailFolder {
  id: string;
  name: string;
  /** null: at the top of the mailbox (below its root, msgfolderroot). */
  parentId: string | null;
  /** Exchange's well-known folder name (inbox, sentitems, archive…) when it is one. */
  wellKnownName?: string;
}

/** An account; with a mailbox, its folders and messages and (MailboxItems) its calendars, contacts and tasks. */
export interface SimUser extends MailboxItems {
  id: string;
  upn: string;
  displayName: string;
  driveId: string;
  hasMailbox: boolean;
  /** The id of the mailbox's root folder (msgfolderroot), parent of the top-level folders. */
  rootFolderId: string;
  folders: SimMailFolder[];
  messages: Map<string, SimMessage>;
}

export interface SimChatMessage {
  id: string;
  replyTo: string | null;
  from: string;
  body: string;
  created: string;
}

interface SimChannel {
  id: string;
  name: string;
  messages: SimChatMessage[];
}

/** A chat outside any team: one-on-one, or a group chat with a topic. */
export interface SimChat {
  id: string;
  chatType: 'oneOnOne' | 'group';
  topic: string | null;
  memberIds: string[];
  created: string;
  messages: SimChatMessage[];
}

export interface SimTenant {
  tenantId: string;
  domain: string;
  users: SimUser[];
  sites: {
    id: string;
    name: string;
    webUrl: string;
    driveIds: string[];
    deleted: boolean;
    /** The team whose group has this site as its root site (`teamSites`). */
    teamId?: string;
    /** Its lists: the library's, generic ones, the hidden User Information List. */
    lists: SimList[];
    /** The pages of its Site Pages library. */
    pages: SimPage[];
  }[];
  teams: { id: string; name: string; channels: SimChannel[] }[];
  chats: SimChat[];
  drives: Map<string, SimDrive>;
  size: TenantSize;
  /** The last change number. */
  clock: number;
  /**
   * Delta tokens issued before this change number have expired (answered 410 as Graph does when its
   * token retention is exceeded); `expireDeltaTokens` moves it to now.
   */
  deltaHorizon: number;
  /** Items created by later changes, per drive. */
  nextItem: number;
}

/** The bytes of a version: text-like (so it compresses as documents do), sized as recorded. */
export function versionBytes(tenantId: string, version: SimVersion): Uint8Array {
  if (version.content) return version.content;
  const random = prng(tenantId, version.contentKey);
  const text = Buffer.alloc(version.size);
  let at = 0;
  while (at < version.size) {
    const line = `${words(random, 12)} ${Math.floor(random() * 1e9)}\n`;
    at += text.write(line, at);
  }
  return new Uint8Array(text.buffer, text.byteOffset, version.size);
}

/**
 * A file and its versions; `at` (ISO), when given, is when it was created (its versions follow
 * minutes apart, the last one at `at`), else a time derived from `n`.
 */
function addFile(
  tenant: SimTenant,
  drive: SimDrive,
  parentId: string,
  name: string,
  n: number,
  changed: number,
  at?: string,
) {
  const random = prng(tenant.tenantId, drive.id, name, n);
  const [min, max] = tenant.size.fileSize;
  const template = tenant.size.templateEvery > 0 && n % tenant.size.templateEvery === 0;
  const versions: SimVersion[] = [];
  for (let v = 1; v <= tenant.size.versionsPerFile; v++) {
    const size = template ? min : Math.floor(min + random() * (max - min));
    versions.push({
      id: `${v}.0`,
      size,
      modified: at ? later(at, (v - tenant.size.versionsPerFile) * 7) : iso(n * 60 + v * 7),
      contentKey: template ? `template|${v}` : `${drive.id}|${name}|${n}|${v}`,
    });
  }
  const id = `${drive.id}-i${n}`;
  // Every fourth file is shared with a colleague.
  const colleague = tenant.users[(n + 1) % Math.max(1, tenant.users.length)];
  drive.items.set(id, {
    id,
    driveId: drive.id,
    name,
    parentId,
    kind: 'file',
    versions,
    created: at ? later(at, (1 - tenant.size.versionsPerFile) * 7) : iso(n * 60),
    changed,
    deleted: false,
    permissions:
      n % 4 === 1 && colleague
        ? [{ id: `p-${id}`, userId: colleague.id, roles: [n % 8 === 1 ? 'write' : 'read'] }]
        : [],
  });
  return id;
}

function buildDrive(tenant: SimTenant, id: string, name: string, ownerId: string): SimDrive {
  const drive: SimDrive = { id, name, ownerId, items: new Map() };
  const rootId = `${id}-root`;
  drive.items.set(rootId, {
    id: rootId,
    driveId: id,
    name: 'root',
    parentId: '',
    kind: 'root',
    versions: [],
    created: iso(0),
    changed: 0,
    deleted: false,
    permissions: [],
  });
  const folders = [rootId];
  for (let f = 0; f < tenant.size.foldersPerDrive; f++) {
    const folderId = `${id}-d${f}`;
    drive.items.set(folderId, {
      id: folderId,
      driveId: id,
      name: ['Documents', 'Projects', 'Finance', 'Archiv', 'Shared'][f % 5] + (f >= 5 ? ` ${f}` : ''),
      parentId: rootId,
      kind: 'folder',
      versions: [],
      created: iso(f),
      changed: 0,
      deleted: false,
      permissions: [],
    });
    folders.push(folderId);
  }
  for (let n = 0; n < tenant.size.filesPerDrive; n++) {
    const random = prng(tenant.tenantId, id, 'name', n);
    const ext = ['docx', 'xlsx', 'pdf', 'txt', 'pptx'][n % 5];
    const name = `${words(random, 2).replace(/ /g, '-')}-${n}.${ext}`;
    addFile(tenant, drive, folders[n % folders.length] ?? rootId, name, n, 0);
  }
  tenant.drives.set(id, drive);
  return drive;
}

const FOLDERS = ['Inbox', 'Inbox/TestOrder', 'Sent Items', 'Archive'];
/** Exchange's standard folders without generated mail (TenantSize.standardFolders). */
const STANDARD_FOLDERS = ['Deleted Items', 'Drafts', 'Junk Email'];
/** Well-known folder names (`/mailFolders/inbox`) of the folders above. */
export const WELL_KNOWN_FOLDERS: Record<string, string> = {
  Inbox: 'inbox',
  'Sent Items': 'sentitems',
  Archive: 'archive',
  'Deleted Items': 'deleteditems',
  Drafts: 'drafts',
  'Junk Email': 'junkemail',
};

/** A message; `at` (ISO), when given, is when it was received, else a time derived from `n`. */
function addMessage(tenant: SimTenant, user: SimUser, folderId: string, n: number, changed: number, at?: string) {
  const random = prng(tenant.tenantId, user.id, folderId, n);
  const id = hexId(tenant.tenantId, user.id, folderId, 'msg', n);
  const other = tenant.users[Math.floor(random() * tenant.users.length)] ?? user;
  user.messages.set(id, {
    id,
    folderId,
    subject: `${words(random, 3)} ${n}`.replace(/^./, (c) => c.toUpperCase()),
    from: other.upn,
    to: user.upn,
    body: words(random, 40),
    received: at ?? iso(n * 30 + 5),
    changed,
  });
}

/** The tenant's initial domain, where its users' addresses are: `t<six hex digits of its id>.onmicrosoft.com`. */
const tenantDomain = (tenantId: string) => `t${tenantId.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`;

/** The address of the first user `buildTenant` makes (Adele, with a mailbox), in a tenant of one user or more. */
export const firstUserAddress = (tenantId: string) => `adele@${tenantDomain(tenantId)}`;

export function buildTenant(tenantId: string, size: Partial<TenantSize> = {}): SimTenant {
  const domain = tenantDomain(tenantId);
  const tenant: SimTenant = {
    tenantId,
    domain,
    users: [],
    sites: [],
    teams: [],
    chats: [],
    drives: new Map(),
    size: { ...DEMO_SIZE, ...size },
    clock: 0,
    deltaHorizon: 0,
    nextItem: 1_000_000,
  };
  const first = ['Adele', 'Alex', 'Megan', 'Lynne', 'Diego', 'Isaiah', 'Johanna', 'Lee', 'Miriam', 'Nestor'];
  for (let u = 0; u < tenant.size.users; u++) {
    const name = `${first[u % first.length]}${u >= first.length ? u : ''}`;
    const id = hexId(tenantId, 'user', u);
    tenant.users.push({
      id,
      upn: `${name.toLowerCase()}@${domain}`,
      displayName: `${name} ${['Vance', 'Wilber', 'Bowen', 'Robbins', 'Siciliani'][u % 5]}`,
      driveId: `od-${id.slice(0, 8)}`,
      hasMailbox: true,
      rootFolderId: hexId(tenantId, id, 'folder', 'msgfolderroot'),
      folders: [],
      messages: new Map(),
      ...emptyMailboxItems(),
    });
  }
  // A guest account: it signs in to Teams but has no mailbox of this tenant.
  const guestId = hexId(tenantId, 'guest');
  tenant.users.push({
    id: guestId,
    upn: `guest_fabrikam.example#EXT#@${domain}`,
    displayName: 'Guest (Fabrikam)',
    driveId: `od-${guestId.slice(0, 8)}`,
    hasMailbox: false,
    rootFolderId: hexId(tenantId, guestId, 'folder', 'msgfolderroot'),
    folders: [],
    messages: new Map(),
    ...emptyMailboxItems(),
  });
  for (const user of tenant.users) {
    buildDrive(tenant, user.driveId, 'OneDrive', user.id);
    if (!user.hasMailbox) continue;
    for (const path of FOLDERS) {
      const parent = path.includes('/') ? user.folders.find((f) => f.name === path.split('/')[0]) : undefined;
      const wellKnownName = parent ? undefined : WELL_KNOWN_FOLDERS[path];
      user.folders.push({
        id: hexId(tenantId, user.id, 'folder', path),
        name: path.split('/').pop() ?? path,
        parentId: parent?.id ?? null,
        ...(wellKnownName ? { wellKnownName } : {}),
      });
    }
    for (const folder of user.folders) {
      for (let n = 0; n < tenant.size.messagesPerFolder; n++) addMessage(tenant, user, folder.id, n, 0);
    }
    if (tenant.size.standardFolders) {
      for (const name of STANDARD_FOLDERS) {
        const wellKnownName = WELL_KNOWN_FOLDERS[name];
        user.folders.push({
          id: hexId(tenantId, user.id, 'folder', name),
          name,
          parentId: null,
          ...(wellKnownName ? { wellKnownName } : {}),
        });
      }
    }
    deferMailboxItems(tenant, user);
  }
  for (let s = 0; s < tenant.size.sites; s++) {
    const id = `${domain.split('.')[0]}.sharepoint.com,${hexId(tenantId, 'site', s)}`;
    const drive = buildDrive(tenant, `sp-${hexId(tenantId, 'site', s).slice(0, 8)}`, 'Documents', id);
    const site = {
      id,
      name: ['Marketing', 'Finance', 'Legal', 'HR', 'Sales'][s % 5] + (s >= 5 ? ` ${s}` : ''),
      webUrl: `https://${domain.split('.')[0]}.sharepoint.com/sites/site${s}`,
      driveIds: [drive.id],
      deleted: false,
    };
    tenant.sites.push({ ...site, ...buildSiteContent(tenant, site) });
  }
  for (let t = 0; t < tenant.size.teams; t++) {
    const teamId = hexId(tenantId, 'team', t);
    const channels: SimChannel[] = [];
    for (let c = 0; c < tenant.size.channelsPerTeam; c++) {
      const messages: SimChatMessage[] = [];
      for (let m = 0; m < tenant.size.messagesPerChannel; m++) {
        const random = prng(tenantId, teamId, c, m);
        const id = `${1_700_000_000_000 + t * 100_000 + c * 1000 + m * 10}`;
        const author = tenant.users[m % Math.max(1, tenant.users.length)];
        messages.push({
          id,
          replyTo: null,
          from: author?.displayName ?? 'User',
          body: words(random, 20),
          created: iso(m * 45),
        });
        for (let r = 0; r < tenant.size.repliesPerMessage; r++) {
          messages.push({
            id: `${id}${r + 1}`,
            replyTo: id,
            from: tenant.users[(m + r + 1) % Math.max(1, tenant.users.length)]?.displayName ?? 'User',
            body: words(random, 8),
            created: iso(m * 45 + r + 1),
          });
        }
      }
      channels.push({
        id: `19:${hexId(teamId, c).replace(/-/g, '')}@thread.tacv2`,
        name: c === 0 ? 'General' : `Channel ${c}`,
        messages,
      });
    }
    tenant.teams.push({
      id: teamId,
      name: ['Project Falcon', 'Sales Team', 'IT Support', 'Leadership'][t % 4] ?? `Team ${t}`,
      channels,
    });
  }
  if (tenant.size.teamSites) {
    const host = `${domain.split('.')[0]}.sharepoint.com`;
    tenant.teams.forEach((team, t) => {
      const key = hexId(tenantId, 'team-site', t);
      // The library belongs to the team's group, as a team site's does.
      const drive = buildDrive(tenant, `sp-${key.slice(0, 8)}`, 'Documents', team.id);
      const site = {
        id: `${host},${key}`,
        name: team.name,
        webUrl: `https://${host}/sites/${team.name.replace(/[^A-Za-z0-9]+/g, '')}${t}`,
        driveIds: [drive.id],
        deleted: false,
        teamId: team.id,
      };
      tenant.sites.push({ ...site, ...buildSiteContent(tenant, site) });
    });
  }
  buildChats(tenant);
  return tenant;
}

const CHAT_TOPICS = ['Budget planning', 'Release review', 'Audit preparation', 'Travel plans'];

/**
 * Chats in turn one-on-one (two neighbouring accounts) and group chats of three with a topic; the
 * first group chat has the guest in it, as chats with external people are common.
 */
function buildChats(tenant: SimTenant) {
  const people = tenant.users.filter((u) => u.hasMailbox);
  const guest = tenant.users.find((u) => !u.hasMailbox);
  if (people.length < 2) return;
  for (let c = 0; c < tenant.size.chats; c++) {
    const group = c % 2 === 1;
    const members = group
      ? [0, 1, 2].map((k) => people[(c + k) % people.length] as SimUser)
      : [people[c % people.length] as SimUser, people[(c + 1) % people.length] as SimUser];
    if (group && c === 1 && guest) members.push(guest);
    const unique = [...new Map(members.map((u) => [u.id, u])).values()];
    const id = `19:${hexId(tenant.tenantId, 'chat', c).replace(/-/g, '')}@${group ? 'thread.v2' : 'unq.gbl.spaces'}`;
    const messages: SimChatMessage[] = [];
    for (let m = 0; m < tenant.size.messagesPerChat; m++) {
      const random = prng(tenant.tenantId, id, m);
      messages.push({
        id: `${1_750_000_000_000 + c * 1000 + m * 10}`,
        replyTo: null,
        from: unique[m % unique.length]?.displayName ?? 'User',
        body: words(random, 14),
        created: iso(600 + c * 60 + m * 7),
      });
    }
    tenant.chats.push({
      id,
      chatType: group ? 'group' : 'oneOnOne',
      topic: group ? (CHAT_TOPICS[Math.floor(c / 2) % CHAT_TOPICS.length] ?? null) : null,
      memberIds: unique.map((u) => u.id),
      created: iso(600 + c * 60),
      messages,
    });
  }
}

export interface SimGroup {
  id: string;
  displayName: string;
  mail: string;
  /** A Microsoft 365 group provisioned as a team, or a mail-enabled security group of everyone. */
  team: boolean;
  members: SimUser[];
}

/**
 * The tenant's groups: each team's Microsoft 365 group (members: every n-th account, the guest in the
 * first team) and "All Company", a mail-enabled security group of every account with a mailbox.
 */
export function groupsOf(tenant: SimTenant): SimGroup[] {
  const members = tenant.users.filter((u) => u.hasMailbox);
  const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const teams = tenant.teams.map((team, t) => ({
    id: team.id,
    displayName: team.name,
    mail: `${slug(team.name)}${t}@${tenant.domain}`,
    team: true,
    members: [
      ...members.filter((_u, i) => i % tenant.teams.length === t),
      ...(t === 0 ? tenant.users.filter((u) => !u.hasMailbox) : []),
    ],
  }));
  return [
    ...teams,
    {
      id: hexId(tenant.tenantId, 'all-company'),
      displayName: 'All Company',
      mail: `allcompany@${tenant.domain}`,
      team: false,
      members,
    },
  ];
}

export interface Evolution extends SiteEvolution, MailboxItemsEvolution {
  newFiles?: number;
  editedFiles?: number;
  deletedFiles?: number;
  newMessages?: number;
  newChannelMessages?: number;
  newChatMessages?: number;
  /**
   * When the change happens (an ISO date-time): new files and versions are modified, new mail
   * received, new channel and chat messages posted and list items and pages saved then, a few minutes
   * apart. Without it they get fixed instants derived from the change number, far from any calendar
   * (the default, kept for determinism).
   */
  at?: string;
}

/**
 * Applies changes across the tenant's drives, mailboxes (mail, then events, contacts and tasks), channels,
 * chats and sites' lists and pages, in a deterministic order.
 */
export function evolve(tenant: SimTenant, change: Evolution): number {
  tenant.clock += 1;
  const at = tenant.clock;
  const random = prng(tenant.tenantId, 'evolve', at);
  /** The time of the change's `k`-th new thing: `change.at` and a few minutes per thing, or the fixed default. */
  const when = (k: number) =>
    change.at ? later(change.at, k * 3) : new Date(BASE_TIME + 90 * 86_400_000 + at * 60_000).toISOString();
  const drives = [...tenant.drives.values()];
  const liveFiles = () =>
    drives.flatMap((d) => [...d.items.values()].filter((i) => i.kind === 'file' && !i.deleted && !i.forbidden));
  for (let n = 0; n < (change.newFiles ?? 0); n++) {
    const drive = drives[n % drives.length];
    if (!drive) break;
    const id = tenant.nextItem++;
    addFile(tenant, drive, `${drive.id}-root`, `new-${words(random, 1)}-${id}.docx`, id, at, change.at && when(n));
  }
  const files = liveFiles();
  for (let n = 0; n < (change.editedFiles ?? 0) && files.length > 0; n++) {
    const file = files[Math.floor(random() * files.length)];
    if (!file) continue;
    const latest = file.versions[file.versions.length - 1];
    const next = Number.parseInt(latest?.id ?? '0', 10) + 1;
    file.versions.push({
      id: `${next}.0`,
      size: latest?.size ?? 1000,
      modified: when(n),
      contentKey: `${file.id}|edit|${at}|${n}`,
    });
    file.changed = at;
  }
  for (let n = 0; n < (change.deletedFiles ?? 0); n++) {
    const live = liveFiles();
    const file = live[Math.floor(random() * live.length)];
    if (!file) break;
    file.deleted = true;
    file.changed = at;
  }
  const mailboxes = tenant.users.filter((u) => u.hasMailbox);
  for (let n = 0; n < (change.newMessages ?? 0) && mailboxes.length > 0; n++) {
    const user = mailboxes[n % mailboxes.length];
    const inbox = user?.folders[0];
    if (user && inbox) addMessage(tenant, user, inbox.id, 10_000 + at * 1000 + n, at, change.at && when(n));
  }
  for (let n = 0; n < (change.newChannelMessages ?? 0); n++) {
    const channel = tenant.teams[n % Math.max(1, tenant.teams.length)]?.channels[0];
    channel?.messages.push({
      id: `${1_800_000_000_000 + at * 1000 + n}`,
      replyTo: null,
      from: tenant.users[0]?.displayName ?? 'User',
      body: words(random, 15),
      created: when(n),
    });
  }
  for (let n = 0; n < (change.newChatMessages ?? 0); n++) {
    const chat = tenant.chats[n % Math.max(1, tenant.chats.length)];
    const author = tenant.users.find((u) => u.id === chat?.memberIds[0]);
    chat?.messages.push({
      id: `${1_850_000_000_000 + at * 1000 + n}`,
      replyTo: null,
      from: author?.displayName ?? 'User',
      body: words(random, 12),
      created: when(n),
    });
  }
  evolveMailboxItems(tenant, change, at, random, when);
  evolveSiteContent(tenant, change, at, when);
  return at;
}

/**
 * Expires every delta token issued so far (as Graph does when a token outlives its retention): their
 * next use answers 410 and the client must read the resource again from the start.
 */
export function expireDeltaTokens(tenant: SimTenant): void {
  tenant.clock += 1;
  tenant.deltaHorizon = tenant.clock;
}

/** The path of an item below its drive's root, "/Folder/name". */
export function pathOf(drive: SimDrive, item: SimItem): string {
  const parts: string[] = [];
  let current: SimItem | undefined = item;
  while (current && current.kind !== 'root') {
    parts.unshift(current.name);
    current = drive.items.get(current.parentId);
  }
  return `/${parts.join('/')}`;
}
