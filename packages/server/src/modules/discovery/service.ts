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
import type { Queryable, SqlValue } from '../../db/database.js';
import { notFound } from '../../errors.js';
import { graphFailure, microsoft365Refusal } from '../../http/graph-errors.js';
import { ownValue } from '../../http/list-query.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { locationExists } from '../locations/repository.js';
import type { TenantRecord } from '../tenants/repository.js';

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

const like = (search: string) =>
  `%${search
    .trim()
    .toLowerCase()
    .replace(/[%_\\]/g, '\\$&')}%`;

type SourceKind = DiscoveredSource['kind'];
interface Found {
  sourceId: string;
  kind: SourceKind;
  displayName: string;
  email?: string | null;
  url?: string | null;
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

async function readFromGraph(graph: GraphApi, application: Application): Promise<Found[]> {
  const found: Found[] = [];
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
  const [state] = await ctx.db.query<{ seen: Date | null; n: number }>(
    'select max(seen_at) as seen, count(*)::int as n from discovered_sources where tenant_id = $1 and application = $2',
    [tenant.tenantId, application],
  );
  const seen = state?.seen ? new Date(state.seen).getTime() : 0;
  if (!options.force && seen > 0 && ctx.now().getTime() - seen < DISCOVERY_MAX_AGE_MS) return;
  let found: Found[];
  try {
    found = await readFromGraph(await graph(), application);
  } catch (error) {
    ctx.log.warn({ err: error, tenantId: tenant.tenantId, application }, 'discovery failed');
    if (Number(state?.n ?? 0) > 0) return;
    throw microsoft365Refusal(error, READ_OF[application].area, READ_OF[application].needs);
  }
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await tx.query('delete from discovered_sources where tenant_id = $1 and application = $2', [
      tenant.tenantId,
      application,
    ]);
    // In batches: a tenant can have tens of thousands of accounts.
    for (let at = 0; at < found.length; at += 500) {
      const batch = found.slice(at, at + 500);
      const params: SqlValue[] = [];
      const rows = batch.map((f) => {
        params.push(
          tenant.tenantId,
          application,
          f.sourceId,
          f.kind,
          f.displayName,
          f.email ?? null,
          f.url ?? null,
          now,
        );
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
      [tenant.tenantId, application],
    );
  });
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
  const rows = await db.query<{ source_id: string; email: string | null }>(
    `select source_id, lower(email) as email from discovered_sources
      where tenant_id = $1 and application = $2 and (source_id = any($3) or ($5 and lower(email) = any($4)))`,
    [tenantId, application, [...ids], ids.map((id) => id.toLowerCase()), byEmail],
  );
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
  const [state] = await ctx.db.query<{ seen: Date | null }>(
    'select max(seen_at) as seen from discovered_sources where tenant_id = $1 and application = $2',
    [tenant.tenantId, application],
  );
  const seen = state?.seen ? new Date(state.seen).getTime() : 0;
  if (ctx.now().getTime() - seen < RECHECK_MS) return missing;
  await refreshDiscovery(ctx, graph, tenant, application, { force: true });
  return missingFrom(ctx.db, tenant.tenantId, application, missing, byEmail);
}

/** The sources of jobs of `type` (and `application`) of the tenant. */
async function protectedSources(db: Queryable, tenantId: string, application: Application): Promise<Set<string>> {
  const rows = await db.query<{ source: string }>(
    `select distinct jsonb_array_elements_text(definition->'sources') as source
       from jobs where tenant_id = $1 and type = $2 and application = $3`,
    [tenantId, PROTECTING_TYPE[application], application],
  );
  return new Set(rows.map((r) => r.source));
}

/** One page of discovered sources with their protection, searched by name, address or URL. */
export async function listDiscovered(
  db: Queryable,
  tenantId: string,
  application: Application,
  args: ListArgs,
): Promise<Page<DiscoveredSource>> {
  const covered = await protectedSources(db, tenantId, application);
  const params: SqlValue[] = [tenantId, application];
  let where = 'tenant_id = $1 and application = $2';
  if (args.search?.trim()) {
    params.push(like(args.search));
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
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 25;
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from discovered_sources where ${where}`,
    params.slice(0, -1),
  );
  const rows = await db.query<{
    source_id: string;
    kind: SourceKind;
    display_name: string;
    email: string | null;
    url: string | null;
    protected: boolean;
  }>(
    `select source_id, kind, display_name, email, url, source_id = any(${coveredParam}) as protected
       from discovered_sources where ${where}
      order by ${order} limit ${pageSize} offset ${(page - 1) * pageSize}`,
    params,
  );
  return {
    items: rows.map((r) => ({
      sourceId: r.source_id,
      kind: r.kind,
      displayName: r.display_name,
      ...(r.email ? { email: r.email } : {}),
      ...(r.url ? { url: r.url } : {}),
      protected: r.protected,
    })),
    total: Number(count?.n ?? 0),
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

/** The tenant's groups, read live (with their member counts for the page shown). */
export async function listGroups(connect: () => Promise<GraphApi>, args: ListArgs): Promise<Page<DiscoveredGroup>> {
  let groups: Group[] = [];
  let graph: GraphApi;
  try {
    graph = await connect();
    for await (const group of graph.groups()) groups.push(group);
  } catch (error) {
    // Groups hold proxy rights to mail archives: the mail archive's permissions read them.
    throw microsoft365Refusal(error, 'mailArchive');
  }
  const search = args.search?.trim().toLowerCase();
  if (search) groups = groups.filter((g) => `${g.displayName ?? ''} ${g.mail ?? ''}`.toLowerCase().includes(search));
  const keys: Record<string, (g: Group) => string> = {
    displayName: (g) => (g.displayName ?? '').toLowerCase(),
    mail: (g) => (g.mail ?? '').toLowerCase(),
    kind: (g) => groupKind(g),
  };
  groups.sort(compareBy(ownValue(keys, args.sort, keys.displayName ?? ((g: Group) => g.id ?? '')), args.order));
  const shown = pageOf(groups, args);
  const items = await Promise.all(
    shown.items.map(async (g) => {
      // Counted by Graph: one short answer per group rather than every member's page.
      const memberCount = await graph.groupUserCount(g.id ?? '');
      return {
        groupId: g.id ?? '',
        displayName: g.displayName ?? '',
        ...(g.mail ? { mail: g.mail } : {}),
        kind: groupKind(g),
        memberCount,
      };
    }),
  ).catch((error: unknown) => {
    throw microsoft365Refusal(error, 'mailArchive');
  });
  return { ...shown, items };
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
  try {
    const graph = await connect();
    for await (const user of graph.groupMembers(groupId)) members.push(user);
  } catch (error) {
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
export async function snapshotRun(
  db: Queryable,
  tenantId: string,
  locationId: string,
  sourceId: string,
  at: Date | null,
) {
  const [run] = await db.query<{ job_id: string; seq: number; application: Application }>(
    `select r.job_id, r.seq, j.application from job_runs r join jobs j on j.job_id = r.job_id
      where j.tenant_id = $1 and j.type = 'backup' and j.location_id = $2 and j.definition->'sources' ? $3
        and r.status = 'finished' and ($4::timestamptz is null or r.finished <= $4)
      order by r.finished desc limit 1`,
    [tenantId, locationId, sourceId, at],
  );
  return run ? { jobId: run.job_id, seq: Number(run.seq), application: run.application } : null;
}

/**
 * The children of a node in a source's snapshot: "root" gives the top (a site's libraries, a team's
 * channels, a OneDrive's top folders and files); "drive:{id}" a library's top; a folder's id its
 * content; a channel's id its messages. Folders first, then by name.
 */
export async function snapshotChildren(
  db: Queryable,
  snapshot: { jobId: string; seq: number; application: Application },
  sourceId: string,
  nodeId: string,
  args: ListArgs,
): Promise<Page<DiscoveryNode>> {
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 100;
  const params: SqlValue[] = [snapshot.jobId, sourceId, snapshot.seq];
  const snap = `with snap as (
      select distinct on (item_id) item_id, drive_id, kind, name, path, parent_id, size, modified_at
        from backup_items
       where job_id = $1 and source_id = $2 and first_seq <= $3 and (deleted_seq is null or deleted_seq > $3)
       order by item_id, modified_at desc nulls last, first_seq desc)`;
  const search = args.search?.trim() ? like(args.search) : null;

  if (nodeId === 'root' && snapshot.application !== 'onedrive') {
    // Libraries of a site, channels of a team: grouping nodes, not stored items.
    const rows =
      snapshot.application === 'teams'
        ? await db.query<{ id: string; name: string; size: string; modified: Date | null; n: number }>(
            `${snap} select parent_id as id, min(substr(path, 2)) as name, sum(size)::bigint as size,
                            max(modified_at) as modified, count(*)::int as n
               from snap where kind = 'message' group by parent_id order by 2`,
            params,
          )
        : await db.query<{ id: string; name: string; size: string; modified: Date | null; n: number }>(
            `${snap} select 'drive:' || d.drive_id as id, d.name, coalesce(sum(s.size), 0)::bigint as size,
                            max(s.modified_at) as modified, count(s.item_id)::int as n
               from backup_drives d left join snap s on s.drive_id = d.drive_id
              where d.job_id = $1 and d.source_id = $2 group by d.drive_id, d.name order by d.name`,
            params,
          );
    const nodes = rows
      .filter((r) => !search || r.name.toLowerCase().includes(search.slice(1, -1)))
      .map(
        (r): DiscoveryNode => ({
          nodeId: r.id,
          parentId: null,
          kind: snapshot.application === 'teams' ? 'channel' : 'library',
          name: r.name,
          path: `/${r.name}`,
          sizeBytes: Number(r.size),
          modified: r.modified ? new Date(r.modified).toISOString() : null,
          hasChildren: Number(r.n) > 0,
        }),
      );
    return { items: nodes.slice((page - 1) * pageSize, page * pageSize), total: nodes.length, page, pageSize };
  }

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
  const rows = await db.query<{
    item_id: string;
    parent_id: string | null;
    kind: 'file' | 'folder' | 'message';
    name: string;
    path: string;
    size: string;
    modified_at: Date | null;
    has_children: boolean;
    total: number;
  }>(
    `${snap}, parents as (select distinct parent_id from snap where parent_id is not null)
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
      `${snap} select count(*)::int as n from snap s where ${where}`,
      params,
    );
    total = Number(count?.n ?? 0);
  }
  if (total === 0 && nodeId !== 'root' && !nodeId.startsWith('drive:')) {
    const [known] = await db.query(`${snap} select 1 from snap where item_id = $4 or parent_id = $4`, [
      ...params.slice(0, 3),
      nodeId,
    ]);
    if (!known) throw notFound('No folder found for this worker.');
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
