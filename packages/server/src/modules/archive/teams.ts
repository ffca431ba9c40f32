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
import { RUN_SELECT, type RunViewRow, runView } from '../jobs/runs.js';
import type { TenantRecord } from '../tenants/repository.js';
import { ARCHIVED_AND_DELETED_PER_DAY, dayStart } from './mailboxes.js';

const DAY = 86_400_000;
type Connect = () => Promise<GraphApi>;

async function live<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw graphFailure(error, 'Team not found', 'teamsArchive');
  }
}

async function discovered(ctx: AppContext, tenantId: string, application: string) {
  return ctx.db.query<{ source_id: string; display_name: string; email: string | null }>(
    `select source_id, display_name, email from discovered_sources where tenant_id = $1 and application = $2
      order by lower(display_name), source_id`,
    [tenantId, application],
  );
}

export async function listTeams(ctx: AppContext, connect: Connect, tenant: TenantRecord): Promise<Team[]> {
  await refreshDiscovery(ctx, connect, tenant, 'teams');
  const teams = await discovered(ctx, tenant.tenantId, 'teams');
  const archived = new Set(
    (
      await ctx.db.query<{ source: string }>(
        `select distinct jsonb_array_elements_text(definition->'sources') as source from jobs
          where tenant_id = $1 and type = 'teamsArchive'`,
        [tenant.tenantId],
      )
    ).map((r) => r.source),
  );
  const graph = await live(connect);
  return live(() =>
    Promise.all(
      teams.map(async (t) => {
        let channels = 0;
        for await (const _c of graph.channels(t.source_id)) channels += 1;
        return { teamId: t.source_id, displayName: t.display_name, channels, archived: archived.has(t.source_id) };
      }),
    ),
  );
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
  return (await discovered(ctx, tenant.tenantId, application)).map((a) => ({
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
    (type === 'mailbox'
      ? await ctx.db.query<{ source: string }>(
          `select distinct source from archive_items where tenant_id = $1 and kind = 'mail'`,
          [tenant.tenantId],
        )
      : await ctx.db.query<{ source: string }>(
          `select distinct b.source_id as source from backup_items b join jobs j on j.job_id = b.job_id
            where j.tenant_id = $1 and j.application = $2`,
          [tenant.tenantId, APPLICATION_OF[type]],
        )
    ).map((r) => r.source),
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
  const rows = await ctx.db.query<{ source: string; container: string; n: number; name: string | null }>(
    `select a.source, a.container, count(*)::int as n,
            (select d.display_name from discovered_sources d where d.tenant_id = $1 and d.application = 'teams'
                and d.source_id = a.source limit 1) as name
       from archive_items a where a.tenant_id = $1 and a.kind = 'teams' and ($2::text is null or a.source = $2)
      group by a.source, a.container order by a.source, a.container`,
    [tenantId, teamId ?? null],
  );
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
  const chats = await ctx.db.query<{ chat_id: string; name: string; n: number }>(
    `select c.chat_id, c.name, count(a.id)::int as n from archived_chats c
       join archive_items a on a.tenant_id = c.tenant_id and a.kind = 'chat' and a.source = c.chat_id
      where c.tenant_id = $1 group by c.chat_id, c.name order by lower(c.name), c.chat_id`,
    [tenantId],
  );
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
  const teamsFound = (await discovered(ctx, tenant.tenantId, 'teams')).length;
  const now = ctx.now();
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  const [totals] = await ctx.db.query<{
    teams: number;
    channels: number;
    chats: number;
    messages: number;
    bytes: string;
  }>(
    `select count(distinct source) filter (where kind = 'teams')::int as teams,
            count(distinct source || '/' || container) filter (where kind = 'teams')::int as channels,
            count(distinct source) filter (where kind = 'chat')::int as chats,
            count(*)::int as messages, coalesce(sum(size), 0)::bigint as bytes
       from archive_items where tenant_id = $1 and kind in ('teams', 'chat')`,
    [tenant.tenantId],
  );
  const days = await ctx.db.query<{ day: string; items: number; deleted_items: number }>(ARCHIVED_AND_DELETED_PER_DAY, [
    tenant.tenantId,
    dayStart(from),
    ['teams', 'chat'],
  ]);
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
  const rows = await ctx.db.query<RunViewRow>(
    `${RUN_SELECT} where r.tenant_id = $1 and j.type = 'restore' and j.application = 'teams' and r.status = 'finished'
      order by r.finished desc, r.seq desc limit 100`,
    [tenantId],
  );
  return rows.map((r) => runView(r));
}
