/**
 * Restore of a SharePoint site's lists, list items and pages, as the snapshot of a run had them, into
 * the original site or another one; and their share of a restore's download (each list's items as
 * csv, each page as its JSON).
 *
 * Lists. A list is looked for at the destination by its id (at the original site only), else by its
 * display name; one missing is created. Graph v1.0 takes a list's columns in the create call only,
 * so the list is created with its template and every column of the snapshot that the template does
 * not bring itself, neither read-only (SharePoint fills those) nor hidden. The templates whose own
 * columns are known here (`genericList`: Title; `issueTracking`: Title, assigned to, status,
 * priority, description, category, related issues, comments, due date) are created with their
 * template. A list of any other template (contacts, events, tasks, links, announcements, a survey…)
 * is created as a custom list (`genericList`) holding each of its writable columns as a column of its
 * own (its Title in the custom list's Title): its items come back with their values, but not what the template itself gives (a calendar
 * view, a survey's questions, its views and forms); the run message names each such list. A lookup
 * column looks at the restored looked-up list (restored first); one whose list is not at the
 * destination is left out, as its values are, and the run message says so. Columns of a list that
 * already exists are not changed: values of columns it lacks are left out, and the message says so.
 *
 * Items. An item is created with its column values at the snapshot (read-only and system fields left
 * out; a person or lookup column as `<name>LookupId`, a lookup to an item restored in the same run
 * pointing at its new id, one to an item not restored with it kept at the original site and left
 * empty elsewhere, where its old id would name an unrelated item: the run message says so). The conflict policy applies when the item still exists in the original
 * list at the original site: skip leaves it, keepBoth adds the snapshot's as a new item, overwrite
 * writes the snapshot's values over the item's (a new version of it, columns empty then cleared). An
 * item always gets a new id when it is created: SharePoint numbers items itself.
 *
 * Pages. A page is created with its name, title, description, layout, title area and canvas (its
 * sections, columns and web parts), then published when it was published at the snapshot; a draft
 * stays a draft. A page of the same name (or, at the original site, the same id) at the destination
 * follows the conflict policy: skip leaves it, keepBoth creates the snapshot's under a free name
 * (`Name(1).aspx`, as SharePoint names a copy), and overwrite is refused for that page with an item
 * failure (this restore does not replace a page's canvas: choose keep both, or delete the page first).
 */

import type { ConflictPolicy } from '@compliance-portal/sdk';
import type { ColumnDefinition, SitePage } from '@microsoft/microsoft-graph-types';
import type { Queryable } from '../../db/database.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { counted } from '../../words.js';
import type { RunContext } from '../run-context.js';
import type { ZipWriter } from '../zip.js';
import { listItemsCsv } from './site-content-csv.js';
import {
  listItemsAt,
  listsAt,
  pagesAt,
  type StoredList,
  type StoredListItem,
  type StoredPage,
} from './site-content-repository.js';

/** One chosen list: its definition at the snapshot, and its chosen items (all of them when `whole`). */
interface ChosenList {
  list: StoredList;
  items: StoredListItem[];
  whole: boolean;
}

/** The site content a restore's node ids choose, as the snapshot had it. */
export interface SiteSelection {
  lists: ChosenList[];
  pages: StoredPage[];
}

/** The columns each template brings itself, by their names: not sent again when a list is created. */
const TEMPLATE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  genericList: ['Title'],
  issueTracking: [
    'Title',
    'AssignedTo',
    'Status',
    'Priority',
    'Comment',
    'Category',
    'RelatedIssues',
    'V3Comments',
    'DueDate',
  ],
};

/** The column types (columnDefinition's facets) a column is created with. */
const COLUMN_FACETS = [
  'boolean',
  'calculated',
  'choice',
  'currency',
  'dateTime',
  'geolocation',
  'hyperlinkOrPicture',
  'lookup',
  'number',
  'personOrGroup',
  'text',
  'thumbnail',
  'term',
] as const;

/** A refusal of this restore's own: retrying the item would not change it. */
class RestoreRefusal extends Error {
  readonly permanent = true;
}

/** A column of a list's definition as kept (a columnDefinition with Graph's annotations left out). */
interface KeptColumn {
  name?: unknown;
  displayName?: unknown;
  description?: unknown;
  readOnly?: unknown;
  hidden?: unknown;
  required?: unknown;
  personOrGroup?: unknown;
  lookup?: { listId?: unknown; columnName?: unknown };
  [facet: string]: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const isLookup = (c: KeptColumn) => Boolean(c.lookup) || Boolean(c.personOrGroup);
/** The columns whose values a restore writes: neither read-only nor hidden, named. */
const writable = (columns: readonly Record<string, unknown>[]) =>
  (columns as KeptColumn[]).filter((c) => c.readOnly !== true && c.hidden !== true && text(c.name) !== '');

/**
 * The lists, items and pages `nodeIds` choose in the snapshot of run `seq`: `root` all of them,
 * `list:{id}` a list with its items, `listItem:{listId}:{itemId}` one item, `pages` every page and
 * `page:{id}` one. Ids the snapshot does not have choose nothing.
 */
export async function selectSiteContent(
  db: Queryable,
  key: { jobId: string; siteId: string },
  seq: number,
  nodeIds: readonly string[],
): Promise<SiteSelection> {
  const all = nodeIds.includes('root');
  const wholeLists = new Set(nodeIds.filter((n) => n.startsWith('list:')).map((n) => n.slice('list:'.length)));
  const chosenItems = new Map<string, Set<string>>();
  for (const node of nodeIds) {
    if (!node.startsWith('listItem:')) continue;
    const rest = node.slice('listItem:'.length);
    const at = rest.lastIndexOf(':');
    if (at <= 0) continue;
    const listId = rest.slice(0, at);
    const items = chosenItems.get(listId) ?? new Set<string>();
    items.add(rest.slice(at + 1));
    chosenItems.set(listId, items);
  }
  const lists: ChosenList[] = [];
  if (all || wholeLists.size > 0 || chosenItems.size > 0) {
    for (const list of await listsAt(db, key, seq)) {
      const whole = all || wholeLists.has(list.listId);
      const some = chosenItems.get(list.listId);
      if (!whole && !some) continue;
      const items = (await listItemsAt(db, key, list.listId, seq)).filter((i) => whole || some?.has(i.itemId));
      if (whole || items.length > 0) lists.push({ list, items, whole });
    }
  }
  const allPages = all || nodeIds.includes('pages');
  const pageIds = new Set(nodeIds.filter((n) => n.startsWith('page:')).map((n) => n.slice('page:'.length)));
  const pages =
    allPages || pageIds.size > 0 ? (await pagesAt(db, key, seq)).filter((p) => allPages || pageIds.has(p.pageId)) : [];
  return { lists, pages };
}

/**
 * What a retry of a run puts back of the selection: the lists that could not be made (with their
 * items), the items and the pages that failed (their `restore:` keys in `keys`).
 */
export function retrySelection(selection: SiteSelection, keys: ReadonlySet<string>): SiteSelection {
  const lists: ChosenList[] = [];
  for (const chosen of selection.lists) {
    const { listId } = chosen.list;
    if (keys.has(`restore:list:${listId}`)) lists.push(chosen);
    else {
      const items = chosen.items.filter((i) => keys.has(`restore:listItem:${listId}:${i.itemId}`));
      if (items.length > 0) lists.push({ ...chosen, items, whole: false });
    }
  }
  return { lists, pages: selection.pages.filter((p) => keys.has(`restore:page:${p.pageId}`)) };
}

/** How many of the selection's items and pages a restore puts back. */
export const selectionSize = (s: SiteSelection) => s.lists.reduce((n, l) => n + l.items.length, 0) + s.pages.length;

/**
 * The lists in an order that restores a looked-up list before the lists looking at it (a lookup's
 * values need the looked-up items' new ids); lookups in a circle keep their order.
 */
function lookupOrder(lists: readonly ChosenList[]): ChosenList[] {
  const ordered: ChosenList[] = [];
  const placing = new Set<string>();
  const place = (chosen: ChosenList) => {
    const id = chosen.list.listId;
    if (ordered.includes(chosen) || placing.has(id)) return;
    placing.add(id);
    for (const column of chosen.list.definition.columns as KeptColumn[]) {
      const looked = lists.find((l) => l.list.listId === text(column.lookup?.listId) && l.list.listId !== id);
      if (looked) place(looked);
    }
    ordered.push(chosen);
  };
  for (const chosen of lists) place(chosen);
  return ordered;
}

/**
 * Where a site restore stands, kept in the run's checkpoint after each list, item and page: a
 * resumed run goes through the same selection in the same order and skips the first `at` of them
 * (what it put back, skipped or failed on before), so a checkpoint stays small however many items
 * the lists hold.
 */
export interface SiteRestoreProgress {
  at: number;
  listItems: number;
  pages: number;
  skipped: number;
  notes: string[];
  /** The new ids of restored items that a chosen list looks up: `{listId}:{itemId}` → the new id. */
  ids: Record<string, string>;
}

export const NO_SITE_PROGRESS: SiteRestoreProgress = { at: 0, listItems: 0, pages: 0, skipped: 0, notes: [], ids: {} };

/** A list at the destination: its id, and by each snapshot column's name the destination's column name. */
interface TargetList {
  listId: string;
  columns: Map<string, string>;
  /** Whether it is the snapshot's list itself (original site, same id): the conflict policy applies. */
  same: boolean;
}

/** The destination's columns for the snapshot's: by name, else by display name; read-only ones not. */
function matchColumns(kept: readonly KeptColumn[], present: readonly ColumnDefinition[]): Map<string, string> {
  const open = present.filter((c) => c.readOnly !== true && c.name);
  const out = new Map<string, string>();
  for (const column of kept) {
    const name = text(column.name);
    const match =
      open.find((c) => c.name === name) ??
      open.find((c) => text(column.displayName) !== '' && c.displayName === text(column.displayName));
    if (match?.name) out.set(name, match.name);
  }
  return out;
}

/** A column as the create call takes it: its names, description, whether required, and its type facet. */
function columnToCreate(column: KeptColumn, lookupListId: string | undefined): ColumnDefinition {
  const out: Record<string, unknown> = {
    name: text(column.name),
    displayName: text(column.displayName) || text(column.name),
    description: text(column.description),
    required: column.required === true,
  };
  for (const facet of COLUMN_FACETS) {
    if (column[facet] !== undefined && column[facet] !== null) out[facet] = column[facet];
  }
  if (column.lookup) out.lookup = { ...column.lookup, listId: lookupListId };
  return out as ColumnDefinition;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * The destination's list for the snapshot's, created when missing (see the file's comment); the
 * notes say what of it could not be made as it was.
 */
async function ensureList(
  graph: GraphApi,
  siteId: string,
  original: boolean,
  chosen: ChosenList,
  present: { id?: string | null; displayName?: string | null }[],
  restoredLists: Map<string, string>,
  notes: string[],
): Promise<TargetList> {
  const { listId, definition } = chosen.list;
  const name = definition.displayName.toLowerCase();
  const found =
    (original ? present.find((l) => l.id === listId) : undefined) ??
    present.find((l) => (l.displayName ?? '').toLowerCase() === name);
  const kept = writable(definition.columns);
  if (found?.id) {
    const columns = matchColumns(kept, await collect(graph.listColumns(siteId, found.id)));
    const missing = kept.filter((c) => !columns.has(text(c.name)));
    if (missing.length > 0)
      notes.push(
        `the list ${definition.displayName} at the destination lacks ${counted(missing.length, 'column')} of the snapshot's (${missing.map((c) => text(c.displayName) || text(c.name)).join(', ')}): their values were left out`,
      );
    return { listId: found.id, columns, same: original && found.id === listId };
  }
  const known = TEMPLATE_COLUMNS[definition.template] !== undefined;
  const template = known ? definition.template : 'genericList';
  // A custom list brings its Title: the snapshot's Title goes there, not into a column of its own.
  const own = TEMPLATE_COLUMNS[template] ?? [];
  if (!known)
    notes.push(
      `the list ${definition.displayName} (template ${definition.template}) was made as a custom list with its columns: Graph's create call takes its template's own columns as they come, which this restore does not know`,
    );
  const columns: ColumnDefinition[] = [];
  const dropped: string[] = [];
  for (const column of kept) {
    if (own.includes(text(column.name))) continue;
    if (column.lookup) {
      const looked = text(column.lookup.listId);
      // A list restored in this run, else the same list at the original site (lists keep their ids there).
      const target = restoredLists.get(looked) ?? (original && present.some((l) => l.id === looked) ? looked : null);
      if (!target) {
        dropped.push(text(column.displayName) || text(column.name));
        continue;
      }
      columns.push(columnToCreate(column, target));
    } else columns.push(columnToCreate(column, undefined));
  }
  if (dropped.length > 0)
    notes.push(
      `the list ${definition.displayName} was made without its lookup ${dropped.length === 1 ? 'column' : 'columns'} ${dropped.join(', ')}: the looked-up list is not at the destination`,
    );
  const created = await graph.createList(siteId, {
    displayName: definition.displayName,
    description: definition.description,
    template,
    columns,
  });
  const createdId = created.id ?? '';
  // SharePoint may rename a column whose name is one of its own (Author becomes Author0): read them back.
  return {
    listId: createdId,
    columns: matchColumns(kept, await collect(graph.listColumns(siteId, createdId))),
    same: false,
  };
}

/** What an item's lookups are resolved with: the restored items' and lists' new ids, and where to. */
interface LookupContext {
  ids: Readonly<Record<string, string>>;
  restoredLists: ReadonlyMap<string, string>;
  original: boolean;
  /** Says in the run message that a list's lookup values were left empty. */
  emptied(listName: string): void;
}

/**
 * The item's values to write: each writable column of the snapshot the destination has, under the
 * destination's name. A lookup to an item restored in this run points at its new id; one to an item
 * of the snapshot's own looked-up list at the original site keeps its id; any other (its old id
 * would name an unrelated item) is left empty. With `clear` (an overwrite) a column empty at the
 * snapshot is cleared.
 */
function fieldsToWrite(
  chosen: ChosenList,
  target: TargetList,
  fields: Record<string, unknown>,
  lookups: LookupContext,
  clear: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of writable(chosen.list.definition.columns)) {
    const name = text(column.name);
    const to = target.columns.get(name);
    if (!to) continue;
    if (isLookup(column)) {
      const raw = fields[`${name}LookupId`];
      let value = raw === undefined || raw === null || raw === '' ? null : String(raw);
      if (value !== null && column.lookup) {
        const looked = text(column.lookup.listId);
        const moved = lookups.ids[`${looked}:${value}`];
        if (moved) value = moved;
        else if (!lookups.original || (lookups.restoredLists.get(looked) ?? looked) !== looked) {
          value = null;
          lookups.emptied(chosen.list.definition.displayName);
        }
      }
      if (value !== null || clear) out[`${to}LookupId`] = value;
      continue;
    }
    const value = fields[name];
    if (value !== undefined && value !== null) out[to] = value;
    else if (clear) out[to] = null;
  }
  return out;
}

/** A page as the create call takes it: what the snapshot had of it that a page is made with. */
function pageToCreate(stored: StoredPage, name: string): SitePage {
  const page = stored.page;
  const pick = (key: string) => (page[key] === undefined || page[key] === null ? {} : { [key]: page[key] });
  return {
    name,
    title: stored.title,
    ...pick('description'),
    ...pick('pageLayout'),
    ...pick('showComments'),
    ...pick('showRecommendedPages'),
    ...pick('titleArea'),
    ...pick('canvasLayout'),
  } as SitePage;
}

/** A name for a copy of the page, free at the destination: `Name(1).aspx`, `Name(2).aspx`… */
function freePageName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/\.aspx$/i, '');
  for (let n = 1; ; n++) {
    const candidate = `${base}(${n}).aspx`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Restores the selection into site `siteId`, from where `progress` stands (see SiteRestoreProgress),
 * saving it after each list, item and page; answers it at the end, with the counts of the whole run.
 */
export async function restoreSiteContent(
  rc: RunContext,
  graph: GraphApi,
  selection: SiteSelection,
  target: { siteId: string; original: boolean; policy: ConflictPolicy },
  from: SiteRestoreProgress,
  save: (progress: SiteRestoreProgress) => Promise<void>,
): Promise<SiteRestoreProgress> {
  const { siteId, original, policy } = target;
  const progress: SiteRestoreProgress = structuredClone(from);
  const note = (text: string) => {
    if (!progress.notes.includes(text)) progress.notes.push(text);
  };
  /** One more of the selection behind: saved, so that a resumed run starts after it. */
  const passed = async (at: number, outcome?: 'restored' | 'skipped' | 'failed', kind?: 'listItems' | 'pages') => {
    progress.at = at + 1;
    if (outcome === 'skipped') progress.skipped += 1;
    else if (outcome === 'restored' && kind) progress[kind] += 1;
    if (outcome && outcome !== 'failed') rc.progress({ done: 1, source: siteId });
    await save(progress);
  };
  let unit = 0;
  if (selection.lists.length > 0) {
    const present = await collect(graph.siteLists(siteId));
    const restoredLists = new Map<string, string>();
    const lookedUp = new Set(
      selection.lists.flatMap((l) => (l.list.definition.columns as KeptColumn[]).map((c) => text(c.lookup?.listId))),
    );
    for (const chosen of lookupOrder(selection.lists)) {
      const { listId, definition } = chosen.list;
      const listKey = `restore:list:${listId}`;
      const { items } = chosen;
      const listUnit = unit;
      unit += 1 + items.length;
      // The list and all its items are behind: a list looked up still needs its id at the destination.
      if (unit <= progress.at && !lookedUp.has(listId)) continue;
      rc.checkStopped();
      const made = await rc.item({ key: listKey, name: definition.displayName, source: siteId }, async () => {
        const notes: string[] = [];
        const list = await ensureList(graph, siteId, original, chosen, present, restoredLists, notes);
        for (const text of notes) note(text);
        return list;
      });
      if (!made.ok) {
        // Its items cannot go anywhere: each counts as failed with the list.
        const left = Math.min(items.length, unit - Math.max(progress.at, listUnit + 1));
        rc.progress({ failed: left, source: siteId });
        progress.at = Math.max(progress.at, unit);
        await save(progress);
        continue;
      }
      const list = made.value;
      restoredLists.set(listId, list.listId);
      if (!present.some((l) => l.id === list.listId))
        present.push({ id: list.listId, displayName: definition.displayName });
      if (listUnit >= progress.at) await passed(listUnit);
      const lookups: LookupContext = {
        ids: progress.ids,
        restoredLists,
        original,
        emptied: (name) =>
          note(
            `lookup values of the list ${name} naming items not restored with their list were left empty (their ids name other items at the destination)`,
          ),
      };
      for (const [k, item] of items.entries()) {
        const at = listUnit + 1 + k;
        if (at < progress.at) continue;
        rc.checkStopped();
        const fields = item.versions[item.versions.length - 1]?.fields ?? {};
        const remember = (id: string) => {
          if (lookedUp.has(listId)) progress.ids[`${listId}:${item.itemId}`] = id;
        };
        const result = await rc.item(
          {
            key: `restore:listItem:${listId}:${item.itemId}`,
            name: `${definition.displayName}/${item.itemId}`,
            source: siteId,
          },
          async () => {
            const existing = list.same ? await graph.listItem(siteId, list.listId, item.itemId) : null;
            if (existing && policy === 'skip') return 'skipped' as const;
            if (existing && policy === 'overwrite') {
              const values = fieldsToWrite(chosen, list, fields, lookups, true);
              await graph.updateListItemFields(siteId, list.listId, item.itemId, values);
              remember(item.itemId);
              return 'restored' as const;
            }
            const values = fieldsToWrite(chosen, list, fields, lookups, false);
            remember((await graph.createListItem(siteId, list.listId, values)).id ?? '');
            return 'restored' as const;
          },
        );
        await passed(at, result.ok ? result.value : 'failed', 'listItems');
      }
    }
  }
  if (selection.pages.length > 0) {
    const present = await collect(graph.sitePages(siteId));
    const taken = new Set(present.map((p) => (p.name ?? '').toLowerCase()));
    for (const stored of selection.pages) {
      const key = `restore:page:${stored.pageId}`;
      const at = unit++;
      if (at < progress.at) continue;
      rc.checkStopped();
      // Made by an attempt whose publish failed: the next attempt publishes it, not a second page.
      let created: string | undefined;
      const result = await rc.item({ key, name: stored.name, source: siteId }, async () => {
        const existing =
          (original ? present.find((p) => p.id === stored.pageId) : undefined) ??
          present.find((p) => (p.name ?? '').toLowerCase() === stored.name.toLowerCase());
        if (!created && existing && policy === 'skip') return 'skipped' as const;
        if (!created && existing && policy === 'overwrite')
          throw new RestoreRefusal(
            `The page ${stored.name} exists at the destination, and this restore does not replace a page: restore it with "keep both", or delete the page there first.`,
          );
        if (!created) {
          const name = existing ? freePageName(stored.name, taken) : stored.name;
          created = (await graph.createSitePage(siteId, pageToCreate(stored, name))).id ?? '';
          taken.add(name.toLowerCase());
        }
        const publishing = stored.page.publishingState as { level?: unknown } | undefined;
        if (publishing?.level === 'published') await graph.publishSitePage(siteId, created);
        return 'restored' as const;
      });
      await passed(at, result.ok ? result.value : 'failed', 'pages');
    }
  }
  return progress;
}

/** A name a ZIP entry may have: no path separators or characters Windows refuses in a file name. */
const entryName = (name: string) => name.replace(/[\\/:*?"<>|]/g, '_');

/**
 * Adds the selection to a restore's download: each chosen list's items as `Lists/{name}.csv` (its
 * chosen items only when items were chosen), each page as `Pages/{name}.json` (the sitePage with its
 * canvas as Graph gave it). Answers how many list items and pages it added.
 */
export async function downloadSiteContent(
  rc: RunContext,
  zip: ZipWriter,
  selection: SiteSelection,
  source: { jobId: string; siteId: string; seq: number },
): Promise<{ listItems: number; pages: number }> {
  let listItems = 0;
  let pages = 0;
  for (const chosen of selection.lists) {
    rc.checkStopped();
    const { listId, definition } = chosen.list;
    const result = await rc.item(
      { key: `restore:list:${listId}`, name: `Lists/${definition.displayName}.csv`, source: source.siteId },
      async () => {
        const csv = await listItemsCsv(rc.ctx.db, {
          ...source,
          listId,
          ...(chosen.whole ? {} : { itemIds: new Set(chosen.items.map((i) => i.itemId)) }),
        });
        if (csv === null) throw new RestoreRefusal(`The snapshot has no list ${definition.displayName}.`);
        const bytes = Buffer.from(csv, 'utf8');
        await zip.add(`Lists/${entryName(definition.displayName)}.csv`, bytes);
        return bytes.length;
      },
    );
    if (result.ok) {
      listItems += chosen.items.length;
      rc.progress({ done: chosen.items.length, bytes: result.value, source: source.siteId });
    }
  }
  for (const page of selection.pages) {
    rc.checkStopped();
    const result = await rc.item(
      { key: `restore:page:${page.pageId}`, name: `Pages/${page.name}.json`, source: source.siteId },
      async () => {
        const bytes = Buffer.from(JSON.stringify(page.page, null, 2), 'utf8');
        await zip.add(`Pages/${entryName(page.name)}.json`, bytes);
        return bytes.length;
      },
    );
    if (result.ok) {
      pages += 1;
      rc.progress({ done: 1, bytes: result.value, source: source.siteId });
    }
  }
  return { listItems, pages };
}
