/**
 * The SQL of the legacy Teams paths: what discovery found, which sources have something to restore,
 * the Teams archive's teams, channels and chats with their message counts, its totals, and finished
 * Teams restores. What teams.ts makes of them is its own.
 */
import type { Queryable } from '../../db/database.js';
import { RUN_SELECT, type RunViewRow } from '../jobs/runs.js';

/** A source discovery found of one application of the tenant. */
export interface DiscoveredRow {
  source_id: string;
  display_name: string;
  email: string | null;
}

/** What discovery found of `application` in the tenant, by name. */
export async function discoveredOf(db: Queryable, tenantId: string, application: string): Promise<DiscoveredRow[]> {
  return db.query<DiscoveredRow>(
    `select source_id, display_name, email from discovered_sources where tenant_id = $1 and application = $2
      order by lower(display_name), source_id`,
    [tenantId, application],
  );
}

/** The teams a Teams archiving job of the tenant names. */
export async function teamsOfArchiveJobs(db: Queryable, tenantId: string): Promise<Set<string>> {
  const rows = await db.query<{ source: string }>(
    `select distinct jsonb_array_elements_text(definition->'sources') as source from jobs
      where tenant_id = $1 and type = 'teamsArchive'`,
    [tenantId],
  );
  return new Set(rows.map((r) => r.source));
}

/** The mailboxes of the tenant with archived mail. */
export async function mailboxesWithArchive(db: Queryable, tenantId: string): Promise<string[]> {
  const rows = await db.query<{ source: string }>(
    `select distinct source from archive_items where tenant_id = $1 and kind = 'mail'`,
    [tenantId],
  );
  return rows.map((r) => r.source);
}

/** The sources of `application` a backup job of the tenant has items of. */
export async function sourcesWithBackup(db: Queryable, tenantId: string, application: string): Promise<string[]> {
  const rows = await db.query<{ source: string }>(
    `select distinct b.source_id as source from backup_items b join jobs j on j.job_id = b.job_id
      where j.tenant_id = $1 and j.application = $2`,
    [tenantId, application],
  );
  return rows.map((r) => r.source);
}

/** The archived channels of the tenant's teams (of one team when given), with their messages and team name. */
export async function archivedChannels(
  db: Queryable,
  tenantId: string,
  teamId?: string,
): Promise<{ source: string; container: string; n: number; name: string | null }[]> {
  return db.query<{ source: string; container: string; n: number; name: string | null }>(
    `select a.source, a.container, count(*)::int as n,
            (select d.display_name from discovered_sources d where d.tenant_id = $1 and d.application = 'teams'
                and d.source_id = a.source limit 1) as name
       from archive_items a where a.tenant_id = $1 and a.kind = 'teams' and ($2::text is null or a.source = $2)
      group by a.source, a.container order by a.source, a.container`,
    [tenantId, teamId ?? null],
  );
}

/** The tenant's archived chats with messages, by name, with how many. */
export async function archivedChatCounts(
  db: Queryable,
  tenantId: string,
): Promise<{ chat_id: string; name: string; n: number }[]> {
  return db.query<{ chat_id: string; name: string; n: number }>(
    `select c.chat_id, c.name, count(a.id)::int as n from archived_chats c
       join archive_items a on a.tenant_id = c.tenant_id and a.kind = 'chat' and a.source = c.chat_id
      where c.tenant_id = $1 group by c.chat_id, c.name order by lower(c.name), c.chat_id`,
    [tenantId],
  );
}

/** The Teams archive's totals: teams, channels, chats, messages and bytes. */
export interface TeamsTotals {
  teams: number;
  channels: number;
  chats: number;
  messages: number;
  bytes: string;
}

/** The tenant's Teams archive as it is now. */
export async function teamsArchiveTotals(db: Queryable, tenantId: string): Promise<TeamsTotals | undefined> {
  const [totals] = await db.query<TeamsTotals>(
    `select count(distinct source) filter (where kind = 'teams')::int as teams,
            count(distinct source || '/' || container) filter (where kind = 'teams')::int as channels,
            count(distinct source) filter (where kind = 'chat')::int as chats,
            count(*)::int as messages, coalesce(sum(size), 0)::bigint as bytes
       from archive_items where tenant_id = $1 and kind in ('teams', 'chat')`,
    [tenantId],
  );
  return totals;
}

/** The tenant's last 100 finished Teams restores, newest first. */
export async function finishedTeamsRestoreRuns(db: Queryable, tenantId: string): Promise<RunViewRow[]> {
  return db.query<RunViewRow>(
    `${RUN_SELECT} where r.tenant_id = $1 and j.type = 'restore' and j.application = 'teams' and r.status = 'finished'
      order by r.finished desc, r.seq desc limit 100`,
    [tenantId],
  );
}
