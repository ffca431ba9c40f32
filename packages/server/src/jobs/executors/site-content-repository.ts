/**
 * The SQL of a site's backed-up lists, list items and pages (migration 038): temporal rows like the
 * files' (backup-store.ts), so that the snapshot of run N is, for lists as for files, the rows alive
 * at N, each at its newest version stored by then.
 */
import type { Queryable } from '../../db/database.js';

/** Where a site's content belongs: the backup job, its tenant and the site. */
export interface SiteKey {
  jobId: string;
  tenantId: string;
  siteId: string;
}

/** A list's definition as kept: what a restore needs to make the list again. */
export interface ListDefinition {
  name: string;
  displayName: string;
  description: string;
  template: string;
  columns: Record<string, unknown>[];
  contentTypes: Record<string, unknown>[];
}

export interface StoredList {
  listId: string;
  firstSeq: number;
  definition: ListDefinition;
}

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** The lists of the site as the run `seq` saw them (not deleted by then), each at its newest definition. */
export async function listsAt(db: Queryable, key: Omit<SiteKey, 'tenantId'>, seq: number): Promise<StoredList[]> {
  const rows = await db.query<{ list_id: string; first_seq: number; deleted_seq: number | null; definition: unknown }>(
    `select distinct on (list_id) list_id, first_seq, deleted_seq, definition from backup_lists
      where job_id = $1 and site_id = $2 and first_seq <= $3
      order by list_id, first_seq desc`,
    [key.jobId, key.siteId, seq],
  );
  return rows
    .filter((r) => r.deleted_seq === null || Number(r.deleted_seq) > seq)
    .map((r) => ({
      listId: r.list_id,
      firstSeq: Number(r.first_seq),
      definition: json(r.definition as ListDefinition | string),
    }))
    .sort((a, b) => a.definition.displayName.localeCompare(b.definition.displayName));
}

/**
 * Keeps the list's definition: a new row when it differs from the newest kept (or the list was
 * deleted meanwhile), none when it is unchanged; a resumed run writes its own row again. True when a
 * row was written.
 */
export async function putListDefinition(
  db: Queryable,
  key: SiteKey,
  listId: string,
  seq: number,
  definition: ListDefinition,
): Promise<boolean> {
  const [latest] = await db.query<{ first_seq: number; deleted_seq: number | null; definition: unknown }>(
    `select first_seq, deleted_seq, definition from backup_lists
      where job_id = $1 and site_id = $2 and list_id = $3 order by first_seq desc limit 1`,
    [key.jobId, key.siteId, listId],
  );
  const same =
    latest && JSON.stringify(json(latest.definition as ListDefinition | string)) === JSON.stringify(definition);
  if (same && latest.deleted_seq === null) return false;
  await db.query(
    `insert into backup_lists (job_id, tenant_id, site_id, list_id, first_seq, name, display_name, template, definition)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (job_id, site_id, list_id, first_seq) do update
       set name = excluded.name, display_name = excluded.display_name, template = excluded.template,
           definition = excluded.definition, deleted_seq = null`,
    [
      key.jobId,
      key.tenantId,
      key.siteId,
      listId,
      seq,
      definition.name,
      definition.displayName,
      definition.template,
      JSON.stringify(definition),
    ],
  );
  return true;
}

/** The ids of the site's lists kept and not deleted. */
export async function liveListIds(db: Queryable, key: Omit<SiteKey, 'tenantId'>): Promise<string[]> {
  const rows = await db.query<{ list_id: string }>(
    `select distinct list_id from backup_lists where job_id = $1 and site_id = $2 and deleted_seq is null`,
    [key.jobId, key.siteId],
  );
  return rows.map((r) => r.list_id);
}

/** A list deleted at the source: it and its items stay in earlier snapshots only. */
export async function markListDeleted(db: Queryable, key: Omit<SiteKey, 'tenantId'>, listId: string, seq: number) {
  await db.query(
    `update backup_lists set deleted_seq = $4 where job_id = $1 and site_id = $2 and list_id = $3 and deleted_seq is null`,
    [key.jobId, key.siteId, listId, seq],
  );
  await db.query(
    `update backup_list_items set deleted_seq = $4
      where job_id = $1 and site_id = $2 and list_id = $3 and deleted_seq is null`,
    [key.jobId, key.siteId, listId, seq],
  );
}

/** The stored versions of each of `itemIds` (one query), each with the run that first stored it. */
export async function storedItemVersions(
  db: Queryable,
  key: Omit<SiteKey, 'tenantId'>,
  listId: string,
  itemIds: readonly string[],
): Promise<Map<string, Map<string, number>>> {
  const byItem = new Map<string, Map<string, number>>();
  if (itemIds.length === 0) return byItem;
  const rows = await db.query<{ item_id: string; version_id: string; first_seq: number }>(
    `select item_id, version_id, first_seq from backup_list_items
      where job_id = $1 and site_id = $2 and list_id = $3 and item_id = any($4::text[])`,
    [key.jobId, key.siteId, listId, [...itemIds]],
  );
  for (const r of rows) {
    const versions = byItem.get(r.item_id) ?? new Map<string, number>();
    byItem.set(r.item_id, versions);
    versions.set(r.version_id, Number(r.first_seq));
  }
  return byItem;
}

export interface ListItemVersionInput {
  itemId: string;
  versionId: string;
  fields: Record<string, unknown>;
  modifiedAt: Date | null;
}

/** Rows of one insert (10 parameters a row; PostgreSQL takes at most 65,535). */
const INSERT_BATCH = 1000;

/**
 * Stores an item's new versions and makes `latest` its only latest one (idempotent: a resumed run
 * writes the same rows again), as the files' versions are kept.
 */
export async function putItemVersions(
  db: Queryable,
  key: SiteKey,
  listId: string,
  seq: number,
  itemId: string,
  latest: string,
  versions: readonly ListItemVersionInput[],
) {
  for (let start = 0; start < versions.length; start += INSERT_BATCH) {
    const params: unknown[] = [];
    const rows = versions.slice(start, start + INSERT_BATCH).map((v) => {
      const at = params.length;
      params.push(
        key.jobId,
        key.tenantId,
        key.siteId,
        listId,
        v.itemId,
        v.versionId,
        JSON.stringify(v.fields),
        v.modifiedAt,
        v.versionId === latest,
        seq,
      );
      return `(${Array.from({ length: 10 }, (_, i) => `$${at + i + 1}`).join(', ')})`;
    });
    await db.query(
      `insert into backup_list_items (job_id, tenant_id, site_id, list_id, item_id, version_id, fields, modified_at,
                                      is_latest, first_seq)
       values ${rows.join(',\n')}
       on conflict (job_id, site_id, list_id, item_id, version_id) do update
         set fields = excluded.fields, is_latest = excluded.is_latest, deleted_seq = null`,
      params,
    );
  }
  await db.query(
    `update backup_list_items set is_latest = (version_id = $5)
      where job_id = $1 and site_id = $2 and list_id = $3 and item_id = $4 and (is_latest or version_id = $5)`,
    [key.jobId, key.siteId, listId, itemId, latest],
  );
}

/** Deleted at the source: the item stays in earlier snapshots only. True when it was live. */
export async function markListItemDeleted(
  db: Queryable,
  key: Omit<SiteKey, 'tenantId'>,
  listId: string,
  itemId: string,
  seq: number,
): Promise<boolean> {
  const rows = await db.query<{ item_id: string }>(
    `update backup_list_items set deleted_seq = $5
      where job_id = $1 and site_id = $2 and list_id = $3 and item_id = $4 and deleted_seq is null
      returning item_id`,
    [key.jobId, key.siteId, listId, itemId, seq],
  );
  return rows.length > 0;
}

/** The ids of the list's items kept and not deleted. */
export async function liveListItemIds(db: Queryable, key: Omit<SiteKey, 'tenantId'>, listId: string) {
  const rows = await db.query<{ item_id: string }>(
    `select distinct item_id from backup_list_items
      where job_id = $1 and site_id = $2 and list_id = $3 and deleted_seq is null`,
    [key.jobId, key.siteId, listId],
  );
  return rows.map((r) => r.item_id);
}

export interface StoredListItem {
  itemId: string;
  /** Every version stored at or before the snapshot's run, oldest first; the last is the item then. */
  versions: { versionId: string; fields: Record<string, unknown>; modifiedAt: Date | null }[];
}

/**
 * The list's items as the run `seq` saw them: each live item with its versions stored by then
 * (ordered by when they were saved), as a restore at that point or an export takes them.
 */
export async function listItemsAt(
  db: Queryable,
  key: Omit<SiteKey, 'tenantId'>,
  listId: string,
  seq: number,
): Promise<StoredListItem[]> {
  const rows = await db.query<{ item_id: string; version_id: string; fields: unknown; modified_at: Date | null }>(
    `select item_id, version_id, fields, modified_at from backup_list_items
      where job_id = $1 and site_id = $2 and list_id = $3 and first_seq <= $4 and (deleted_seq is null or deleted_seq > $4)
      order by item_id, modified_at nulls first, first_seq, version_id`,
    [key.jobId, key.siteId, listId, seq],
  );
  const items = new Map<string, StoredListItem>();
  for (const r of rows) {
    const item = items.get(r.item_id) ?? { itemId: r.item_id, versions: [] };
    items.set(r.item_id, item);
    item.versions.push({
      versionId: r.version_id,
      fields: json(r.fields as Record<string, unknown> | string),
      modifiedAt: r.modified_at ? new Date(r.modified_at) : null,
    });
  }
  // SharePoint's item ids are numbers: the list's order.
  return [...items.values()].sort((a, b) => Number(a.itemId) - Number(b.itemId) || a.itemId.localeCompare(b.itemId));
}

/** The versions of the site's pages kept so far, by page, each with the run that first stored it. */
export async function storedPageVersions(
  db: Queryable,
  key: Omit<SiteKey, 'tenantId'>,
): Promise<Map<string, Map<string, number>>> {
  const rows = await db.query<{ page_id: string; version_id: string; first_seq: number }>(
    'select page_id, version_id, first_seq from backup_pages where job_id = $1 and site_id = $2',
    [key.jobId, key.siteId],
  );
  const byPage = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const versions = byPage.get(r.page_id) ?? new Map<string, number>();
    byPage.set(r.page_id, versions);
    versions.set(r.version_id, Number(r.first_seq));
  }
  return byPage;
}

/** Stores a page's version with its canvas (idempotent: a resumed run writes the same row again). */
export async function putPage(
  db: Queryable,
  key: SiteKey,
  seq: number,
  page: { pageId: string; versionId: string; name: string; title: string; page: unknown; modifiedAt: Date | null },
) {
  await db.query(
    `insert into backup_pages (job_id, tenant_id, site_id, page_id, version_id, name, title, page, modified_at, first_seq)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     on conflict (job_id, site_id, page_id, version_id) do update
       set name = excluded.name, title = excluded.title, page = excluded.page, deleted_seq = null`,
    [
      key.jobId,
      key.tenantId,
      key.siteId,
      page.pageId,
      page.versionId,
      page.name,
      page.title,
      JSON.stringify(page.page),
      page.modifiedAt,
      seq,
    ],
  );
}

/** The ids of the site's pages kept and not deleted. */
export async function livePageIds(db: Queryable, key: Omit<SiteKey, 'tenantId'>): Promise<string[]> {
  const rows = await db.query<{ page_id: string }>(
    'select distinct page_id from backup_pages where job_id = $1 and site_id = $2 and deleted_seq is null',
    [key.jobId, key.siteId],
  );
  return rows.map((r) => r.page_id);
}

/** A page deleted at the source: it stays in earlier snapshots only. */
export async function markPageDeleted(db: Queryable, key: Omit<SiteKey, 'tenantId'>, pageId: string, seq: number) {
  await db.query(
    'update backup_pages set deleted_seq = $4 where job_id = $1 and site_id = $2 and page_id = $3 and deleted_seq is null',
    [key.jobId, key.siteId, pageId, seq],
  );
}

export interface StoredPage {
  pageId: string;
  versionId: string;
  name: string;
  title: string;
  /** The sitePage as Graph gave it, canvasLayout included. */
  page: Record<string, unknown>;
}

/** The site's pages as the run `seq` saw them, each at its newest version stored by then. */
export async function pagesAt(db: Queryable, key: Omit<SiteKey, 'tenantId'>, seq: number): Promise<StoredPage[]> {
  const rows = await db.query<{ page_id: string; version_id: string; name: string; title: string; page: unknown }>(
    `select distinct on (page_id) page_id, version_id, name, title, page from backup_pages
      where job_id = $1 and site_id = $2 and first_seq <= $3 and (deleted_seq is null or deleted_seq > $3)
      order by page_id, modified_at desc nulls last, first_seq desc`,
    [key.jobId, key.siteId, seq],
  );
  return rows
    .map((r) => ({
      pageId: r.page_id,
      versionId: r.version_id,
      name: r.name,
      title: r.title,
      page: json(r.page as Record<string, unknown> | string),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Adds a site's list items and pages backed up to the run's counters (beside its files count). */
export async function addSiteContentCounts(db: Queryable, runId: string, counts: { listItems: number; pages: number }) {
  if (counts.listItems === 0 && counts.pages === 0) return;
  await db.query(
    'update job_runs set list_items_done = list_items_done + $2, pages_done = pages_done + $3 where run_id = $1',
    [runId, counts.listItems, counts.pages],
  );
}
