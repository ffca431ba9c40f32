/**
 * Legal hold: the archived items an eDiscovery case on hold keeps from retention. A hold is its case's
 * search over its custodians (the mailboxes, teams and chat accounts the case names), frozen when the
 * case was held (its scope), whoever placed it and whatever they may read, and the ids of the items it
 * found. Items archived later join the hold when it is refreshed (before a deletion and before a count
 * of held items): each hold remembers the highest archive id it has looked at.
 */
import type { Database, Queryable, SqlValue } from '../db/database.js';
import type { ArchiveKind } from './archive-filter.js';
import {
  chatMemberIds,
  evaluationBound,
  type HoldScope,
  heldCountsPerCase,
  heldCountsPerSource,
  holdMatching,
  holdScopeOf,
  holdScopes,
  markCaseHeld,
  newestArchiveId,
  setHoldThrough,
  staleHolds,
} from './legal-hold-repository.js';

/**
 * Puts a case on hold: every item its scope matches now is held, and the scope is kept for items
 * archived later. Answers the number of items held.
 */
export async function placeHold(
  tx: Queryable,
  hold: { tenantId: string; caseId: string; scope: HoldScope; heldBy: string; heldAt: Date },
): Promise<number> {
  const bound = await evaluationBound(tx);
  const items = await holdMatching(tx, hold.tenantId, hold.caseId, hold.scope);
  await markCaseHeld(tx, hold, bound);
  return items;
}

/**
 * Brings each hold of the tenant up to date with the items archived since it last looked, and answers
 * the highest archive id every hold of the tenant has looked at: a deletion removes no item beyond it
 * (one archived after this refresh may match a hold that has not seen it yet).
 */
export async function refreshHolds(db: Database, tenantId: string): Promise<string> {
  const latest = await newestArchiveId(db);
  // Nothing archived since every hold looked: no lock. (An insert under way has a higher id than any
  // hold has looked at, so the next refresh finds it.)
  if ((await staleHolds(db, tenantId, latest)).length === 0) return latest;
  return db.transaction(async (tx) => {
    const bound = await evaluationBound(tx);
    // Two refreshes at once: the second waits here and then finds the holds looked at already.
    const holds = await staleHolds(tx, tenantId, bound, { lock: true });
    for (const hold of holds) {
      await holdMatching(tx, tenantId, hold.case_id, holdScopeOf(hold.hold_scope), hold.hold_through);
      await setHoldThrough(tx, hold.case_id, bound);
    }
    return bound;
  });
}

/**
 * How many items of each source (mailbox, team or chat) of these kinds holds keep, holds brought up to
 * date first; only `sources` when given. Read from the holds' rows, not by looking at every item.
 */
export async function heldPerSource(
  db: Database,
  tenantId: string,
  kinds: readonly ArchiveKind[],
  sources?: readonly string[],
): Promise<Map<string, number>> {
  await refreshHolds(db, tenantId);
  return heldCountsPerSource(db, tenantId, kinds, sources);
}

/** A custodian of a hold and how many of the items in question the hold keeps of it. */
export interface HeldOfCustodian {
  caseId: string;
  kind: 'mailbox' | 'team' | 'chats';
  id: string;
  items: number;
}

/**
 * How many items each hold of the tenant keeps of each of its custodians: of the holds of `caseIds`
 * (all when absent), of the items `among` names (a condition on archive_items `a` and its parameters
 * from $2; all held items when absent). A mail counts for its mailbox, a channel message for its team,
 * a chat message for every custodian account among the chat's members. Custodians the hold keeps
 * nothing of are left out; holds are read as they are (refresh them first for a count of now).
 */
export async function heldByCustodian(
  db: Queryable,
  tenantId: string,
  options: { caseIds?: readonly string[]; among?: { sql: string; params: SqlValue[] } } = {},
): Promise<HeldOfCustodian[]> {
  const rows = await heldCountsPerCase(db, tenantId, options);
  if (rows.length === 0) return [];
  const scopes = await holdScopes(db, tenantId, [...new Set(rows.map((r) => r.caseId))]);
  const chats = [...new Set(rows.filter((r) => r.kind === 'chat').map((r) => r.source))];
  const members = await chatMemberIds(db, tenantId, chats);
  const counts = new Map<string, HeldOfCustodian>();
  const count = (caseId: string, kind: HeldOfCustodian['kind'], id: string, n: number) => {
    const key = JSON.stringify([caseId, kind, id]);
    const found = counts.get(key);
    if (found) found.items += n;
    else counts.set(key, { caseId, kind, id, items: n });
  };
  for (const row of rows) {
    const scope = scopes.get(row.caseId);
    if (!scope) continue;
    const n = row.items;
    if (row.kind === 'mail' && scope.mailSources.includes(row.source)) count(row.caseId, 'mailbox', row.source, n);
    else if (row.kind === 'teams' && scope.teamSources.includes(row.source)) count(row.caseId, 'team', row.source, n);
    else if (row.kind === 'chat')
      for (const member of members.get(row.source) ?? [])
        if (scope.chatAccounts.includes(member)) count(row.caseId, 'chats', member, n);
  }
  return [...counts.values()];
}
