/**
 * A backed-up list's items as a csv file at a restore point, as a restore's download and the site
 * content's export give them (RFC 4180: comma separated, CRLF line ends, a field quoted when it holds a quote, a comma or a
 * line break, its quotes doubled), the header the columns' display names as SharePoint shows them.
 */
import type { Queryable } from '../../db/database.js';
import { listItemsAt, listsAt } from './site-content-repository.js';

/** A column as Graph's columnDefinition describes it: its name, display name and its type's facet. */
interface Column {
  name?: unknown;
  displayName?: unknown;
  hidden?: unknown;
  boolean?: unknown;
  number?: unknown;
  dateTime?: unknown;
  personOrGroup?: unknown;
  lookup?: { listId?: unknown; columnName?: unknown };
}

/** Where a csv comes from: the list of a site backed up by a job, as the job's run `seq` saw it. */
export interface ListCsvSource {
  jobId: string;
  siteId: string;
  listId: string;
  seq: number;
  /** Only these items (a restore download of chosen items); every item of the list without. */
  itemIds?: ReadonlySet<string>;
}

/** One field as RFC 4180 writes it. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * The list's items as csv, or null when the run's snapshot has no such list. A value is rendered per
 * its column's type: yes/no as SharePoint writes it (Yes, No), numbers and dates as Graph gives them
 * (invariant digits, ISO 8601 UTC), a lookup as the looked-up item's shown column (from the same
 * snapshot; its id when that list is not backed up), a person as their id in the site's User
 * Information List (the only name of a person a list item's fields hold).
 */
export async function listItemsCsv(db: Queryable, source: ListCsvSource): Promise<string | null> {
  const key = { jobId: source.jobId, siteId: source.siteId };
  const lists = await listsAt(db, key, source.seq);
  const list = lists.find((l) => l.listId === source.listId);
  if (!list) return null;
  const columns = (list.definition.columns as Column[]).filter((c) => c.hidden !== true && typeof c.name === 'string');
  // The looked-up lists' items, once each: their shown column by item id.
  const shown = new Map<string, Map<string, string>>();
  for (const column of columns) {
    const listId = text(column.lookup?.listId);
    if (!column.lookup || shown.has(listId)) continue;
    const items = await listItemsAt(db, key, listId, source.seq);
    const field = text(column.lookup.columnName) || 'Title';
    shown.set(listId, new Map(items.map((i) => [i.itemId, text(i.versions[i.versions.length - 1]?.fields[field])])));
  }
  const render = (column: Column, fields: Record<string, unknown>): string => {
    const name = text(column.name);
    if (column.lookup) {
      const id = text(fields[`${name}LookupId`]);
      return id ? (shown.get(text(column.lookup.listId))?.get(id) ?? id) : '';
    }
    if (column.personOrGroup) return text(fields[`${name}LookupId`]);
    const value = fields[name];
    if (column.boolean) return value === true ? 'Yes' : value === false ? 'No' : '';
    return text(value);
  };
  const rows = [columns.map((c) => text(c.displayName || c.name))];
  for (const item of await listItemsAt(db, key, source.listId, source.seq)) {
    if (source.itemIds && !source.itemIds.has(item.itemId)) continue;
    const fields = item.versions[item.versions.length - 1]?.fields ?? {};
    rows.push(columns.map((c) => render(c, fields)));
  }
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
