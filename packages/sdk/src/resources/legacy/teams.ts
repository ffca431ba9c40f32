/** Legacy Teams: teams, members, found groups and accounts, the archive tree, message filtering. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { JobRun, page } from '../common.js';

export const Team = s.object({
  teamId: s.string(),
  displayName: s.string(),
  description: s.optional(s.string()),
  channels: s.integer({ minimum: 0 }),
  archived: s.boolean('Covered by a Teams archive job.'),
});
export type Team = s.Static<typeof Team>;

export const Member = s.object({
  userId: s.string(),
  displayName: s.string(),
  email: s.string(),
  roles: s.array(s.string()),
});
export type Member = s.Static<typeof Member>;

export const FoundGroup = s.object({
  groupId: s.string(),
  displayName: s.string(),
  mail: s.nullable(s.string()),
  kind: s.oneOfStrings(['distribution', 'security', 'microsoft365']),
});
export type FoundGroup = s.Static<typeof FoundGroup>;

export const AccountType = s.oneOfStrings(['user', 'group', 'team', 'site', 'mailbox']);
export type AccountType = s.Static<typeof AccountType>;

export const FoundAccount = s.object({
  accountId: s.string(),
  displayName: s.string(),
  email: s.nullable(s.string()),
  type: AccountType,
});
export type FoundAccount = s.Static<typeof FoundAccount>;

/** A node of the Teams archive: a team, a channel or a chat. */
export const TeamsArchiveNode = s.object({
  nodeId: s.string(),
  kind: s.oneOfStrings(['team', 'channel', 'chat']),
  name: s.string(),
  messageCount: s.integer({ minimum: 0 }),
  children: s.array(s.object({ nodeId: s.string(), kind: s.string(), name: s.string(), messageCount: s.integer() })),
});
export type TeamsArchiveNode = s.Static<typeof TeamsArchiveNode>;

export const TeamsFilterRequest = s.object({
  workerIp: s.string({ minLength: 1 }),
  teamId: s.optional(s.string()),
  channelId: s.optional(s.string()),
  query: s.optional(s.string({ maxLength: 500 })),
  from: s.optional(s.dateTime()),
  to: s.optional(s.dateTime()),
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500 })),
});
export type TeamsFilterRequest = s.Static<typeof TeamsFilterRequest>;

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
export type TeamsMessage = s.Static<typeof TeamsMessage>;

export const TeamsArchiveStatistics = s.object({
  configured: s.boolean('False: "Teams is not configured yet".'),
  periodDays: s.integer({ minimum: 1 }),
  teams: s.integer({ minimum: 0 }),
  channels: s.integer({ minimum: 0 }),
  chats: s.integer({ minimum: 0 }),
  messages: s.integer({ minimum: 0 }),
  bytes: s.integer({ minimum: 0 }),
  growth: s.array(s.object({ date: s.date(), messages: s.integer({ minimum: 0 }) })),
});
export type TeamsArchiveStatistics = s.Static<typeof TeamsArchiveStatistics>;

const workerQuery = s.object({ workerIp: s.string({ minLength: 1 }) });

export const teamsEndpoints = defineResource('legacy', 'teams', {
  finishedRestoreJobs: {
    method: 'GET',
    path: '/backup-and-restore/finished-restore-teams-jobs/{workerIp}',
    summary: 'Finished Teams restore runs',
    response: s.array(JobRun),
  },
  list: { method: 'GET', path: '/teams', summary: "The tenant's teams", query: workerQuery, response: s.array(Team) },
  members: {
    method: 'GET',
    path: '/teams/members/{workerIp}',
    summary: "A team's members",
    query: s.object({ teamId: s.string({ minLength: 1 }) }),
    response: s.array(Member),
  },
  foundGroups: {
    method: 'GET',
    path: '/founded-groups/{workerIp}',
    summary: 'Groups found in the tenant',
    response: s.array(FoundGroup),
  },
  foundAccounts: {
    method: 'GET',
    path: '/founded-accounts/{workerIp}/{type}',
    summary: 'Accounts of one type found in the tenant',
    params: s.object({ workerIp: s.string(), type: AccountType }),
    response: s.array(FoundAccount),
  },
  restoreFoundAccounts: {
    method: 'GET',
    path: '/restore/founded-accounts/{workerIp}/{type}',
    summary: 'Accounts of one type that have restorable data',
    params: s.object({ workerIp: s.string(), type: AccountType }),
    response: s.array(FoundAccount),
  },
  archiveStructure: {
    method: 'GET',
    path: '/backup-and-restore/teams-archive-structure',
    summary: 'Teams, channels and chats in the archive',
    query: s.object({ workerIp: s.string({ minLength: 1 }), teamId: s.optional(s.string()) }),
    response: s.array(TeamsArchiveNode),
  },
  filter: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/backup-and-restore/teams-filter-re',
    summary: 'Archived Teams messages matching a filter',
    body: TeamsFilterRequest,
    response: page(TeamsMessage),
  },
  statistics: {
    method: 'GET',
    path: '/teams-archive/statistics',
    summary: 'Teams archive figures of the last 30 days',
    query: workerQuery,
    response: TeamsArchiveStatistics,
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function teamsApi(transport: Transport) {
  return bindResource(transport, teamsEndpoints);
}
