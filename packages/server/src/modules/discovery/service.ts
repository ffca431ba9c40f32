/**
 * Discovery: what a tenant holds, read from Microsoft Graph and kept in `discovered_sources` so lists
 * page, sort and search in the database and reports show names; and the tree of a backed-up source
 * as a snapshot had it, node by node.
 */
import type {
  Application,
  DiscoveredGroup,
  DiscoveredSource,
  DiscoveryNode,
  Page,
  PermissionArea,
} from '@compliance-portal/sdk';
import type { Group, User } from '@microsoft/microsoft-graph-types';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { notFound } from '../../errors.js';
import { graphFailure, microsoft365Refusal } from '../../http/graph-errors.js';
import { ownValue } from '../../http/list-query.js';
import { type GraphApi, GraphError } from '../../m365/graph-api.js';
import { locationExists } from '../locations/repository.js';
import { listItemsCsv } from '../site-content/service.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  discoveredAmong,
  discoveredPage,
  discoveryState,
  type FoundSource,
  jobSources,
  lastDiscovered,
  latestSnapshotRun,
  likePattern,
  replaceDiscoveredSources,
  type SnapshotGroupRow,
  type SnapshotListRow,
  type SnapshotRun,
  snapshotGroups,
  snapshotHasNode,
  snapshotItemsPage,
  snapshotListItemsPage,
  snapshotLists,
  snapshotPageCount,
  snapshotPagesPage,
} from './repository.js';

/** One of the tenant's storage locations, or 404 (the same answer for another tenant's). */
export async function requireTenantLocation(ctx: AppContext, tenant: TenantRecord, locationId: string): Promise<void> {
  if (!(await locationExists(ctx.db, tenant.tenantId, locationId))) throw notFound('Location not found');
}

/** A tenant's discovery is read again from Microsoft 365 when older than this. */
const DISCOVERY_MAX_AGE_MS = 5 * 60_000;

export interface ListArgs {
  page?: number;
  pageSize?: number;
  sort?: string;
  order?: 'asc' | 'desc';
  search?: string;
}

/**
 * What reading `application`'s sources is, as the permissions table has it: the area it serves (the
 * backup's accounts, sites and teams, the mail archive's mailboxes) and the permission of its one call
 * (List users, Search for sites, List groups filtered to teams).
 */
const READ_OF: Record<Application, { area: PermissionArea; needs: string[] }> = {
  onedrive: { area: 'backup', needs: ['User.Read.All'] },
  sharepoint: { area: 'backup', needs: ['Sites.Read.All'] },
  teams: { area: 'backup', needs: ['GroupMember.Read.All'] },
  exchange: { area: 'mailArchive', needs: ['User.Read.All'] },
};

/** The job type whose sources make an account of `application` "protected". */
const PROTECTING_TYPE: Record<Application, string> = {
  onedrive: 'backup',
  sharepoint: 'backup',
  teams: 'backup',
  exchange: 'exchangeArchive',
};

async function readFromGraph(graph: GraphApi, application: Application): Promise<FoundSource[]> {
  const found: FoundSource[] = [];
  if (application === 'sharepoint') {
    for await (const site of graph.sites())
      found.push({
        sourceId: site.id ?? '',
        kind: 'site',
        displayName: site.displayName ?? site.name ?? site.webUrl ?? '',
        url: site.webUrl ?? null,
      });
  } else if (application === 'teams') {
    for await (const team of graph.teams())
      found.push({ sourceId: team.id ?? '', kind: 'team', displayName: team.displayName ?? '' });
  } else {
    for await (const user of graph.users()) {
      // Exchange: only accounts with a mailbox; a guest without one cannot be archived.
      if (application === 'exchange' && !user.mail) continue;
      found.push({
        sourceId: user.id ?? '',
        kind: application === 'exchange' ? 'mailbox' : 'user',
        displayName: user.displayName ?? user.userPrincipalName ?? '',
        email: user.mail ?? user.userPrincipalName ?? null,
      });
    }
  }
  return found.filter((f) => f.sourceId);
}

/**
 * Reads the tenant's accounts, sites or teams from Microsoft 365 into `discovered_sources` when what
 * is stored is older than DISCOVERY_MAX_AGE_MS. When Microsoft 365 cannot be read, what is stored is
 * kept and used; with nothing stored the caller gets 502 with the cause (graph-errors.ts).
 */
export async function refreshDiscovery(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  application: Application,
  options: { force?: boolean } = {},
) {
  const state = await discoveryState(ctx.db, tenant.tenantId, application);
  const seen = state?.seen ? new Date(state.seen).getTime() : 0;
  if (!options.force && seen > 0 && ctx.now().getTime() - seen < DISCOVERY_MAX_AGE_MS) return;
  let found: FoundSource[];
  try {
    found = await readFromGraph(await graph(), application);
  } catch (error) {
    ctx.log.warn({ err: error, tenantId: tenant.tenantId, application }, 'discovery failed');
    if (Number(state?.n ?? 0) > 0) return;
    throw microsoft365Refusal(error, READ_OF[application].area, READ_OF[application].needs);
  }
  const now = ctx.now();
  await ctx.db.transaction((tx) => replaceDiscoveredSources(tx, tenant.tenantId, application, found, now));
}

/** Within this time a refresh forced by an unknown id is not repeated (no Graph read per request). */
const RECHECK_MS = 60_000;

async function missingFrom(
  db: Queryable,
  tenantId: string,
  application: Application,
  ids: readonly string[],
  byEmail: boolean,
) {
  const rows = await discoveredAmong(db, tenantId, application, ids, byEmail);
  const known = new Set(rows.flatMap((r) => [r.source_id, ...(byEmail ? [r.email ?? ''] : [])]));
  return ids.filter((id) => !known.has(id) && !(byEmail && known.has(id.toLowerCase())));
}

/**
 * The ids among `ids` that name no account, site or team of the tenant in `application`'s discovery
 * (an account also by its email address, unless `byEmail` is false: where only ids are stored).
 * Unknown ids make discovery read Microsoft 365 again (at most once a minute), so an account created
 * since the last read is found; ids of another tenant never are.
 */
export async function unknownSources(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  application: Application,
  ids: readonly string[],
  { byEmail = true }: { byEmail?: boolean } = {},
): Promise<string[]> {
  if (ids.length === 0) return [];
  const missing = await missingFrom(ctx.db, tenant.tenantId, application, ids, byEmail);
  if (missing.length === 0) return [];
  const last = await lastDiscovered(ctx.db, tenant.tenantId, application);
  const seen = last ? new Date(last).getTime() : 0;
  if (ctx.now().getTime() - seen < RECHECK_MS) return missing;
  await refreshDiscovery(ctx, graph, tenant, application, { force: true });
  return missingFrom(ctx.db, tenant.tenantId, application, missing, byEmail);
}

/** The sources of the tenant's jobs that protect `application`'s accounts, sites or teams. */
function protectedSources(db: Queryable, tenantId: string, application: Application): Promise<Set<string>> {
  return jobSources(db, tenantId, PROTECTING_TYPE[application], application);
}

/** One page of discovered sources with their protection, searched by name, address or URL. */
export async function listDiscovered(
  db: Queryable,
  tenantId: string,
  application: Application,
  args: ListArgs,
): Promise<Page<DiscoveredSource>> {
  const covered = await protectedSources(db, tenantId, application);
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 25;
  const { rows, total } = await discoveredPage(db, tenantId, application, covered, { ...args, page, pageSize });
  return {
    items: rows.map((r) => ({
      sourceId: r.source_id,
      kind: r.kind,
      displayName: r.display_name,
      ...(r.email ? { email: r.email } : {}),
      ...(r.url ? { url: r.url } : {}),
      protected: r.protected,
    })),
    total,
    page,
    pageSize,
  };
}

function groupKind(group: Group): DiscoveredGroup['kind'] {
  if (group.groupTypes?.includes('Unified')) return 'microsoft365';
  return group.mailEnabled && !group.securityEnabled ? 'distribution' : 'security';
}

function pageOf<T>(all: T[], args: ListArgs): Page<T> {
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 25;
  return { items: all.slice((page - 1) * pageSize, page * pageSize), total: all.length, page, pageSize };
}

function compareBy<T>(key: (x: T) => string | number, order: 'asc' | 'desc' | undefined) {
  const sign = order === 'desc' ? -1 : 1;
  return (a: T, b: T) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -sign : x > y ? sign : 0;
  };
}

/**
 * How long the groups page takes a tenant's group list as read: paging, sorting and searching it,
 * and several administrators reading it at once, then cost one Graph read per half minute instead of
 * one per request, and a group made or removed in Microsoft 365 shows within that time (at once when
 * the page or a group's members page finds it gone). The member counts are read live with every page
 * (in batches, one read shared by the requests for the page that come while it runs). Each Graph
 * client (the data plane's, one per tenant and app registration) has its own list: a changed
 * registration starts without one.
 */
export const GROUP_LIST_TTL_MS = 30_000;

const groupLists = new WeakMap<GraphApi, { at: number; groups: Promise<readonly Group[]> }>();

/** The tenant's groups as read less than GROUP_LIST_TTL_MS ago (concurrent requests share one read), or read now. */
function tenantGroups(graph: GraphApi, now: number): { groups: Promise<readonly Group[]>; kept: boolean } {
  const kept = groupLists.get(graph);
  if (kept && now >= kept.at && now - kept.at < GROUP_LIST_TTL_MS) return { groups: kept.groups, kept: true };
  const groups = (async () => {
    const all: Group[] = [];
    for await (const group of graph.groups()) all.push(group);
    return all;
  })();
  const entry = { at: now, groups };
  groupLists.set(graph, entry);
  // A failed read is not kept: the next request reads again.
  groups.catch(() => {
    if (groupLists.get(graph) === entry) groupLists.delete(graph);
  });
  return { groups, kept: false };
}

const countReads = new WeakMap<GraphApi, Map<string, Promise<Map<string, number>>>>();

/**
 * The member counts of `ids` as Graph answers them now: a request that comes while the same counts
 * are being read joins that read instead of sending its own (its answer is no older than the request),
 * so many administrators on the same page cost one batch at a time, not one each.
 */
function liveCounts(graph: GraphApi, ids: readonly string[]): Promise<Map<string, number>> {
  let reads = countReads.get(graph);
  if (!reads) {
    reads = new Map();
    countReads.set(graph, reads);
  }
  const key = JSON.stringify(ids);
  let read = reads.get(key);
  if (!read) {
    const pending = graph.groupUserCounts(ids);
    read = pending;
    reads.set(key, pending);
    const done = () => {
      if (reads?.get(key) === pending) reads.delete(key);
    };
    pending.then(done, done);
  }
  return read;
}

/** One page of the groups of `all` with their member counts, batched: one round trip per 20 groups shown. */
async function groupsPage(graph: GraphApi, all: readonly Group[], args: ListArgs): Promise<Page<DiscoveredGroup>> {
  const search = args.search?.trim().toLowerCase();
  const groups = search
    ? all.filter((g) => `${g.displayName ?? ''} ${g.mail ?? ''}`.toLowerCase().includes(search))
    : [...all];
  const keys: Record<string, (g: Group) => string> = {
    displayName: (g) => (g.displayName ?? '').toLowerCase(),
    mail: (g) => (g.mail ?? '').toLowerCase(),
    kind: (g) => groupKind(g),
  };
  groups.sort(compareBy(ownValue(keys, args.sort, keys.displayName ?? ((g: Group) => g.id ?? '')), args.order));
  const shown = pageOf(groups, args);
  // Counted by Graph: one short answer per group rather than every member's page.
  const counts = await liveCounts(
    graph,
    shown.items.map((g) => g.id ?? ''),
  );
  const items = shown.items.map((g) => ({
    groupId: g.id ?? '',
    displayName: g.displayName ?? '',
    ...(g.mail ? { mail: g.mail } : {}),
    kind: groupKind(g),
    memberCount: counts.get(g.id ?? '') ?? 0,
  }));
  return { ...shown, items };
}

/**
 * The tenant's groups with the member counts of the page shown: the list as read within
 * GROUP_LIST_TTL_MS (`now`, ms), the counts live. A group of a kept list that Graph no longer knows
 * (404 for its count: removed since) makes the list be read again, once, so it is not shown again.
 */
export async function listGroups(
  connect: () => Promise<GraphApi>,
  args: ListArgs,
  now: number = Date.now(),
): Promise<Page<DiscoveredGroup>> {
  try {
    const graph = await connect();
    const { groups, kept } = tenantGroups(graph, now);
    try {
      return await groupsPage(graph, await groups, args);
    } catch (error) {
      if (!(kept && error instanceof GraphError && error.status === 404)) throw error;
      groupLists.delete(graph);
      return await groupsPage(graph, await tenantGroups(graph, now).groups, args);
    }
  } catch (error) {
    // Groups hold proxy rights to mail archives: the mail archive's permissions read them.
    throw microsoft365Refusal(error, 'mailArchive');
  }
}

/** A group's member accounts, with protection for `application` (Exchange archive by default). */
export async function listGroupUsers(
  db: Queryable,
  connect: () => Promise<GraphApi>,
  tenantId: string,
  groupId: string,
  application: Application,
  args: ListArgs,
): Promise<Page<DiscoveredSource>> {
  const members: User[] = [];
  let graph: GraphApi | undefined;
  try {
    graph = await connect();
    for await (const user of graph.groupMembers(groupId)) members.push(user);
  } catch (error) {
    // A group gone is gone from the groups page too: the list kept is read again.
    if (graph && error instanceof GraphError && error.status === 404) groupLists.delete(graph);
    throw graphFailure(error, 'Group not found', 'mailArchive');
  }
  const covered = await protectedSources(db, tenantId, application);
  const search = args.search?.trim().toLowerCase();
  const all = members
    .map(
      (u): DiscoveredSource => ({
        sourceId: u.id ?? '',
        kind: application === 'exchange' ? 'mailbox' : 'user',
        displayName: u.displayName ?? u.userPrincipalName ?? '',
        ...((u.mail ?? u.userPrincipalName) ? { email: u.mail ?? u.userPrincipalName ?? '' } : {}),
        protected: covered.has(u.id ?? ''),
      }),
    )
    .filter((u) => !search || `${u.displayName} ${u.email ?? ''}`.toLowerCase().includes(search));
  const keys: Record<string, (u: DiscoveredSource) => string | number> = {
    displayName: (u) => u.displayName.toLowerCase(),
    email: (u) => (u.email ?? '').toLowerCase(),
    protected: (u) => (u.protected ? 1 : 0),
  };
  all.sort(
    compareBy(
      ownValue(keys, args.sort, (u: DiscoveredSource): string | number => u.displayName),
      args.order,
    ),
  );
  return pageOf(all, args);
}

/** The backup run a snapshot at `at` (the newest without it) of `sourceId` in `locationId` comes from. */
export function snapshotRun(
  db: Queryable,
  tenantId: string,
  locationId: string,
  sourceId: string,
  at: Date | null,
): Promise<SnapshotRun | null> {
  return latestSnapshotRun(db, tenantId, locationId, sourceId, at);
}

const nodeGroupOf = (application: Application, r: SnapshotGroupRow): DiscoveryNode => ({
  nodeId: r.id,
  parentId: null,
  kind: application === 'teams' ? 'channel' : 'library',
  name: r.name,
  path: `/${r.name}`,
  sizeBytes: Number(r.size),
  modified: r.modified ? new Date(r.modified).toISOString() : null,
  hasChildren: Number(r.n) > 0,
});

/**
 * The children of a node in a source's snapshot: "root" gives the top (a site's libraries, a team's
 * channels, a OneDrive's top folders and files); "drive:{id}" a library's top; a folder's id its
 * content; a channel's id its messages. Folders first, then by name.
 */
export async function snapshotChildren(
  db: Queryable,
  snapshot: SnapshotRun,
  sourceId: string,
  nodeId: string,
  args: ListArgs,
): Promise<Page<DiscoveryNode>> {
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 100;
  const search = args.search?.trim() ? likePattern(args.search) : null;

  if (snapshot.application === 'sharepoint') {
    if (nodeId === 'pages') return sitePages(db, snapshot, sourceId, { ...args, page, pageSize });
    if (nodeId.startsWith('list:')) return listItemNodes(db, snapshot, sourceId, nodeId, { ...args, page, pageSize });
  }
  if (nodeId === 'root' && snapshot.application !== 'onedrive') {
    // Libraries of a site, channels of a team: grouping nodes, not stored items; a site's lists and
    // its pages beside its libraries.
    const groups = (await snapshotGroups(db, snapshot, sourceId)).map((r) => nodeGroupOf(snapshot.application, r));
    const nodes = [
      ...groups,
      ...(snapshot.application === 'sharepoint' ? await siteContentNodes(db, snapshot, sourceId) : []),
    ].filter((n) => !search || n.name.toLowerCase().includes(search.slice(1, -1)));
    return { items: nodes.slice((page - 1) * pageSize, page * pageSize), total: nodes.length, page, pageSize };
  }

  const { rows, total } = await snapshotItemsPage(db, snapshot, sourceId, nodeId, search, page, pageSize);
  if (total === 0 && nodeId !== 'root' && !nodeId.startsWith('drive:')) {
    if (!(await snapshotHasNode(db, snapshot, sourceId, nodeId))) throw notFound('No folder found for this worker.');
  }
  return {
    items: rows.map((r) => ({
      nodeId: r.item_id,
      parentId: nodeId === 'root' ? null : nodeId,
      kind: r.kind,
      name: r.name,
      path: r.path,
      sizeBytes: Number(r.size),
      modified: r.modified_at ? new Date(r.modified_at).toISOString() : null,
      hasChildren: r.kind === 'folder' && r.has_children,
    })),
    total,
    page,
    pageSize,
  };
}

/** The name the pages group of a site's snapshot has (the screens show their own words for it). */
const SITE_PAGES = 'Site pages';

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

/** A site's lists in a snapshot, then its pages group when it had pages: the top's nodes beside the libraries. */
async function siteContentNodes(db: Queryable, snapshot: SnapshotRun, siteId: string): Promise<DiscoveryNode[]> {
  const lists = (await snapshotLists(db, snapshot, siteId)).map(
    (l): DiscoveryNode => ({
      nodeId: `list:${l.list_id}`,
      parentId: null,
      kind: 'list',
      name: l.display_name,
      path: `/${l.display_name}`,
      sizeBytes: 0,
      modified: iso(l.modified),
      hasChildren: Number(l.n) > 0,
      itemCount: Number(l.n),
    }),
  );
  const pages = await snapshotPageCount(db, snapshot, siteId);
  if (pages.n === 0) return lists;
  return [
    ...lists,
    {
      nodeId: 'pages',
      parentId: null,
      kind: 'pages',
      name: SITE_PAGES,
      path: `/${SITE_PAGES}`,
      sizeBytes: 0,
      modified: iso(pages.modified),
      hasChildren: true,
      itemCount: pages.n,
    },
  ];
}

/** A column of a kept list's definition, as Graph's columnDefinition has it. */
interface ListColumn {
  name?: unknown;
  hidden?: unknown;
  text?: unknown;
}

/**
 * The field that names a list's items: Title, as SharePoint shows an item, or the list's first text
 * column when it has no visible Title.
 */
function nameField(list: SnapshotListRow): string {
  const definition = (typeof list.definition === 'string' ? JSON.parse(list.definition) : list.definition) as {
    columns?: ListColumn[];
  };
  const columns = (definition.columns ?? []).filter((c) => c.hidden !== true && typeof c.name === 'string');
  if (columns.some((c) => c.name === 'Title')) return 'Title';
  const text = columns.find((c) => c.text !== undefined && c.text !== null);
  return typeof text?.name === 'string' ? text.name : 'Title';
}

type Paging = ListArgs & { page: number; pageSize: number };

/** The items of the list `list:{listId}` as the snapshot had them, or 404 when it had no such list. */
async function listItemNodes(
  db: Queryable,
  snapshot: SnapshotRun,
  siteId: string,
  nodeId: string,
  args: Paging,
): Promise<Page<DiscoveryNode>> {
  const listId = nodeId.slice('list:'.length);
  const list = (await snapshotLists(db, snapshot, siteId)).find((l) => l.list_id === listId);
  if (!list) throw notFound('No list found in this backup.');
  const { rows, total } = await snapshotListItemsPage(db, snapshot, siteId, listId, {
    nameField: nameField(list),
    search: args.search?.trim() ? likePattern(args.search) : null,
    ...(args.sort ? { sort: args.sort } : {}),
    ...(args.order ? { order: args.order } : {}),
    page: args.page,
    pageSize: args.pageSize,
  });
  return {
    items: rows.map((r): DiscoveryNode => {
      // An item without a title is still named: by its number in the list, as SharePoint's ID column.
      const name = r.name.trim() || `#${r.item_id}`;
      const size = r.size !== null && /^\d{1,15}$/.test(r.size) ? Number(r.size) : 0;
      return {
        nodeId: `listItem:${listId}:${r.item_id}`,
        parentId: nodeId,
        kind: 'listItem',
        name,
        path: `/${list.display_name}/${name}`,
        sizeBytes: size,
        modified: iso(r.modified_at),
        hasChildren: false,
        version: r.version_id,
      };
    }),
    total,
    page: args.page,
    pageSize: args.pageSize,
  };
}

/** The site's pages as the snapshot had them, by title. */
async function sitePages(
  db: Queryable,
  snapshot: SnapshotRun,
  siteId: string,
  args: Paging,
): Promise<Page<DiscoveryNode>> {
  const { rows, total } = await snapshotPagesPage(db, snapshot, siteId, {
    search: args.search?.trim() ? likePattern(args.search) : null,
    ...(args.sort ? { sort: args.sort } : {}),
    ...(args.order ? { order: args.order } : {}),
    page: args.page,
    pageSize: args.pageSize,
  });
  return {
    items: rows.map(
      (r): DiscoveryNode => ({
        nodeId: `page:${r.page_id}`,
        parentId: 'pages',
        kind: 'page',
        name: r.name,
        path: `/${SITE_PAGES}/${r.file_name}`,
        sizeBytes: 0,
        modified: iso(r.modified_at),
        hasChildren: false,
        version: r.version_id,
      }),
    ),
    total,
    page: args.page,
    pageSize: args.pageSize,
  };
}

/**
 * A site's list as the snapshot had it, its items as csv (site-content's export), named after the
 * list; 404 when the snapshot is not a site's or has no such list.
 */
export async function snapshotListCsv(
  db: Queryable,
  snapshot: SnapshotRun,
  siteId: string,
  listId: string,
): Promise<{ fileName: string; csv: string }> {
  const list =
    snapshot.application === 'sharepoint'
      ? (await snapshotLists(db, snapshot, siteId)).find((l) => l.list_id === listId)
      : undefined;
  const csv = list ? await listItemsCsv(db, { jobId: snapshot.jobId, siteId, listId, seq: snapshot.seq }) : null;
  if (!list || csv === null) throw notFound('No list found in this backup.');
  // A file name keeps what a file system takes; the list's own name stays in the header's UTF-8 form.
  const safe = [...list.display_name].map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('');
  const fileName = `${safe.trim() || listId}.csv`;
  return { fileName, csv };
}
