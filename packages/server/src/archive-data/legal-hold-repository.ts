/**
 * The SQL of legal holds: the items a case's hold keeps (legal_hold_items), the hold's scope and the
 * highest archive id it has looked at (on ediscovery_cases), and what a deletion run records of the
 * items holds kept (run_held_items). When holds are refreshed and how they are counted is legal-hold.ts.
 */
import type { Queryable, SqlValue } from '../db/database.js';
import { type ArchiveKind, archiveFilter, retentionScope } from './archive-filter.js';

/** What a hold searches: its case's criteria over its custodians, frozen at hold time (stored as JSON). */
export interface HoldScope {
  kind: ArchiveKind[];
  /** The custodian mailboxes: their mail. */
  mailSources: string[];
  /** The custodian teams: their channel messages. */
  teamSources: string[];
  /** The custodian accounts: the chats they are members of, those archived later included. */
  chatAccounts: string[];
  text?: string;
  sender?: string;
  recipient?: string;
  subject?: string;
  hasAttachments?: boolean;
  /** Sent at or after (ISO). */
  from?: string;
  /** Sent before (ISO). */
  to?: string;
}

/** A hold's scope as the driver gives the stored JSON (parsed or as text). */
export const holdScopeOf = (stored: HoldScope | string): HoldScope =>
  typeof stored === 'string' ? (JSON.parse(stored) as HoldScope) : stored;

/**
 * The condition that keeps a held row of archive_items (named `alias`) from retention. The index on
 * legal_hold_items (tenant_id, item_id) answers it.
 */
export const notHeld = (alias = 'archive_items') =>
  `not exists (select 1 from legal_hold_items h where h.tenant_id = ${alias}.tenant_id and h.item_id = ${alias}.id)`;

/**
 * Waits for archiving under way and holds new archiving off until the transaction ends, and answers
 * the highest archive id: every item up to it is visible now, so a hold evaluated up to it misses none
 * (an id taken by an insert not yet committed would otherwise be passed by and never looked at).
 */
export async function evaluationBound(tx: Queryable): Promise<string> {
  await tx.query('lock table archive_items in share mode');
  return newestArchiveId(tx);
}

/** The highest archive id of any tenant ('0' when nothing is archived). */
export async function newestArchiveId(db: Queryable): Promise<string> {
  const [row] = await db.query<{ id: string }>('select coalesce(max(id), 0)::text as id from archive_items');
  return row?.id ?? '0';
}

/** Adds to the case's hold the items of the tenant its scope matches (after `afterId` when given). */
export async function holdMatching(
  tx: Queryable,
  tenantId: string,
  caseId: string,
  scope: HoldScope,
  afterId?: string,
): Promise<number> {
  const { where, params } = archiveFilter(tenantId, {
    kind: scope.kind,
    mailSources: scope.mailSources,
    teamSources: scope.teamSources,
    chatMembers: scope.chatAccounts,
    ...(scope.text ? { text: scope.text } : {}),
    ...(scope.sender ? { sender: scope.sender } : {}),
    ...(scope.recipient ? { recipient: scope.recipient } : {}),
    ...(scope.subject ? { subject: scope.subject } : {}),
    ...(scope.hasAttachments ? { hasAttachments: true } : {}),
    ...(scope.from ? { from: new Date(scope.from) } : {}),
    ...(scope.to ? { to: new Date(scope.to) } : {}),
    ...(afterId !== undefined ? { afterId } : {}),
  });
  const [row] = await tx.query<{ n: number }>(
    `with held as (
       insert into legal_hold_items (case_id, tenant_id, item_id)
       select $${params.length + 1}, tenant_id, id from archive_items where ${where.join(' and ')}
       on conflict do nothing returning 1)
     select count(*)::int as n from held`,
    [...params, caseId],
  );
  return Number(row?.n ?? 0);
}

/** Marks the case held: by whom and when, its scope, and the highest archive id its hold has looked at. */
export async function markCaseHeld(
  tx: Queryable,
  hold: { tenantId: string; caseId: string; scope: HoldScope; heldBy: string; heldAt: Date },
  through: string,
): Promise<void> {
  await tx.query(
    `update ediscovery_cases set held_at = $3, held_by = $4, hold_scope = $5, hold_through = $6
      where tenant_id = $1 and case_id = $2`,
    [hold.tenantId, hold.caseId, hold.heldAt, hold.heldBy, JSON.stringify(hold.scope), through],
  );
}

/** Releases a case's hold: its items are retention's again. */
export async function releaseHold(tx: Queryable, tenantId: string, caseId: string): Promise<void> {
  await tx.query('delete from legal_hold_items where tenant_id = $1 and case_id = $2', [tenantId, caseId]);
  await tx.query(
    `update ediscovery_cases set held_at = null, held_by = null, hold_scope = null, hold_through = null
      where tenant_id = $1 and case_id = $2`,
    [tenantId, caseId],
  );
}

/** A hold that has not looked at every archive id yet. */
export interface StaleHold {
  case_id: string;
  hold_scope: HoldScope | string;
  hold_through: string;
}

/**
 * The tenant's holds that have looked at items only below `through`; with `lock`, in case order and
 * locked until the transaction ends (a second refresh waits, then finds them up to date).
 */
export async function staleHolds(
  db: Queryable,
  tenantId: string,
  through: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<StaleHold[]> {
  const stale = `select case_id, hold_scope, hold_through::text from ediscovery_cases
                  where tenant_id = $1 and held_at is not null and hold_through < $2::bigint`;
  return db.query<StaleHold>(lock ? `${stale} order by case_id for update` : stale, [tenantId, through]);
}

/** Records that the case's hold has looked at every archive id up to `through`. */
export async function setHoldThrough(tx: Queryable, caseId: string, through: string): Promise<void> {
  await tx.query('update ediscovery_cases set hold_through = $2 where case_id = $1', [caseId, through]);
}

/**
 * Records for a deletion run the items in its scope past the retention that holds kept, with the
 * name of their mailbox, team or chat and their case, and answers how many items (an item two cases
 * hold counts once). SQL over archive_items as retentionScope describes it.
 */
export async function recordKeptItems(
  db: Queryable,
  runId: string,
  tenantId: string,
  options: { kind: 'mail' | 'teams'; before: Date; sources: readonly string[]; chats: readonly string[] },
): Promise<number> {
  const scope = retentionScope(options.kind, options.sources, options.chats, 3);
  const params: SqlValue[] = [tenantId, options.before, ...scope.params, runId];
  const kept = await db.query<{ item_id: string }>(
    `insert into run_held_items (run_id, item_id, case_id, case_name, kind, source, source_name, subject, sent_at)
     select $${params.length}, k.id, c.case_id, c.name, k.kind, k.source,
            coalesce((select d.display_name from discovered_sources d
                       where d.tenant_id = $1 and d.source_id = k.source order by d.application limit 1),
                     (select ch.name from archived_chats ch where ch.tenant_id = $1 and ch.chat_id = k.source),
                     k.source),
            k.subject, k.sent_at
       from (select id, kind, source, subject, sent_at from archive_items
              where tenant_id = $1 and coalesce(sent_at, archived_at) < $2 and ${scope.sql}) k
       join legal_hold_items h on h.tenant_id = $1 and h.item_id = k.id
       join ediscovery_cases c on c.case_id = h.case_id
     on conflict do nothing returning item_id::text`,
    params,
  );
  return new Set(kept.map((k) => k.item_id)).size;
}

/**
 * How many items of each source (mailbox, team or chat) of these kinds holds keep, as the holds' rows
 * are; only `sources` when given.
 */
export async function heldCountsPerSource(
  db: Queryable,
  tenantId: string,
  kinds: readonly ArchiveKind[],
  sources?: readonly string[],
): Promise<Map<string, number>> {
  const rows = await db.query<{ source: string; n: number }>(
    `select a.source, count(distinct a.id)::int as n
       from legal_hold_items h join archive_items a on a.id = h.item_id
      where h.tenant_id = $1 and a.tenant_id = $1 and a.kind = any($2::text[])
        and ($3::text[] is null or a.source = any($3::text[]))
      group by a.source`,
    [tenantId, [...kinds], sources ? [...sources] : null],
  );
  return new Map(rows.map((r) => [r.source, Number(r.n)]));
}

/** How many items a case's hold keeps of one source of one kind. */
export interface HeldCount {
  caseId: string;
  kind: ArchiveKind;
  source: string;
  items: number;
}

/**
 * How many items each hold of the tenant keeps per kind and source: of the holds of `caseIds` (all
 * when absent), of the items `among` names (a condition on archive_items `a` and its parameters from
 * $2; all held items when absent).
 */
export async function heldCountsPerCase(
  db: Queryable,
  tenantId: string,
  options: { caseIds?: readonly string[]; among?: { sql: string; params: SqlValue[] } },
): Promise<HeldCount[]> {
  const params: SqlValue[] = [tenantId, ...(options.among?.params ?? [])];
  const where = ['h.tenant_id = $1', 'a.tenant_id = $1'];
  if (options.among) where.push(options.among.sql);
  if (options.caseIds) {
    params.push([...options.caseIds]);
    where.push(`h.case_id = any($${params.length}::text[])`);
  }
  const rows = await db.query<{ case_id: string; kind: ArchiveKind; source: string; n: number }>(
    `select h.case_id, a.kind, a.source, count(*)::int as n
       from legal_hold_items h join archive_items a on a.id = h.item_id
      where ${where.join(' and ')}
      group by h.case_id, a.kind, a.source`,
    params,
  );
  return rows.map((r) => ({ caseId: r.case_id, kind: r.kind, source: r.source, items: Number(r.n) }));
}

/** The scopes of those of these cases of the tenant that are held, by case. */
export async function holdScopes(
  db: Queryable,
  tenantId: string,
  caseIds: readonly string[],
): Promise<Map<string, HoldScope>> {
  const rows = await db.query<{ case_id: string; hold_scope: HoldScope | string }>(
    'select case_id, hold_scope from ediscovery_cases where tenant_id = $1 and case_id = any($2::text[]) and hold_scope is not null',
    [tenantId, [...caseIds]],
  );
  return new Map(rows.map((r) => [r.case_id, holdScopeOf(r.hold_scope)]));
}

/** The member accounts of these archived chats of the tenant, by chat. */
export async function chatMemberIds(
  db: Queryable,
  tenantId: string,
  chatIds: readonly string[],
): Promise<Map<string, string[]>> {
  const rows = await db.query<{ chat_id: string; member_ids: string[] }>(
    'select chat_id, member_ids from archived_chats where tenant_id = $1 and chat_id = any($2::text[])',
    [tenantId, [...chatIds]],
  );
  return new Map(rows.map((r) => [r.chat_id, r.member_ids]));
}

/**
 * The mailboxes a held case of the tenant names as custodians of its mail: retention keeps their
 * archived calendars, contacts and tasks whole, which a hold's item rows (mail only) do not name.
 */
export async function heldMailboxes(db: Queryable, tenantId: string): Promise<string[]> {
  const rows = await db.query<{ hold_scope: HoldScope | string }>(
    'select hold_scope from ediscovery_cases where tenant_id = $1 and hold_scope is not null',
    [tenantId],
  );
  const held = new Set<string>();
  for (const row of rows) {
    const scope = holdScopeOf(row.hold_scope);
    if (scope.kind.includes('mail')) for (const mailbox of scope.mailSources) held.add(mailbox);
  }
  return [...held];
}
