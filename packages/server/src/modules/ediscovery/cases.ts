/**
 * eDiscovery cases: saved searches over named custodians. A case's results are found again whenever
 * it is read or exported, in the mailboxes the reader may read then; the export is a ZIP of the mails as
 * .eml, the Teams messages as .json, the calendar events as .ics (a series whole), and manifest.csv
 * with a line per item (an event's start as its time sent). A case on legal hold
 * (hold.ts) is not deleted until it is released. A tenant keeps at most EDISCOVERY_LIMITS.casesPerTenant
 * cases.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EDISCOVERY_LIMITS,
  type EdiscoveryCase,
  type EdiscoveryHit,
  type EdiscoverySearch,
} from '@compliance-portal/sdk';
import type { StoreAt } from '../../archive-data/archive.js';
import { heldByCustodian, refreshHolds } from '../../archive-data/legal-hold.js';
import { type HoldScope, holdScopeOf } from '../../archive-data/legal-hold-repository.js';
import { archivedEventICalendar } from '../../archive-data/mailbox-items.js';
import { mailFileName } from '../../archive-data/mime.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { conflict, notFound, refusal } from '../../errors.js';
import { type CsvValue, csvText } from '../../http/csv.js';
import { createZip } from '../../jobs/zip.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import { custodianList, custodianNames, custodiansOf, hasCustodians, requireTenantIds } from './custodians.js';
import { eventFileName } from './events.js';
import {
  type CaseRow,
  type Custodians,
  caseNameTaken,
  caseRow,
  caseRows,
  countCases,
  deleteCaseRow,
  insertCase,
  itemBlobs,
  lockCase,
  lockTenantForCases,
} from './repository.js';
import { runSearch } from './search.js';

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** The refusal of a second case of one name in a tenant, whichever request saw it first. */
const NAME_TAKEN = 'A case with this name already exists.';

/**
 * The cases of these rows as the API shows them: custodians by name and, for a held case, the items
 * its hold keeps of each custodian frozen in its scope (read as the holds are in `db`).
 */
async function views(db: Queryable, tenantId: string, rows: readonly CaseRow[]): Promise<EdiscoveryCase[]> {
  const scopes = new Map(
    rows.flatMap((r) => (r.held_at && r.hold_scope ? [[r.case_id, holdScopeOf(r.hold_scope)]] : [])),
  );
  const held = [...scopes.keys()];
  const counts = held.length > 0 ? await heldByCustodian(db, tenantId, { caseIds: held }) : [];
  const heldOf = (caseId: string, kind: string, id: string) =>
    counts.find((c) => c.caseId === caseId && c.kind === kind && c.id === id)?.items ?? 0;
  const frozen = (scope: HoldScope): Custodians => ({
    mailboxes: scope.mailSources,
    teams: scope.teamSources,
    chats: scope.chatAccounts,
  });
  const name = await custodianNames(db, tenantId, [
    ...rows.map((r) => parsed(r.custodians)),
    ...[...scopes.values()].map(frozen),
  ]);
  return rows.map((r) => {
    const scope = scopes.get(r.case_id);
    return {
      caseId: r.case_id,
      name: r.name,
      search: parsed(r.search),
      createdBy: r.created_by,
      createdAt: new Date(r.created_at).toISOString(),
      hits: Number(r.hits),
      custodians: custodianList(parsed(r.custodians), name),
      hold:
        r.held_at && r.held_by !== null && scope
          ? {
              heldAt: new Date(r.held_at).toISOString(),
              heldBy: r.held_by,
              items: Number(r.held_items),
              custodians: custodianList(frozen(scope), name).map((c) => ({
                ...c,
                items: heldOf(r.case_id, c.kind, c.id),
              })),
            }
          : null,
    };
  });
}

/** The criteria of a search without its page. */
function criteria(search: EdiscoverySearch): EdiscoverySearch {
  const { page: _page, pageSize: _pageSize, ...rest } = search;
  return rest;
}

/**
 * The search a case keeps: its criteria, and once any custodian is named, every list of custodians
 * (those not named empty), so that the case searches and holds exactly its custodians.
 */
function savedSearch(search: EdiscoverySearch): { search: EdiscoverySearch; custodians: Custodians } {
  const custodians = custodiansOf(search);
  const rest = criteria(search);
  if (!hasCustodians(custodians)) return { search: rest, custodians };
  return { search: { ...rest, ...custodians }, custodians };
}

export async function listCases(ctx: AppContext, tenantId: string) {
  // A hold's count includes what was archived since it last looked.
  await refreshHolds(ctx.db, tenantId);
  const rows = await caseRows(ctx.db, tenantId);
  return views(ctx.db, tenantId, rows);
}

/** The case as it is in `db` (a transaction's view), or 404. */
export async function readCase(db: Queryable, tenantId: string, caseId: string) {
  const row = await caseRow(db, tenantId, caseId);
  if (!row) throw notFound('Case not found');
  const [found] = await views(db, tenantId, [row]);
  if (!found) throw notFound('Case not found');
  return found;
}

export async function findCase(ctx: AppContext, tenantId: string, caseId: string) {
  await refreshHolds(ctx.db, tenantId);
  return readCase(ctx.db, tenantId, caseId);
}

/**
 * Saves a search as a case: its name free in the tenant (409, also when another request takes it at
 * the same moment), every mailbox, team and account it names the tenant's (404, nothing stored), and
 * fewer than EDISCOVERY_LIMITS.casesPerTenant cases in the tenant (409 caseLimitReached).
 */
export async function createCase(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  body: { name: string; search: EdiscoverySearch },
) {
  const name = body.name.trim();
  if (await caseNameTaken(ctx.db, tenant.tenantId, name)) throw conflict(NAME_TAKEN);
  await requireTenantIds(ctx, graph, tenant, body.search);
  const { search, custodians } = savedSearch(body.search);
  const found = await runSearch(ctx, graph, tenant, actor.user, { ...search, page: 1, pageSize: 1 });
  const caseId = randomUUID();
  try {
    return await ctx.db.transaction(async (tx) => {
      // Creations of one tenant one after the other, so that two cannot both pass the limit.
      await lockTenantForCases(tx, tenant.tenantId);
      if ((await countCases(tx, tenant.tenantId)) >= EDISCOVERY_LIMITS.casesPerTenant)
        throw refusal(409, 'caseLimitReached');
      await insertCase(tx, {
        caseId,
        tenantId: tenant.tenantId,
        name,
        search,
        custodians,
        createdBy: actor.user.email,
        createdAt: ctx.now(),
        hits: found.total,
      });
      await ctx.audit(
        {
          ...actedBy(actor.user, actor.ip),
          organisationId: tenant.organisationId,
          action: 'ediscovery.case.create',
          target: caseId,
          outcome: 'success',
          details: {
            name,
            hits: found.total,
            custodians: {
              mailboxes: custodians.mailboxes.length,
              teams: custodians.teams.length,
              chats: custodians.chats.length,
            },
          },
        },
        tx,
      );
      return readCase(tx, tenant.tenantId, caseId);
    });
  } catch (error) {
    // The unique index on (tenant, lower(name)) decides between creations at the same moment.
    if (isUniqueViolation(error, 'ediscovery_cases_name')) throw conflict(NAME_TAKEN);
    throw error;
  }
}

export async function deleteCase(
  ctx: AppContext,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  caseId: string,
) {
  await ctx.db.transaction(async (tx) => {
    const row = await lockCase(tx, tenant.tenantId, caseId);
    if (!row) throw notFound('Case not found');
    // The matter is open: its items must not lose the case that keeps them.
    if (row.held_at) throw refusal(409, 'caseOnLegalHold');
    await deleteCaseRow(tx, tenant.tenantId, caseId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'ediscovery.case.delete',
        target: caseId,
        outcome: 'success',
      },
      tx,
    );
  });
}

/** Every result of the case (as the reader may see them now) in a ZIP with its manifest. */
export async function exportCase(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: { user: User; ip: string },
  found: EdiscoveryCase,
) {
  const hits: EdiscoveryHit[] = [];
  // The archive's kinds and events each paged on their own: merged pages would read every earlier page again.
  const kinds = found.search.kinds ?? ['mail', 'teams'];
  const groups = [kinds.filter((k) => k !== 'events'), kinds.filter((k) => k === 'events')];
  for (const group of groups.filter((g) => g.length > 0)) {
    for (let page = 1; ; page++) {
      const result = await runSearch(ctx, graph, tenant, actor.user, {
        ...found.search,
        kinds: group,
        sort: 'date',
        order: 'asc',
        page,
        pageSize: 500,
      });
      hits.push(...result.items);
      if (page * 500 >= result.total) break;
    }
  }
  const blobsOf = await itemBlobs(
    ctx.db,
    tenant.tenantId,
    hits.filter((h) => h.kind !== 'event').map((h) => h.itemId),
  );
  let events = 0;
  const dir = join(ctx.config.dataDir, 'downloads');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}.zip`);
  const zip = await createZip(path);
  const manifest: CsvValue[][] = [
    ['Item', 'Kind', 'Mailbox or team', 'Folder or channel', 'Subject', 'From', 'To', 'Sent', 'Size', 'File'],
  ];
  try {
    for (const hit of hits) {
      const folder = [hit.sourceName.replace(/[\\/:*?"<>|]+/g, '_'), hit.container].filter(Boolean).join('/');
      let written: string;
      if (hit.kind === 'event') {
        const ics = await archivedEventICalendar(
          ctx.db,
          storeAt,
          { tenantId: tenant.tenantId, mailbox: hit.source },
          hit.itemId,
        );
        // An event's file name is its subject and its place among the case's events: Graph ids are long.
        events += 1;
        written = await zip.add(
          `${folder}/${eventFileName(`${events} ${hit.subject}`)}`,
          new TextEncoder().encode(ics ?? ''),
        );
      } else {
        const file =
          hit.kind === 'mail' ? `${folder}/${mailFileName(hit.subject, hit.itemId)}` : `${folder}/${hit.itemId}.json`;
        const blob = blobsOf.get(hit.itemId);
        written = await zip.add(file, await (await storeAt(blob?.location_id ?? null)).get(blob?.blob_hash ?? ''));
      }
      manifest.push([
        hit.itemId,
        hit.kind,
        hit.sourceName,
        hit.container,
        hit.subject,
        hit.sender,
        hit.recipients,
        hit.sentAt ?? '',
        hit.sizeBytes,
        written,
      ]);
    }
    await zip.add('manifest.csv', new TextEncoder().encode(csvText(manifest)));
    await zip.close();
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'ediscovery.case.export',
    target: found.caseId,
    outcome: 'success',
    details: { items: hits.length },
  });
  const stream = createReadStream(path);
  stream.on('close', () => void rm(path, { force: true }));
  const name = `case-${found.name.replace(/[^\w.-]+/g, '_').slice(0, 80)}.zip`;
  return { stream, size: (await stat(path)).size, fileName: name };
}
