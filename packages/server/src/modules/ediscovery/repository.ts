/**
 * The SQL of eDiscovery: cases (`ediscovery_cases`) with the items their holds keep, the custodians'
 * names and whether the archive knows them, the mailboxes a person reads (their own, and proxy rights),
 * and the names of the sources a search found. The rules are in cases.ts, custodians.ts, hold.ts,
 * access.ts and search.ts.
 */
import type { EdiscoverySearch } from '@compliance-portal/sdk';
import type { HoldScope } from '../../archive-data/legal-hold-repository.js';
import type { Queryable } from '../../db/database.js';

/** The custodians of a case by kind, as `ediscovery_cases.custodians` stores them. */
export interface Custodians {
  mailboxes: string[];
  teams: string[];
  chats: string[];
}

/** A case as stored (its JSON parsed or as text, as the driver gives it), with the items its hold keeps. */
export interface CaseRow {
  case_id: string;
  name: string;
  search: EdiscoverySearch | string;
  custodians: Custodians | string;
  created_by: string;
  created_at: Date;
  hits: number;
  held_at: Date | null;
  held_by: string | null;
  hold_scope: HoldScope | string | null;
  held_items: number;
}

/** A case's columns as its view reads them, with the items its hold keeps (`ediscovery_cases c`). */
const CASE_COLUMNS = `c.case_id, c.name, c.search, c.custodians, c.created_by, c.created_at, c.hits, c.held_at, c.held_by,
  c.hold_scope, (select count(*)::int from legal_hold_items h where h.case_id = c.case_id) as held_items`;

/** The tenant's cases, newest first. */
export async function caseRows(db: Queryable, tenantId: string): Promise<CaseRow[]> {
  return db.query<CaseRow>(
    `select ${CASE_COLUMNS} from ediscovery_cases c where c.tenant_id = $1 order by c.created_at desc, c.case_id`,
    [tenantId],
  );
}

/** One case of the tenant, as it is in `db` (a transaction's view). */
export async function caseRow(db: Queryable, tenantId: string, caseId: string): Promise<CaseRow | undefined> {
  const [row] = await db.query<CaseRow>(
    `select ${CASE_COLUMNS} from ediscovery_cases c where c.tenant_id = $1 and c.case_id = $2`,
    [tenantId, caseId],
  );
  return row;
}

/** Has the tenant a case of this name (case-insensitive)? */
export async function caseNameTaken(db: Queryable, tenantId: string, name: string): Promise<boolean> {
  const [taken] = await db.query('select 1 from ediscovery_cases where tenant_id = $1 and lower(name) = lower($2)', [
    tenantId,
    name,
  ]);
  return taken !== undefined;
}

/** Makes the tenant's case creations wait for this transaction (they lock the tenant's row alike). */
export async function lockTenantForCases(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query('select 1 from tenants where tenant_id = $1 for no key update', [tenantId]);
}

/** How many cases the tenant has. */
export async function countCases(db: Queryable, tenantId: string): Promise<number> {
  const [count] = await db.query<{ n: number }>(
    'select count(*)::int as n from ediscovery_cases where tenant_id = $1',
    [tenantId],
  );
  return Number(count?.n ?? 0);
}

export async function insertCase(
  tx: Queryable,
  found: {
    caseId: string;
    tenantId: string;
    name: string;
    search: EdiscoverySearch;
    custodians: Custodians;
    createdBy: string;
    createdAt: Date;
    hits: number;
  },
): Promise<void> {
  await tx.query(
    `insert into ediscovery_cases (case_id, tenant_id, name, search, custodians, created_by, created_at, hits)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      found.caseId,
      found.tenantId,
      found.name,
      JSON.stringify(found.search),
      JSON.stringify(found.custodians),
      found.createdBy,
      found.createdAt,
      found.hits,
    ],
  );
}

/**
 * Locks the tenant's case until the transaction ends (a second holder of the lock waits) and answers
 * when it was held (null: it is not); undefined when there is no such case.
 */
export async function lockCase(
  tx: Queryable,
  tenantId: string,
  caseId: string,
): Promise<{ held_at: Date | null } | undefined> {
  const [row] = await tx.query<{ held_at: Date | null }>(
    'select held_at from ediscovery_cases where tenant_id = $1 and case_id = $2 for update',
    [tenantId, caseId],
  );
  return row;
}

export async function deleteCaseRow(tx: Queryable, tenantId: string, caseId: string): Promise<void> {
  await tx.query('delete from ediscovery_cases where tenant_id = $1 and case_id = $2', [tenantId, caseId]);
}

/** Where the blobs of these archived items of the tenant are, by item id. */
export async function itemBlobs(
  db: Queryable,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, { id: string; blob_hash: string; location_id: string | null }>> {
  const rows = await db.query<{ id: string; blob_hash: string; location_id: string | null }>(
    'select id::text, blob_hash, location_id from archive_items where tenant_id = $1 and id = any($2::bigint[])',
    [tenantId, [...ids]],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Those of these accounts the archive knows (mail or calendar events of their mailbox, or a chat they are in) and those
 * of these teams it knows (their channel messages), each as `account:id` or `team:id`.
 */
export async function archivedCustodians(
  db: Queryable,
  tenantId: string,
  accounts: readonly string[],
  teams: readonly string[],
): Promise<Set<string>> {
  const archived = await db.query<{ kind: 'account' | 'team'; id: string }>(
    `select distinct case kind when 'mail' then 'account' else 'team' end as kind, source as id from archive_items
      where tenant_id = $1 and ((kind = 'mail' and source = any($2::text[])) or (kind = 'teams' and source = any($3::text[])))
     union
     select distinct 'account', mailbox from archived_events where tenant_id = $1 and mailbox = any($2::text[])
     union
     select 'account', m.id from archived_chats c cross join lateral unnest(c.member_ids) as m(id)
      where c.tenant_id = $1 and c.member_ids && $2::text[] and m.id = any($2::text[])`,
    [tenantId, [...accounts], [...teams]],
  );
  return new Set(archived.map((r) => `${r.kind}:${r.id}`));
}

/**
 * The names known of these accounts and teams, from the least to the most trusted: an archived chat's
 * member name, then discovery's OneDrive name, then its mailbox or team name.
 */
export async function custodianNameRows(
  db: Queryable,
  tenantId: string,
  accounts: readonly string[],
  teams: readonly string[],
): Promise<{ kind: 'account' | 'team'; id: string; name: string }[]> {
  return db.query<{ kind: 'account' | 'team'; id: string; name: string }>(
    `select kind, id, name from (
       select case application when 'teams' then 'team' else 'account' end as kind, source_id as id,
              display_name as name, case application when 'exchange' then 0 when 'onedrive' then 1 else 0 end as rank
         from discovered_sources
        where tenant_id = $1 and display_name <> ''
          and ((application in ('exchange', 'onedrive') and source_id = any($2::text[]))
               or (application = 'teams' and source_id = any($3::text[])))
       union all
       select 'account', m.id, m.name, 2
         from archived_chats c cross join lateral unnest(c.member_ids, c.member_names) as m(id, name)
        where c.tenant_id = $1 and c.member_ids && $2::text[] and m.id = any($2::text[]) and m.name <> ''
     ) n order by rank desc`,
    [tenantId, [...accounts], [...teams]],
  );
}

/** The names of these cases of the tenant, by case id. */
export async function caseNames(
  db: Queryable,
  tenantId: string,
  caseIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await db.query<{ case_id: string; name: string }>(
    'select case_id, name from ediscovery_cases where tenant_id = $1 and case_id = any($2::text[])',
    [tenantId, [...caseIds]],
  );
  return new Map(rows.map((r) => [r.case_id, r.name]));
}

/** The tenant's mailboxes whose address (as discovery found it) is `email` (lower case). */
export async function mailboxesOfAddress(db: Queryable, tenantId: string, email: string): Promise<string[]> {
  const own = await db.query<{ source_id: string }>(
    `select source_id from discovered_sources where tenant_id = $1 and application = 'exchange' and lower(email) = $2`,
    [tenantId, email],
  );
  return own.map((o) => o.source_id);
}

/** A proxy right as the reading rule needs it: which mailbox, and who holds it. */
export interface RightHolder {
  mailbox_id: string;
  principal_id: string;
  principal_kind: string;
  principal_email: string;
}

/** Every proxy right of the tenant. */
export async function rightHolders(db: Queryable, tenantId: string): Promise<RightHolder[]> {
  return db.query<RightHolder>(
    'select mailbox_id, principal_id, principal_kind, principal_email from proxy_rights where tenant_id = $1',
    [tenantId],
  );
}

/** The names of these sources of the tenant: a mailbox's, team's or site's from discovery, a chat's from the archive. */
export async function sourceNames(
  db: Queryable,
  tenantId: string,
  sources: readonly string[],
): Promise<Map<string, string>> {
  const rows = await db.query<{ source_id: string; display_name: string }>(
    `select source_id, display_name from discovered_sources where tenant_id = $1 and source_id = any($2)
     union all select chat_id, name from archived_chats where tenant_id = $1 and chat_id = any($2)`,
    [tenantId, [...sources]],
  );
  return new Map(rows.map((r) => [r.source_id, r.display_name]));
}
