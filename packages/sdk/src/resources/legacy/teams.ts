/** Legacy Teams: teams, members, found groups and accounts, the archive tree, message filtering. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { JobRun, page } from '../common.js';

/** Schema of one team in the answer of `GET /teams`. */
export const Team = s.object({
  teamId: s.string(),
  displayName: s.string(),
  description: s.optional(s.string()),
  channels: s.integer({ minimum: 0 }),
  archived: s.boolean('Covered by a Teams archive job.'),
});
/**
 * A team of the tenant: its name, description, number of channels, and whether a Teams archive job
 * covers it.
 */
export type Team = s.Static<typeof Team>;

/** Schema of one member in the answer of `GET /teams/members/{workerIp}`. */
export const Member = s.object({
  userId: s.string(),
  displayName: s.string(),
  email: s.string(),
  roles: s.array(s.string()),
});
/**
 * A member of a team: the user, their name and address, and their roles in the team (such as `owner`).
 */
export type Member = s.Static<typeof Member>;

/** Schema of one group in the answer of `GET /founded-groups/{workerIp}`. */
export const FoundGroup = s.object({
  groupId: s.string(),
  displayName: s.string(),
  mail: s.nullable(s.string()),
  kind: s.oneOfStrings(['distribution', 'security', 'microsoft365']),
});
/**
 * A group found in the tenant's directory: distribution, security or Microsoft 365 group, with its mail
 * address (null when it has none).
 */
export type FoundGroup = s.Static<typeof FoundGroup>;

/** Schema of the `{type}` path parameter of the found-accounts calls. */
export const AccountType = s.oneOfStrings(['user', 'group', 'team', 'site', 'mailbox']);
/** Which accounts to find: users, groups, teams, sites or mailboxes. */
export type AccountType = s.Static<typeof AccountType>;

/**
 * Schema of one account in the answers of `GET /founded-accounts/{workerIp}/{type}` and `GET
 * /restore/founded-accounts/{workerIp}/{type}`.
 */
export const FoundAccount = s.object({
  accountId: s.string(),
  displayName: s.string(),
  email: s.nullable(s.string()),
  type: AccountType,
});
/**
 * An account, group, team, site or mailbox found in the tenant, with its name and address (null when it
 * has none).
 */
export type FoundAccount = s.Static<typeof FoundAccount>;

/** A node of the Teams archive: a team, a channel or a chat. */
export const TeamsArchiveNode = s.object({
  nodeId: s.string(),
  kind: s.oneOfStrings(['team', 'channel', 'chat']),
  name: s.string(),
  messageCount: s.integer({ minimum: 0 }),
  held: s.integer({
    minimum: 0,
    description: 'Messages of the team or chat an eDiscovery case on legal hold keeps (0 for a channel).',
  }),
  children: s.array(s.object({ nodeId: s.string(), kind: s.string(), name: s.string(), messageCount: s.integer() })),
});
export type TeamsArchiveNode = s.Static<typeof TeamsArchiveNode>;

/** Schema of the body of `POST /backup-and-restore/teams-filter-re`. */
export const TeamsFilterRequest = s.object({
  workerIp: s.string({ minLength: 1 }),
  teamId: s.optional(s.string()),
  channelId: s.optional(s.string()),
  query: s.optional(s.string({ maxLength: 500 })),
  from: s.optional(s.dateTime()),
  to: s.optional(s.dateTime('Sent before. Not before `from`: a range given backwards is refused with 400.')),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
/**
 * Which archived Teams messages to list: a worker's tenant, optionally one team or channel, words to
 * search (at most 500 characters), when they were sent (`from` inclusive, `to` exclusive), and the page
 * (`pageSize` at most 500). Chats are included only where the caller may read a member's mailbox.
 */
export type TeamsFilterRequest = s.Static<typeof TeamsFilterRequest>;

/** Schema of one message in the answer of `POST /backup-and-restore/teams-filter-re`. */
export const TeamsMessage = s.object({
  messageId: s.string(),
  teamId: s.nullable(s.string()),
  channelId: s.nullable(s.string()),
  chatId: s.nullable(s.string()),
  from: s.string(),
  created: s.dateTime(),
  subject: s.nullable(s.string()),
  bodyPreview: s.string({
    description:
      'Plain text, not HTML (show it as text): the start of the message, or the text around the words searched.',
  }),
  replyToId: s.nullable(s.string()),
});
/**
 * An archived Teams message: its team and channel, or its chat (the others null), sender, time, subject
 * (null when none), a plain-text preview (show it as text, not HTML), and the message it replies to.
 */
export type TeamsMessage = s.Static<typeof TeamsMessage>;

/** Schema of the answer of `GET /teams-archive/statistics`. */
export const TeamsArchiveStatistics = s.object({
  configured: s.boolean('False: "Teams is not configured yet".'),
  periodDays: s.integer({ minimum: 1 }),
  teams: s.integer({ minimum: 0 }),
  channels: s.integer({ minimum: 0 }),
  chats: s.integer({ minimum: 0 }),
  messages: s.integer({ minimum: 0 }),
  bytes: s.integer({ minimum: 0 }),
  held: s.integer({ minimum: 0, description: 'Archived messages an eDiscovery case on legal hold keeps.' }),
  heldSources: s.integer({ minimum: 0, description: 'Teams and chats with messages under legal hold.' }),
  growth: s.array(
    s.object({
      date: s.date(),
      messages: s.integer({ minimum: 0, description: 'Messages archived that day (those deleted since included).' }),
      deletedMessages: s.optional(s.integer({ minimum: 0, description: 'Messages retention deleted that day.' })),
    }),
  ),
});
/**
 * The Teams archive's figures over the last 30 days (`periodDays`): archived teams, channels, chats,
 * messages and bytes, and the messages per day; the messages a legal hold keeps (`held`) and in how
 * many teams and chats (`heldSources`). `configured` false means "Teams is not configured yet".
 */
export type TeamsArchiveStatistics = s.Static<typeof TeamsArchiveStatistics>;

const workerQuery = s.object({ workerIp: s.string({ minLength: 1 }) });

/**
 * The catalogue entries of legacy Teams: teams and members, found groups and accounts, the archive
 * tree, message filtering, statistics and finished restores. {@link teamsApi} binds them.
 */
export const teamsEndpoints = defineResource('legacy', 'teams', {
  finishedRestoreJobs: {
    method: 'GET',
    path: '/backup-and-restore/finished-restore-teams-jobs/{workerIp}',
    scope: { workerTenant: { in: 'path', name: 'workerIp' } },
    summary: 'Finished Teams restore runs',
    response: s.array(JobRun),
  },
  list: {
    method: 'GET',
    path: '/teams',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: "The tenant's teams",
    query: workerQuery,
    response: s.array(Team),
  },
  members: {
    method: 'GET',
    path: '/teams/members/{workerIp}',
    scope: { workerTenant: { in: 'path', name: 'workerIp' } },
    summary: "A team's members",
    query: s.object({ teamId: s.string({ minLength: 1 }) }),
    response: s.array(Member),
  },
  foundGroups: {
    method: 'GET',
    path: '/founded-groups/{workerIp}',
    scope: { workerTenant: { in: 'path', name: 'workerIp' } },
    summary: 'Groups found in the tenant',
    response: s.array(FoundGroup),
  },
  foundAccounts: {
    method: 'GET',
    path: '/founded-accounts/{workerIp}/{type}',
    scope: { workerTenant: { in: 'path', name: 'workerIp' } },
    summary: 'Accounts of one type found in the tenant',
    params: s.object({ workerIp: s.string(), type: AccountType }),
    response: s.array(FoundAccount),
  },
  restoreFoundAccounts: {
    method: 'GET',
    path: '/restore/founded-accounts/{workerIp}/{type}',
    scope: { workerTenant: { in: 'path', name: 'workerIp' } },
    summary: 'Accounts of one type that have restorable data',
    params: s.object({ workerIp: s.string(), type: AccountType }),
    response: s.array(FoundAccount),
  },
  archiveStructure: {
    method: 'GET',
    path: '/backup-and-restore/teams-archive-structure',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'Teams, channels and chats in the archive',
    query: s.object({ workerIp: s.string({ minLength: 1 }), teamId: s.optional(s.string()) }),
    response: s.array(TeamsArchiveNode),
  },
  filter: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/backup-and-restore/teams-filter-re',
    scope: { workerTenant: { in: 'body', name: 'workerIp' } },
    summary: 'Archived Teams messages matching a filter',
    body: TeamsFilterRequest,
    response: page(TeamsMessage),
  },
  statistics: {
    method: 'GET',
    path: '/teams-archive/statistics',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'Teams archive figures of the last 30 days',
    query: workerQuery,
    response: TeamsArchiveStatistics,
  },
});

/**
 * Binds legacy Teams to a transport: the tenant's teams and their members, groups and accounts found in
 * it (for a job's sources, or those with restorable data), the Teams archive's tree and messages, its
 * figures, and finished Teams restore runs. The same methods as `client.legacy.teams`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function teamsApi(transport: Transport) {
  return bindResource(transport, teamsEndpoints);
}
