/**
 * A case's custodians: the mailboxes (their mail), teams (their channel messages) and accounts (the
 * Teams chats they are members of) a search or a case names by Graph id. Every id named must be the
 * tenant's, and custodians are shown by name.
 */
import type { DeletionHeldCustodian, EdiscoveryCustodian, EdiscoverySearch } from '@compliance-portal/sdk';
import { heldByCustodian } from '../../archive-data/legal-hold.js';
import type { AppContext } from '../../context.js';
import type { Queryable, SqlValue } from '../../db/database.js';
import { notFound } from '../../errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { unknownSources } from '../discovery/service.js';
import type { TenantRecord } from '../tenants/repository.js';
import { archivedCustodians, type Custodians, caseNames, custodianNameRows } from './repository.js';

const unique = (ids: readonly string[] | undefined) => [...new Set(ids ?? [])];

/** The custodians a search names: its mailboxes, teams and chat accounts, each once. */
export const custodiansOf = (search: EdiscoverySearch): Custodians => ({
  mailboxes: unique(search.mailboxes),
  teams: unique(search.teams),
  chats: unique(search.chats),
});

export const hasCustodians = (c: Custodians) => c.mailboxes.length + c.teams.length + c.chats.length > 0;

/**
 * Refuses with 404 a search that names a mailbox, team or chat account that is not the tenant's, as
 * jobs refuse sources: an account is the tenant's when discovery knows its mailbox or the archive its
 * mail or a chat it is in, a team when discovery or the archive knows it (what has left the tenant
 * keeps its archive). Only ids count, not addresses: the archive knows its sources by id.
 */
export async function requireTenantIds(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  search: EdiscoverySearch,
): Promise<void> {
  const accounts = unique([...(search.mailboxes ?? []), ...(search.chats ?? [])]);
  const teams = unique(search.teams);
  if (accounts.length === 0 && teams.length === 0) return;
  const known = await archivedCustodians(ctx.db, tenant.tenantId, accounts, teams);
  const unknown = [
    ...(await unknownSources(
      ctx,
      graph,
      tenant,
      'exchange',
      accounts.filter((id) => !known.has(`account:${id}`)),
      { byEmail: false },
    )),
    ...(await unknownSources(
      ctx,
      graph,
      tenant,
      'teams',
      teams.filter((id) => !known.has(`team:${id}`)),
      { byEmail: false },
    )),
  ];
  if (unknown.length > 0) {
    throw notFound(`Not a mailbox, team or account of this tenant: ${unknown.slice(0, 10).join(', ')}`);
  }
}

/** The name of a custodian by kind and id. */
export type CustodianName = (kind: EdiscoveryCustodian['kind'], id: string) => string;

/**
 * The names of these custodians: a mailbox's or account's display name as discovery has it (or as
 * an archived chat lists its members), a team's name; the id where neither knows it.
 */
export async function custodianNames(
  db: Queryable,
  tenantId: string,
  custodians: readonly Custodians[],
): Promise<CustodianName> {
  const accounts = unique(custodians.flatMap((c) => [...c.mailboxes, ...c.chats]));
  const teams = unique(custodians.flatMap((c) => c.teams));
  const names = { account: new Map<string, string>(), team: new Map<string, string>() };
  if (accounts.length > 0 || teams.length > 0) {
    // Discovery first (a mailbox's name before the account's), then the archived chats' member names.
    const rows = await custodianNameRows(db, tenantId, accounts, teams);
    // Ordered from the least to the most trusted name: the last one set wins.
    for (const row of rows) names[row.kind].set(row.id, row.name);
  }
  return (kind, id) => (kind === 'team' ? names.team : names.account).get(id) ?? id;
}

/** The custodians as the case's view lists them, by name. */
export const custodianList = (c: Custodians, name: CustodianName): EdiscoveryCustodian[] => [
  ...c.mailboxes.map((id) => ({ kind: 'mailbox' as const, id, name: name('mailbox', id) })),
  ...c.teams.map((id) => ({ kind: 'team' as const, id, name: name('team', id) })),
  ...c.chats.map((id) => ({ kind: 'chats' as const, id, name: name('chats', id) })),
];

/**
 * The custodians a deletion would take items of that legal holds keep, by case and custodian with
 * their names, as the deletion preview lists them: of the items `among` names (a condition on
 * archive_items and its parameters from $2).
 */
export async function keptCustodians(
  db: Queryable,
  tenantId: string,
  among: { sql: string; params: SqlValue[] },
): Promise<DeletionHeldCustodian[]> {
  const kept = await heldByCustodian(db, tenantId, { among });
  if (kept.length === 0) return [];
  const cases = await caseNames(db, tenantId, [...new Set(kept.map((k) => k.caseId))]);
  const name = await custodianNames(db, tenantId, [
    {
      mailboxes: kept.filter((k) => k.kind === 'mailbox').map((k) => k.id),
      teams: kept.filter((k) => k.kind === 'team').map((k) => k.id),
      chats: kept.filter((k) => k.kind === 'chats').map((k) => k.id),
    },
  ]);
  return kept
    .map((k) => ({
      caseId: k.caseId,
      caseName: cases.get(k.caseId) ?? k.caseId,
      kind: k.kind,
      id: k.id,
      name: name(k.kind, k.id),
      items: k.items,
    }))
    .sort(
      (a, b) =>
        a.caseName.localeCompare(b.caseName) ||
        a.kind.localeCompare(b.kind) ||
        a.name.localeCompare(b.name) ||
        a.id.localeCompare(b.id),
    );
}
