/**
 * The legacy Teams paths: the tenant's teams and members, groups and accounts found, what has
 * restorable data, the Teams archive as a tree, archived messages by filter, the archive's figures and
 * finished Teams restores. In the archive a channel is known by its name (`channelId` on these paths).
 */
import {
  type AccountType,
  DASHBOARD_PERIOD_DAYS,
  type FoundAccount,
  type FoundGroup,
  type JobRun,
  type Member,
  type Team,
  type TeamsArchiveNode,
  type TeamsMessage,
} from '@compliance-portal/sdk';
import { searchArchive } from '../../archive-data/archive.js';
import { heldPerSource } from '../../archive-data/legal-hold.js';
import type { AppContext } from '../../context.js';
import { graphFailure } from '../../http/graph-errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { refreshDiscovery } from '../discovery/service.js';
import { runView } from '../jobs/runs.js';
import type { TenantRecord } from '../tenants/repository.js';
import { dayStart } from './mailboxes.js';
import { archivedAndDeletedPerDay } from './mailboxes-repository.js';
import {
  archivedChannels,
  archivedChatCounts,
  discoveredOf,
  finishedTeamsRestoreRuns,
  mailboxesWithArchive,
  sourcesWithBackup,
  teamsArchiveTotals,
  teamsOfArchiveJobs,
} from './teams-repository.js';

const DAY = 86_400_000;
type Connect = () => Promise<GraphApi>;

async function live<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw graphFailure(error, 'Team not found', 'teamsArchive');
  }
}

export async function listTeams(ctx: AppContext, connect: Connect, tenant: TenantRecord): Promise<Team[]> {
  await refreshDiscovery(ctx, connect, tenant, 'teams');
  const teams = await discoveredOf(ctx.db, tenant.tenantId, 'teams');
  const archived = await teamsOfArchiveJobs(ctx.db, tenant.tenantId);
  const graph = await live(connect);
  // Every team's channels in batches: one round trip per 20 teams.
  const channels = await live(() => graph.teamsChannels(teams.map((t) => t.source_id)));
  return teams.map((t) => ({
    teamId: t.source_id,
    displayName: t.display_name,
    channels: channels.get(t.source_id)?.length ?? 0,
    archived: archived.has(t.source_id),
  }));
}

export async function teamMembers(connect: Connect, teamId: string): Promise<Member[]> {
  const members: Member[] = [];
  await live(async () => {
    const graph = await connect();
    for await (const u of graph.groupMembers(teamId))
      members.push({
        userId: u.id ?? '',
        displayName: u.displayName ?? u.userPrincipalName ?? '',
        email: u.mail ?? u.userPrincipalName ?? '',
        roles: ['member'],
      });
  });
  return members.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

export async function foundGroups(connect: Connect): Promise<FoundGroup[]> {
  const groups: FoundGroup[] = [];
  await live(async () => {
    const graph = await connect();
    for await (const g of graph.groups())
      groups.push({
        groupId: g.id ?? '',
        displayName: g.displayName ?? '',
        mail: g.mail ?? null,
        kind: g.groupTypes?.includes('Unified')
          ? 'microsoft365'
          : g.mailEnabled && !g.securityEnabled
            ? 'distribution'
            : 'security',
      });
  });
  return groups.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

const APPLICATION_OF: Record<Exclude<AccountType, 'group'>, 'onedrive' | 'sharepoint' | 'teams' | 'exchange'> = {
  user: 'onedrive',
  site: 'sharepoint',
  team: 'teams',
  mailbox: 'exchange',
};

/** Accounts of one type in the tenant (groups are read live; the rest through discovery). */
export async function foundAccounts(
  ctx: AppContext,
  connect: Connect,
  tenant: TenantRecord,
  type: AccountType,
): Promise<FoundAccount[]> {
  if (type === 'group')
    return (await foundGroups(connect)).map((g) => ({
      accountId: g.groupId,
      displayName: g.displayName,
      email: g.mail,
      type,
    }));
  const application = APPLICATION_OF[type];
  await refreshDiscovery(ctx, connect, tenant, application);
  return (await discoveredOf(ctx.db, tenant.tenantId, application)).map((a) => ({
    accountId: a.source_id,
    displayName: a.display_name,
    email: a.email,
    type,
  }));
}

/** Accounts of one type that have something to restore: a finished backup, or archived mail. */
export async function restorableAccounts(
  ctx: AppContext,
  connect: Connect,
  tenant: TenantRecord,
  type: AccountType,
): Promise<FoundAccount[]> {
  if (type === 'group') return [];
  const all = await foundAccounts(ctx, connect, tenant, type);
  const withData = new Set(
    type === 'mailbox'
      ? await mailboxesWithArchive(ctx.db, tenant.tenantId)
      : await sourcesWithBackup(ctx.db, tenant.tenantId, APPLICATION_OF[type]),
  );
  return all.filter((a) => withData.has(a.accountId));
}

/**
 * Archived teams with their channels and message counts, then the archived chats (not for one team);
 * a team's or chat's `held`: its messages a legal hold keeps.
 */
export async function archiveStructure(
  ctx: AppContext,
  tenantId: string,
  teamId?: string,
): Promise<TeamsArchiveNode[]> {
  const rows = await archivedChannels(ctx.db, tenantId, teamId);
  const held = await heldPerSource(ctx.db, tenantId, ['teams', 'chat']);
  const teams = new Map<string, TeamsArchiveNode>();
  for (const r of rows) {
    const team: TeamsArchiveNode = teams.get(r.source) ?? {
      nodeId: r.source,
      kind: 'team',
      name: r.name ?? r.source,
      messageCount: 0,
      held: held.get(r.source) ?? 0,
      children: [],
    };
    team.messageCount += Number(r.n);
    team.children.push({
      nodeId: `${r.source}/${r.container}`,
      kind: 'channel',
      name: r.container,
      messageCount: Number(r.n),
    });
    teams.set(r.source, team);
  }
  const nodes = [...teams.values()].sort((a, b) => a.name.localeCompare(b.name));
  if (teamId) return nodes;
  const chats = await archivedChatCounts(ctx.db, tenantId);
  for (const c of chats)
    nodes.push({
      nodeId: c.chat_id,
      kind: 'chat',
      name: c.name,
      messageCount: Number(c.n),
      held: held.get(c.chat_id) ?? 0,
      children: [],
    });
  return nodes;
}

/** Archived Teams messages by team or chat (`teamId`), channel (its name), words and dates. */
export async function filterMessages(
  ctx: AppContext,
  tenantId: string,
  filter: {
    teamId?: string;
    channelId?: string;
    query?: string;
    from?: string;
    to?: string;
    page?: number;
    pageSize?: number;
    /** The chats the caller may read. */
    chats: readonly string[];
  },
) {
  const result = await searchArchive(ctx.db, tenantId, {
    kind: ['teams', 'chat'],
    chatSources: filter.chats,
    ...(filter.teamId ? { source: filter.teamId } : {}),
    ...(filter.channelId ? { container: filter.channelId } : {}),
    ...(filter.query?.trim() ? { text: filter.query } : {}),
    ...(filter.from ? { from: new Date(filter.from) } : {}),
    ...(filter.to ? { to: new Date(filter.to) } : {}),
    sort: 'date',
    page: filter.page ?? 1,
    pageSize: filter.pageSize ?? 25,
  });
  const items: TeamsMessage[] = result.items.map((hit) => ({
    messageId: hit.id,
    teamId: hit.kind === 'teams' ? hit.source : null,
    channelId: hit.kind === 'teams' ? hit.container : null,
    chatId: hit.kind === 'chat' ? hit.source : null,
    from: hit.sender,
    created: hit.sentAt ?? new Date(0).toISOString(),
    subject: hit.subject || null,
    bodyPreview: hit.snippetText,
    replyToId: null,
  }));
  return { ...result, items };
}

/**
 * The Teams archive's figures of the last 30 days, and the messages legal holds keep (in how many
 * teams and chats); `configured` false when the tenant has no teams.
 */
export async function teamsStatistics(ctx: AppContext, connect: Connect, tenant: TenantRecord) {
  // Microsoft 365 unread with no team found before says nothing of whether Teams is set up: the
  // answer is the failure's cause (502), never "not configured".
  await refreshDiscovery(ctx, connect, tenant, 'teams');
  const teamsFound = (await discoveredOf(ctx.db, tenant.tenantId, 'teams')).length;
  const now = ctx.now();
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  const totals = await teamsArchiveTotals(ctx.db, tenant.tenantId);
  const days = await archivedAndDeletedPerDay(ctx.db, tenant.tenantId, dayStart(from), ['teams', 'chat']);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const held = await heldPerSource(ctx.db, tenant.tenantId, ['teams', 'chat']);
  const growth = [];
  for (let t = from.getTime(); t <= now.getTime(); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    const d = byDay.get(date);
    growth.push({ date, messages: Number(d?.items ?? 0), deletedMessages: Number(d?.deleted_items ?? 0) });
  }
  return {
    configured: teamsFound > 0,
    periodDays: DASHBOARD_PERIOD_DAYS,
    teams: Number(totals?.teams ?? 0),
    channels: Number(totals?.channels ?? 0),
    chats: Number(totals?.chats ?? 0),
    messages: Number(totals?.messages ?? 0),
    bytes: Number(totals?.bytes ?? 0),
    held: [...held.values()].reduce((sum, n) => sum + n, 0),
    heldSources: held.size,
    growth,
  };
}

export async function finishedTeamsRestores(ctx: AppContext, tenantId: string): Promise<JobRun[]> {
  const rows = await finishedTeamsRestoreRuns(ctx.db, tenantId);
  return rows.map((r) => runView(r));
}
