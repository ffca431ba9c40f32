/**
 * A SharePoint site's lists and pages, backed up after its document libraries. Each list's items
 * are read with a delta query (`items/delta` with their fields), so the first run reads every item
 * and later runs what changed since the list's stored delta link; a changed item's versions not kept
 * yet are read with their fields. A list's definition (columns, content types) and the pages (with
 * their canvas) are read whole each run and kept when they changed. Deleted items, lists and pages
 * are marked, not dropped, so earlier snapshots still have them.
 */
import type { List, ListItem, SitePage } from '@microsoft/microsoft-graph-types';
import type { GraphApi } from '../../m365/graph-api.js';
import type { WorkPart } from '../progress.js';
import { includes } from '../repository.js';
import type { RunContext } from '../run-context.js';
import {
  addSiteContentCounts,
  type ListDefinition,
  type ListItemVersionInput,
  liveListIds,
  liveListItemIds,
  livePageIds,
  markListDeleted,
  markListItemDeleted,
  markPageDeleted,
  putItemVersions,
  putListDefinition,
  putPage,
  type SiteKey,
  storedItemVersions,
  storedPageVersions,
} from './site-content-repository.js';

/** What a site's lists and pages gave a run: the list items and pages it stored or saw deleted. */
export interface SiteContentCounts {
  lists: number;
  listItems: number;
  pages: number;
  /** Lists whose stored delta link Graph refused (410): read again in full. */
  resynced: string[];
}

/** Graph's annotations (`@odata.etag`) are not the item's values. */
function ownFields(fields: object | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields ?? {}).filter(([name]) => !name.startsWith('@odata.')));
}

async function definitionOf(graph: GraphApi, siteId: string, list: List): Promise<ListDefinition> {
  const listId = list.id ?? '';
  const columns: Record<string, unknown>[] = [];
  for await (const column of graph.listColumns(siteId, listId)) columns.push(ownFields(column));
  const contentTypes: Record<string, unknown>[] = [];
  for await (const contentType of graph.listContentTypes(siteId, listId)) contentTypes.push(ownFields(contentType));
  return {
    name: list.name ?? '',
    displayName: list.displayName ?? list.name ?? '',
    description: list.description ?? '',
    template: list.list?.template ?? 'genericList',
    columns,
    contentTypes,
  };
}

/**
 * Keeps an item's versions not stored yet (all of them for an item new to the backup); answers
 * whether the run stored one (a version this run stored before an interruption counts too, so a
 * resumed run reports what an uninterrupted one does).
 */
async function backupListItem(
  rc: RunContext,
  graph: GraphApi,
  key: SiteKey,
  listId: string,
  item: ListItem,
  stored: Map<string, number>,
  seq: number,
): Promise<boolean> {
  const itemId = item.id ?? '';
  const versions: ListItemVersionInput[] = [];
  let latest = '';
  for await (const version of graph.listItemVersions(key.siteId, listId, itemId)) {
    const versionId = version.id ?? '';
    // Newest first, as Graph lists them.
    if (!latest) latest = versionId;
    if (stored.has(versionId)) continue;
    versions.push({
      itemId,
      versionId,
      fields: ownFields(version.fields),
      modifiedAt: version.lastModifiedDateTime ? new Date(version.lastModifiedDateTime) : null,
    });
  }
  if (!latest) {
    // Versioning off for the list: the item as it is now is its one version.
    latest = item.eTag ?? item.lastModifiedDateTime ?? 'current';
    if (!stored.has(latest))
      versions.push({
        itemId,
        versionId: latest,
        fields: ownFields(item.fields),
        modifiedAt: item.lastModifiedDateTime ? new Date(item.lastModifiedDateTime) : null,
      });
  }
  rc.checkStopped();
  await putItemVersions(rc.ctx.db, key, listId, seq, itemId, latest, versions);
  return versions.length > 0 || [...stored.values()].includes(seq);
}

async function backupList(
  rc: RunContext,
  graph: GraphApi,
  key: SiteKey,
  list: List,
  seq: number,
  counts: SiteContentCounts,
  part: WorkPart,
) {
  const listId = list.id ?? '';
  await putListDefinition(rc.ctx.db, key, listId, seq, await definitionOf(graph, key.siteId, list));
  const linkKey = `list:${key.siteId}:${listId}`;
  const pages = graph.listItemsDelta(key.siteId, listId, await rc.deltaLink(linkKey));
  let seen = new Set<string>();
  let resynced = false;
  let readAgain = false;
  for await (const page of pages) {
    rc.checkStopped();
    if (pages.resynced() && !resynced) {
      resynced = true;
      seen = new Set();
    }
    for (const item of page) if (!item.deleted && item.id) seen.add(item.id);
    const stored = await storedItemVersions(
      rc.ctx.db,
      key,
      listId,
      page.filter((i) => !i.deleted).map((i) => i.id ?? ''),
    );
    for (const item of page) {
      const itemId = item.id ?? '';
      if (item.deleted) {
        if (await markListItemDeleted(rc.ctx.db, key, listId, itemId, seq)) counts.listItems += 1;
        continue;
      }
      const ref = {
        key: `list:${listId}/${itemId}`,
        name: `${list.displayName ?? list.name ?? listId}/${itemId}`,
        source: key.siteId,
        part,
      };
      const result = await rc.item(ref, () =>
        backupListItem(rc, graph, key, listId, item, stored.get(itemId) ?? new Map(), seq),
      );
      if (result.ok && result.value) counts.listItems += 1;
      else if (!result.ok && !result.permanent) readAgain = true;
    }
  }
  if (resynced) {
    counts.resynced.push(`${key.siteId} ${list.displayName ?? listId}`);
    for (const itemId of await liveListItemIds(rc.ctx.db, key, listId)) {
      if (!seen.has(itemId) && (await markListItemDeleted(rc.ctx.db, key, listId, itemId, seq))) counts.listItems += 1;
    }
  }
  // As for drives: saved only after the last page, and only when no item failed for a passing reason.
  const link = pages.deltaLink();
  if (link && !readAgain) await rc.saveDeltaLink(linkKey, link);
  counts.lists += 1;
}

/** The page's version as SharePoint numbers it (its publishing state's), else its eTag. */
const pageVersion = (page: SitePage) =>
  page.publishingState?.versionId ?? page.eTag ?? page.lastModifiedDateTime ?? 'current';

async function backupPages(
  rc: RunContext,
  graph: GraphApi,
  key: SiteKey,
  seq: number,
  counts: SiteContentCounts,
  part: WorkPart,
) {
  const stored = await storedPageVersions(rc.ctx.db, key);
  const seen = new Set<string>();
  for await (const listed of graph.sitePages(key.siteId)) {
    rc.checkStopped();
    const pageId = listed.id ?? '';
    seen.add(pageId);
    const versionId = pageVersion(listed);
    const before = stored.get(pageId)?.get(versionId);
    if (before !== undefined) {
      // Stored by this run before an interruption: counted again, once.
      if (before === seq) counts.pages += 1;
      continue;
    }
    const ref = { key: `page:${pageId}`, name: listed.name ?? pageId, source: key.siteId, part };
    const result = await rc.item(ref, async () => {
      const page = await graph.sitePage(key.siteId, pageId);
      await putPage(rc.ctx.db, key, seq, {
        pageId,
        versionId: pageVersion(page),
        name: page.name ?? '',
        title: page.title ?? '',
        page: ownFields(page),
        modifiedAt: page.lastModifiedDateTime ? new Date(page.lastModifiedDateTime) : null,
      });
    });
    if (result.ok) counts.pages += 1;
  }
  for (const pageId of await livePageIds(rc.ctx.db, key)) {
    if (!seen.has(pageId)) {
      await markPageDeleted(rc.ctx.db, key, pageId, seq);
      counts.pages += 1;
    }
  }
}

/**
 * Backs up the site's lists and pages; `part` is their share of the site's work, complete at the
 * end. The counts go to the run's own counters for them (not its files count).
 */
export async function backupSiteContent(rc: RunContext, graph: GraphApi, siteId: string, part: WorkPart) {
  const key: SiteKey = { jobId: rc.job.jobId, tenantId: rc.tenant.tenantId, siteId };
  const seq = Number(rc.run.seq);
  const counts: SiteContentCounts = { lists: 0, listItems: 0, pages: 0, resynced: [] };
  // Only what the job includes is read: a site backup without lists leaves the lists kept by earlier
  // runs as they were (not deleted), and one without pages its pages.
  const withLists = includes(rc.job, 'lists');
  const withPages = includes(rc.job, 'pages');
  const lists: List[] = [];
  if (withLists) for await (const list of graph.siteLists(siteId)) lists.push(list);
  const listParts = part.split([...lists.map(() => 1), withPages ? 1 : 0]);
  for (const [at, list] of lists.entries()) {
    const listPart = listParts[at] as WorkPart;
    await backupList(rc, graph, key, list, seq, counts, listPart);
    listPart.end();
  }
  if (withLists) {
    // A list no longer there was deleted: it stays in earlier snapshots.
    const listed = new Set(lists.map((l) => l.id ?? ''));
    for (const listId of await liveListIds(rc.ctx.db, key)) {
      if (!listed.has(listId)) await markListDeleted(rc.ctx.db, key, listId, seq);
    }
  }
  const pagesPart = listParts[lists.length] as WorkPart;
  if (withPages) await backupPages(rc, graph, key, seq, counts, pagesPart);
  pagesPart.end();
  part.end();
  await addSiteContentCounts(rc.ctx.db, String(rc.run.run_id), counts);
  return counts;
}
