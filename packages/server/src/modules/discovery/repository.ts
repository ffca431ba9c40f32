/**
 * Discovery's tables: `discovered_sources` (a tenant's accounts, sites and teams as Microsoft 365 last
 * listed them), the job sources that count as protected, and a backed-up source's snapshot as its
 * backup items had it.
 */
import type { Application, DiscoveredSource } from '@compliance-portal/sdk';
import type { Queryable, SqlValue } from '../../db/database.js';
import { ownValue } from '../../http/list-query.js';

type SourceKind = DiscoveredSource['kind'];

/** An account, site or team as discovery stores it. */
export interface FoundSource {
  sourceId: string;
  kind: SourceKind;
  displayName: string;
  email?: string | null;
  url?: string | null;
}

/** `search` as a LIKE pattern matching it anywhere, without case, its wildcards taken literally. */
export const likePattern = (search: string) =>
  `%${search
    .trim()
    .toLowerCase()
    .replace(/[%_\\]/g, '\\$&')}%`;

/** When discovery last read the tenant's sources of `application`, and how many it keeps. */
export async function discoveryState(
  db: Queryable,
  tenantId: string,
  application: Application,
): Promise<{ seen: Date | null; n: number } | undefined> {
  const [state] = await db.query<{ seen: Date | null; n: number }>(
    'select max(seen_at) as seen, count(*)::int as n from discovered_sources where tenant_id = $1 and application = $2',
    [tenantId, application],
  );
  return state;
}

/** When discovery last read the tenant's sources of `application` (null: never). */
export async function lastDiscovered(db: Queryable, tenantId: string, application: Application): Promise<Date | null> {
  const [state] = await db.query<{ seen: Date | null }>(
    'select max(seen_at) as seen from discovered_sources where tenant_id = $1 and application = $2',
    [tenantId, application],
  );
  return state?.seen ?? null;
}

/**
 * Keeps `found` as the tenant's sources of `application` in place of those read before, and names the
 * runs' sources that reports still show by id. Run in a transaction: readers see the old list or the new.
 */
export async function replaceDiscoveredSources(
  tx: Queryable,
  tenantId: string,
  application: Application,
  found: readonly FoundSource[],
  now: Date,
): Promise<void> {
  await tx.query('delete from discovered_sources where tenant_id = $1 and application = $2', [tenantId, application]);
  // In batches: a tenant can have tens of thousands of accounts.
  for (let at = 0; at < found.length; at += 500) {
    const batch = found.slice(at, at + 500);
    const params: SqlValue[] = [];
    const rows = batch.map((f) => {
      params.push(tenantId, application, f.sourceId, f.kind, f.displayName, f.email ?? null, f.url ?? null, now);
      const n = params.length;
      return `($${n - 7}, $${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
    });
    await tx.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, url, seen_at)
       values ${rows.join(', ')} on conflict do nothing`,
      params,
    );
  }
  // Reports read before discovery knew an account show its id; they now get its name.
  await tx.query(
    `update job_run_sources s set display_name = d.display_name
       from job_runs r, discovered_sources d
      where r.run_id = s.run_id and r.tenant_id = $1 and d.tenant_id = $1 and d.application = $2
        and d.source_id = s.source_id and s.display_name = s.source_id`,
    [tenantId, application],
  );
}

/**
 * The stored sources among `ids`: by id, or (with `byEmail`) by email address without case; each with
 * its address in lower case.
 */
export function discoveredAmong(
  db: Queryable,
  tenantId: string,
  application: Application,
  ids: readonly string[],
  byEmail: boolean,
): Promise<{ source_id: string; email: string | null }[]> {
  return db.query<{ source_id: string; email: string | null }>(
    `select source_id, lower(email) as email from discovered_sources
      where tenant_id = $1 and application = $2 and (source_id = any($3) or ($5 and lower(email) = any($4)))`,
    [tenantId, application, [...ids], ids.map((id) => id.toLowerCase()), byEmail],
  );
}

/** The sources of the tenant's jobs of `type` and `application`. */
export async function jobSources(
  db: Queryable,
  tenantId: string,
  type: string,
  application: Application,
): Promise<Set<string>> {
  const rows = await db.query<{ source: string }>(
    `select distinct jsonb_array_elements_text(definition->'sources') as source
       from jobs where tenant_id = $1 and type = $2 and application = $3`,
    [tenantId, type, application],
  );
  return new Set(rows.map((r) => r.source));
}

export interface DiscoveredRow {
  source_id: string;
  kind: SourceKind;
  display_name: string;
  email: string | null;
  url: string | null;
  protected: boolean;
}

/**
 * One page of the tenant's discovered sources of `application`, searched by name, address or URL,
 * each marked protected when `covered` holds it; and the count of all that match.
 */
export async function discoveredPage(
  db: Queryable,
  tenantId: string,
  application: Application,
  covered: ReadonlySet<string>,
  args: { search?: string; sort?: string; order?: 'asc' | 'desc'; page: number; pageSize: number },
): Promise<{ rows: DiscoveredRow[]; total: number }> {
  const params: SqlValue[] = [tenantId, application];
  let where = 'tenant_id = $1 and application = $2';
  if (args.search?.trim()) {
    params.push(likePattern(args.search));
    where += ` and (lower(display_name) like $${params.length} or lower(coalesce(email, '')) like $${params.length}
                    or lower(coalesce(url, '')) like $${params.length})`;
  }
  const sortable: Record<string, string> = {
    displayName: 'lower(display_name)',
    email: 'lower(email)',
    url: 'lower(url)',
    protected: 'protected',
  };
  params.push([...covered]);
  const coveredParam = `$${params.length}`;
  const direction = args.order === 'desc' ? 'desc' : 'asc';
  const order = `${ownValue(sortable, args.sort, sortable.displayName as string)} ${direction}, source_id`;
  const { page, pageSize } = args;
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from discovered_sources where ${where}`,
    params.slice(0, -1),
  );
  const rows = await db.query<DiscoveredRow>(
    `select source_id, kind, display_name, email, url, source_id = any(${coveredParam}) as protected
       from discovered_sources where ${where}
      order by ${order} limit ${pageSize} offset ${(page - 1) * pageSize}`,
    params,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

/** A backup run a source's snapshot is read from: its job, its sequence number and its workload. */
export interface SnapshotRun {
  jobId: string;
  seq: number;
  application: Application;
}

/** The newest finished backup run in `locationId` that read `sourceId`, finished by `at` when given. */
export async function latestSnapshotRun(
  db: Queryable,
  tenantId: string,
  locationId: string,
  sourceId: string,
  at: Date | null,
): Promise<SnapshotRun | null> {
  const [run] = await db.query<{ job_id: string; seq: number; application: Application }>(
    `select r.job_id, r.seq, j.application from job_runs r join jobs j on j.job_id = r.job_id
      where j.tenant_id = $1 and j.type = 'backup' and j.location_id = $2 and j.definition->'sources' ? $3
        and r.status = 'finished' and ($4::timestamptz is null or r.finished <= $4)
      order by r.finished desc limit 1`,
    [tenantId, locationId, sourceId, at],
  );
  return run ? { jobId: run.job_id, seq: Number(run.seq), application: run.application } : null;
}

/** The snapshot's items, each once as the run `$3` of job `$1` had it for source `$2`: the CTE `snap`. */
const SNAPSHOT = `with snap as (
      select distinct on (item_id) item_id, drive_id, kind, name, path, parent_id, size, modified_at
        from backup_items
       where job_id = $1 and source_id = $2 and first_seq <= $3 and (deleted_seq is null or deleted_seq > $3)
       order by item_id, modified_at desc nulls last, first_seq desc)`;

const snapshotParams = (snapshot: SnapshotRun, sourceId: string): SqlValue[] => [
  snapshot.jobId,
  sourceId,
  snapshot.seq,
];

export interface SnapshotGroupRow {
  id: string;
  name: string;
  size: string;
  modified: Date | null;
  n: number;
}

/**
 * The grouping nodes at the top of a site's or a team's snapshot: a team's channels (their messages'
 * parents), a site's libraries (its drives, with their items); each with its items' size, newest
 * change and count.
 */
export function snapshotGroups(db: Queryable, snapshot: SnapshotRun, sourceId: string): Promise<SnapshotGroupRow[]> {
  const params = snapshotParams(snapshot, sourceId);
  return snapshot.application === 'teams'
    ? db.query<SnapshotGroupRow>(
        `${SNAPSHOT} select parent_id as id, min(substr(path, 2)) as name, sum(size)::bigint as size,
                            max(modified_at) as modified, count(*)::int as n
               from snap where kind = 'message' group by parent_id order by 2`,
        params,
      )
    : db.query<SnapshotGroupRow>(
        `${SNAPSHOT} select 'drive:' || d.drive_id as id, d.name, coalesce(sum(s.size), 0)::bigint as size,
                            max(s.modified_at) as modified, count(s.item_id)::int as n
               from backup_drives d left join snap s on s.drive_id = d.drive_id
              where d.job_id = $1 and d.source_id = $2 group by d.drive_id, d.name order by d.name`,
        params,
      );
}

export interface SnapshotItemRow {
  item_id: string;
  parent_id: string | null;
  kind: 'file' | 'folder' | 'message';
  name: string;
  path: string;
  size: string;
  modified_at: Date | null;
  has_children: boolean;
}

/**
 * One page of the items under `nodeId` in the snapshot ("root": the top, "drive:{id}": a library's
 * top, else the children of that item), folders first, then by name; `search` a LIKE pattern on the
 * name. With the count of all that match.
 */
export async function snapshotItemsPage(
  db: Queryable,
  snapshot: SnapshotRun,
  sourceId: string,
  nodeId: string,
  search: string | null,
  page: number,
  pageSize: number,
): Promise<{ rows: SnapshotItemRow[]; total: number }> {
  const params = snapshotParams(snapshot, sourceId);
  let where: string;
  if (nodeId === 'root') where = `s.path !~ '^/[^/]+/'`;
  else if (nodeId.startsWith('drive:')) {
    params.push(nodeId.slice('drive:'.length));
    where = `s.drive_id = $${params.length} and s.path !~ '^/[^/]+/'`;
  } else {
    params.push(nodeId);
    where = `s.parent_id = $${params.length}`;
  }
  if (search) {
    params.push(search);
    where += ` and lower(s.name) like $${params.length}`;
  }
  // The page with the count of all matching rows in one pass over the snapshot; which items have
  // children is one set of parents joined, not a search of the snapshot per row.
  const rows = await db.query<SnapshotItemRow & { total?: number }>(
    `${SNAPSHOT}, parents as (select distinct parent_id from snap where parent_id is not null)
     select s.item_id, s.parent_id, s.kind, s.name, s.path, s.size, s.modified_at,
            p.parent_id is not null as has_children, count(*) over ()::int as total
       from snap s left join parents p on p.parent_id = s.item_id where ${where}
      order by s.kind <> 'folder', lower(s.name), s.item_id
      limit ${pageSize} offset ${(page - 1) * pageSize}`,
    params,
  );
  let total = rows.length > 0 ? Number(rows[0]?.total) : 0;
  if (rows.length === 0 && page > 1) {
    const [count] = await db.query<{ n: number }>(
      `${SNAPSHOT} select count(*)::int as n from snap s where ${where}`,
      params,
    );
    total = Number(count?.n ?? 0);
  }
  return { rows, total };
}

/** Whether the snapshot has the item `nodeId`, or items under it. */
export async function snapshotHasNode(
  db: Queryable,
  snapshot: SnapshotRun,
  sourceId: string,
  nodeId: string,
): Promise<boolean> {
  const [known] = await db.query(`${SNAPSHOT} select 1 from snap where item_id = $4 or parent_id = $4`, [
    ...snapshotParams(snapshot, sourceId),
    nodeId,
  ]);
  return known !== undefined;
}

/** A site's list as a snapshot had it: its name, its items' count and newest change. */
export interface SnapshotListRow {
  list_id: string;
  display_name: string;
  definition: unknown;
  n: number;
  modified: Date | null;
}

/**
 * The items of the site's lists alive at run `$3`, each at its newest version stored by then (as
 * `listItemsAt` takes them for a restore): the CTE `items`. `$1` the job, `$2` the site; with
 * `oneList`, only the items of the list `$4`.
 */
const listItems = (oneList: boolean) => `items as (
      select distinct on (list_id, item_id) list_id, item_id, version_id, fields, modified_at
        from backup_list_items
       where job_id = $1 and site_id = $2 and first_seq <= $3 and (deleted_seq is null or deleted_seq > $3)
             ${oneList ? 'and list_id = $4' : ''}
       order by list_id, item_id, modified_at desc nulls last, first_seq desc, version_id desc)`;

/**
 * The site's lists in the snapshot (each at its newest definition stored by then, not deleted by
 * then), by name, with their items' count and newest change.
 */
export function snapshotLists(db: Queryable, snapshot: SnapshotRun, siteId: string): Promise<SnapshotListRow[]> {
  return db.query<SnapshotListRow>(
    `with lists as (
       select distinct on (list_id) list_id, display_name, definition, deleted_seq from backup_lists
        where job_id = $1 and site_id = $2 and first_seq <= $3
        order by list_id, first_seq desc),
     ${listItems(false)}
     select l.list_id, l.display_name, l.definition, count(i.item_id)::int as n, max(i.modified_at) as modified
       from lists l left join items i on i.list_id = l.list_id
      where l.deleted_seq is null or l.deleted_seq > $3
      group by l.list_id, l.display_name, l.definition
      order by lower(l.display_name), l.list_id`,
    snapshotParams(snapshot, siteId),
  );
}

export interface SnapshotListItemRow {
  item_id: string;
  version_id: string;
  name: string;
  size: string | null;
  modified_at: Date | null;
}

/** Ordering of a snapshot's list items and pages: by name unless asked otherwise; ties by id. */
const CONTENT_ORDER: Record<string, string> = {
  name: 'lower(name)',
  modified: 'modified_at',
  size: 'size_bytes',
  sizeBytes: 'size_bytes',
};

const contentOrder = (sort: string | undefined, order: 'asc' | 'desc' | undefined, id: string) =>
  `${ownValue(CONTENT_ORDER, sort, 'lower(name)')} ${order === 'desc' ? 'desc nulls last' : 'asc nulls first'}, ${id}`;

/** Reads the page's total from its first row, or counts again when the page is past the end. */
async function pageTotal<R extends { total?: number }>(
  rows: R[],
  page: number,
  count: () => Promise<{ n: number }[]>,
): Promise<number> {
  if (rows.length > 0) return Number(rows[0]?.total);
  if (page === 1) return 0;
  const [counted] = await count();
  return Number(counted?.n ?? 0);
}

/**
 * One page of a list's items in the snapshot, named by the field `nameField` (the list's title
 * column), `search` a LIKE pattern on that name; with the count of all that match. The size is
 * SharePoint's SMTotalSize when the item's fields hold it.
 */
export async function snapshotListItemsPage(
  db: Queryable,
  snapshot: SnapshotRun,
  siteId: string,
  listId: string,
  args: {
    nameField: string;
    search: string | null;
    sort?: string;
    order?: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<{ rows: SnapshotListItemRow[]; total: number }> {
  const params: SqlValue[] = [...snapshotParams(snapshot, siteId), listId, args.nameField];
  let where = 'true';
  if (args.search) {
    params.push(args.search);
    where = `lower(name) like $${params.length}`;
  }
  const named = `${listItems(true)}, named as (
      select item_id, version_id, modified_at, coalesce(fields->>$5, '') as name, fields->>'SMTotalSize' as size,
             case when fields->>'SMTotalSize' ~ '^[0-9]{1,15}$' then (fields->>'SMTotalSize')::bigint end as size_bytes
        from items)`;
  const rows = await db.query<SnapshotListItemRow & { total?: number }>(
    `with ${named}
     select item_id, version_id, name, size, modified_at, count(*) over ()::int as total from named
      where ${where} order by ${contentOrder(args.sort, args.order, 'item_id')}
      limit ${args.pageSize} offset ${(args.page - 1) * args.pageSize}`,
    params,
  );
  const total = await pageTotal(rows, args.page, () =>
    db.query<{ n: number }>(`with ${named} select count(*)::int as n from named where ${where}`, params),
  );
  return { rows, total };
}

/** The site's pages alive at run `$3`, each at its newest version stored by then: the CTE `pages`. */
const PAGES = `pages as (
      select distinct on (page_id) page_id, version_id, name, title, modified_at from backup_pages
       where job_id = $1 and site_id = $2 and first_seq <= $3 and (deleted_seq is null or deleted_seq > $3)
       order by page_id, modified_at desc nulls last, first_seq desc)`;

/** How many pages the site had in the snapshot, and their newest change. */
export async function snapshotPageCount(
  db: Queryable,
  snapshot: SnapshotRun,
  siteId: string,
): Promise<{ n: number; modified: Date | null }> {
  const [row] = await db.query<{ n: number; modified: Date | null }>(
    `with ${PAGES} select count(*)::int as n, max(modified_at) as modified from pages`,
    snapshotParams(snapshot, siteId),
  );
  return { n: Number(row?.n ?? 0), modified: row?.modified ?? null };
}

export interface SnapshotPageRow {
  page_id: string;
  version_id: string;
  name: string;
  file_name: string;
  modified_at: Date | null;
}

/**
 * One page of the site's pages in the snapshot, named by their title (the file name when untitled),
 * `search` a LIKE pattern on either; with the count of all that match.
 */
export async function snapshotPagesPage(
  db: Queryable,
  snapshot: SnapshotRun,
  siteId: string,
  args: { search: string | null; sort?: string; order?: 'asc' | 'desc'; page: number; pageSize: number },
): Promise<{ rows: SnapshotPageRow[]; total: number }> {
  const params = snapshotParams(snapshot, siteId);
  let where = 'true';
  if (args.search) {
    params.push(args.search);
    where = `(lower(name) like $${params.length} or lower(file_name) like $${params.length})`;
  }
  const named = `${PAGES}, named as (
      select page_id, version_id, coalesce(nullif(title, ''), name) as name, name as file_name, modified_at,
             null::bigint as size_bytes
        from pages)`;
  const rows = await db.query<SnapshotPageRow & { total?: number }>(
    `with ${named}
     select page_id, version_id, name, file_name, modified_at, count(*) over ()::int as total from named
      where ${where} order by ${contentOrder(args.sort, args.order, 'page_id')}
      limit ${args.pageSize} offset ${(args.page - 1) * args.pageSize}`,
    params,
  );
  const total = await pageTotal(rows, args.page, () =>
    db.query<{ n: number }>(`with ${named} select count(*)::int as n from named where ${where}`, params),
  );
  return { rows, total };
}
