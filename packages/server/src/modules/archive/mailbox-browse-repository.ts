/**
 * The SQL of browsing a mailbox's archived calendar events, contacts and To Do tasks (migration 39's
 * tables, a row per version): a page of items by their latest version with how many versions each
 * keeps, and the versions of one item.
 */
import type { MailboxItemKind } from '@compliance-portal/sdk';
import type { Queryable, SqlValue } from '../../db/database.js';

/** What each kind's table calls its title and its container, and what else its list shows. */
const KINDS = {
  event: {
    table: 'archived_events',
    title: 'subject',
    container: 'calendar_name',
    extra: 'starts_at, ends_at, event_type',
    // An occurrence is its series' pattern repeated: the master stands for it, as in Outlook's list of a series.
    where: "event_type <> 'occurrence'",
  },
  contact: {
    table: 'archived_contacts',
    title: 'display_name',
    container: 'folder_path',
    extra: 'email',
    where: 'true',
  },
  task: {
    table: 'archived_tasks',
    title: 'title',
    container: 'list_name',
    extra: 'status, due_at',
    where: 'true',
  },
} as const;

/** The orders a list offers, by kind; a sort a kind has not (`due` for contacts) is not offered. */
const ORDERS: Record<MailboxItemKind, Partial<Record<ItemSort, string>>> = {
  event: { start: 'starts_at' },
  contact: { email: 'lower(email)' },
  task: { due: 'due_at', status: 'status' },
};
const COMMON_ORDERS: Partial<Record<ItemSort, string>> = {
  title: 'lower(title)',
  container: 'lower(container)',
  versions: 'versions',
  archivedAt: 'archived_at',
};

export type ItemSort = 'title' | 'container' | 'start' | 'due' | 'status' | 'email' | 'versions' | 'archivedAt';

/** The SQL order of `sort` for a kind; undefined when the kind has no such field. */
export const orderOf = (kind: MailboxItemKind, sort: ItemSort): string | undefined =>
  COMMON_ORDERS[sort] ?? ORDERS[kind][sort];

export interface ItemFilter {
  mailboxId: string;
  kind: MailboxItemKind;
  search?: string | undefined;
  container?: string | undefined;
  deleted?: boolean | undefined;
  /** An SQL order from orderOf. */
  order: string;
  direction: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** An item by its latest version, with what its list shows. */
export interface ItemRow {
  external_id: string;
  title: string;
  container: string;
  starts_at?: Date | string | null;
  ends_at?: Date | string | null;
  email?: string;
  status?: string;
  due_at?: Date | string | null;
  versions: number;
  archived_at: Date | string;
  deleted_at: Date | string | null;
  blob_hash: string;
  location_id: string | null;
}

/** A LIKE pattern that finds `text` as it is (its %, _ and \ taken literally), case-insensitively. */
const contains = (text: string) => `%${text.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`;

/** One page of a mailbox's archived items of a kind, each by its latest version, and how many match. */
export async function itemPage(
  db: Queryable,
  tenantId: string,
  filter: ItemFilter,
): Promise<{ rows: ItemRow[]; total: number }> {
  const k = KINDS[filter.kind];
  const params: SqlValue[] = [tenantId, filter.mailboxId];
  const where: string[] = [k.where];
  const add = (sql: (n: string) => string, value: SqlValue) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  const search = filter.search?.trim();
  if (search)
    add(
      (n) =>
        `(lower(title) like ${n} or lower(container) like ${n}${filter.kind === 'contact' ? ` or lower(email) like ${n}` : ''})`,
      contains(search),
    );
  if (filter.container) add((n) => `container = ${n}`, filter.container);
  if (filter.deleted !== undefined) where.push(filter.deleted ? 'deleted_at is not null' : 'deleted_at is null');
  const rows = await db.query<ItemRow & { total: number }>(
    `with kept as (
       select external_id, ${k.title} as title, ${k.container} as container, ${k.extra}, archived_at, deleted_at,
              blob_hash, location_id, count(*) over (partition by external_id)::int as versions,
              row_number() over (partition by external_id order by version desc) as newest
         from ${k.table} where tenant_id = $1 and mailbox = $2)
     select external_id, title, container, ${k.extra}, archived_at, deleted_at, blob_hash, location_id, versions,
            count(*) over ()::int as total
       from kept where newest = 1 and ${where.join(' and ')}
      order by ${filter.order} ${filter.direction} nulls last, external_id ${filter.direction}
      limit ${filter.pageSize} offset ${(filter.page - 1) * filter.pageSize}`,
    params,
  );
  if (rows.length > 0 || filter.page === 1) return { rows, total: Number(rows[0]?.total ?? 0) };
  // A page past the end has no row to carry the total.
  const [counted] = await db.query<{ n: number }>(
    `select count(*)::int as n from (
       select ${k.title} as title, ${k.container} as container, ${k.extra}, deleted_at,
              row_number() over (partition by external_id order by version desc) as newest
         from ${k.table} where tenant_id = $1 and mailbox = $2) kept
      where newest = 1 and ${where.join(' and ')}`,
    params,
  );
  return { rows, total: Number(counted?.n ?? 0) };
}

/** A version of one archived item. */
export interface VersionRow {
  version: number;
  title: string;
  container: string;
  archivedAt: Date;
  deletedAt: Date | null;
  size: number;
  blobHash: string;
  locationId: string | null;
  jobId: string | null;
}

/** Every version of one item of the mailbox, newest first (none when the mailbox keeps no such item). */
export async function itemVersions(
  db: Queryable,
  kind: MailboxItemKind,
  key: { tenantId: string; mailbox: string },
  externalId: string,
): Promise<VersionRow[]> {
  const k = KINDS[kind];
  const rows = await db.query<{
    version: number;
    title: string;
    container: string;
    archived_at: Date | string;
    deleted_at: Date | string | null;
    size: number | string;
    blob_hash: string;
    location_id: string | null;
    job_id: string | null;
  }>(
    `select version, ${k.title} as title, ${k.container} as container, archived_at, deleted_at, size, blob_hash,
            location_id, job_id
       from ${k.table} where tenant_id = $1 and mailbox = $2 and external_id = $3 order by version desc`,
    [key.tenantId, key.mailbox, externalId],
  );
  return rows.map((r) => ({
    version: Number(r.version),
    title: r.title,
    container: r.container,
    archivedAt: new Date(r.archived_at),
    deletedAt: r.deleted_at === null ? null : new Date(r.deleted_at),
    size: Number(r.size),
    blobHash: r.blob_hash,
    locationId: r.location_id,
    jobId: r.job_id,
  }));
}
