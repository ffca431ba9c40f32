/**
 * Drives: the drive, its items, children, delta, versions, content, permissions, and the writes
 * restores and clean-ups make (uploads, upload sessions, folders, version restore and removal). Paths
 * with a colon (`root:/a/b`, `items/{parent}:/{name}:/content`) address an item by its path. Content
 * is read as SharePoint serves it: `/content` answers 302 to the item's `@microsoft.graph.downloadUrl`,
 * a short-lived pre-authenticated link (no bearer token) on the simulator.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { pathOf, type SimDrive, type SimItem, type SimTenant, type SimVersion, versionBytes } from '../model.js';
import { mimeTypeOf } from './mime.js';
import { delta, graphError, jsonBody, notFound, page, type SimRequest, type SimResponse } from './odata.js';
import { QuickXorHash } from './quickxorhash.js';
import { type GraphCall, type GraphContext, type GraphRoute, type RouteOptions, route } from './router.js';

/** How long a download link works, as SharePoint's (about an hour). */
const DOWNLOAD_LIFETIME_MS = 60 * 60_000;

const ownerOf = (tenant: SimTenant, drive: SimDrive) => tenant.users.find((u) => u.driveId === drive.id);
const driveTypeOf = (tenant: SimTenant, drive: SimDrive) => (ownerOf(tenant, drive) ? 'business' : 'documentLibrary');
const siteOf = (tenant: SimTenant, drive: SimDrive) => tenant.sites.find((s) => s.driveIds.includes(drive.id));
const host = (tenant: SimTenant) => `${tenant.domain.split('.')[0]}.sharepoint.com`;

/** Who wrote the drive's items: its owner, or SharePoint's system account for a site's library. */
function authorOf(tenant: SimTenant, drive: SimDrive) {
  const owner = ownerOf(tenant, drive);
  return { user: owner ? { id: owner.id, displayName: owner.displayName } : { displayName: 'System Account' } };
}

/** What a drive takes, as SharePoint counts it: every version of every live file. */
function quota(drive: SimDrive | undefined) {
  let used = 0;
  for (const item of drive?.items.values() ?? [])
    if (!item.deleted && item.kind === 'file') for (const v of item.versions) used += v.size;
  return { deleted: 0, remaining: 1024 ** 4 - used, state: 'normal', total: 1024 ** 4, used };
}

export function driveJson(tenant: SimTenant, drive: SimDrive) {
  const owner = ownerOf(tenant, drive);
  const site = siteOf(tenant, drive);
  return {
    id: drive.id,
    name: drive.name,
    description: '',
    driveType: driveTypeOf(tenant, drive),
    createdDateTime: drive.items.get(`${drive.id}-root`)?.created ?? '2026-09-01T08:00:00.000Z',
    lastModifiedDateTime: latestChange(drive),
    webUrl: owner
      ? `https://${host(tenant).replace('.sharepoint', '-my.sharepoint')}/personal/${owner.upn.replace(/[@.]/g, '_')}/Documents`
      : `${site?.webUrl ?? `https://${host(tenant)}`}/Shared Documents`,
    createdBy: { user: { displayName: 'System Account' } },
    owner: owner
      ? { user: { id: owner.id, displayName: owner.displayName } }
      : // A library belongs to the site's group: a SharePoint identity set (identitySet has no group).
        {
          '@odata.type': '#microsoft.graph.sharePointIdentitySet',
          group: { id: drive.ownerId, displayName: site?.name ?? drive.name },
        },
    quota: quota(drive),
  };
}

function latestChange(drive: SimDrive) {
  let latest = '2026-09-01T08:00:00.000Z';
  for (const item of drive.items.values()) {
    const modified = item.versions[item.versions.length - 1]?.modified ?? item.created;
    if (modified > latest) latest = modified;
  }
  return latest;
}

/** The QuickXorHash of a version's bytes, computed once. */
function hashOf(tenant: SimTenant, version: SimVersion) {
  version.quickXorHash ??= new QuickXorHash().update(versionBytes(tenant.tenantId, version)).digestBase64();
  return version.quickXorHash;
}

interface DownloadGrant {
  /** Tenant, drive, item, version. */
  t: string;
  d: string;
  i: string;
  v: string;
  /** Expiry, ms since the epoch. */
  e: number;
}

const keyOf = (context: GraphContext) => {
  context.downloadKey ??= randomBytes(32);
  return context.downloadKey;
};
const signature = (context: GraphContext, payload: string) =>
  createHmac('sha256', keyOf(context)).update(payload).digest('base64url');

/** A pre-authenticated link to one version's bytes, valid for an hour. */
function downloadUrl(context: GraphContext, tenant: SimTenant, drive: SimDrive, item: SimItem, version: SimVersion) {
  const grant: DownloadGrant = {
    t: tenant.tenantId,
    d: drive.id,
    i: item.id,
    v: version.id,
    e: Date.now() + DOWNLOAD_LIFETIME_MS,
  };
  const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
  return `${context.baseUrl()}/download/${payload}.${signature(context, payload)}`;
}

/**
 * `GET /download/{link}`: the bytes of a version by its pre-authenticated link, with Range requests;
 * a link that was not issued here or has expired answers 401, as SharePoint's do.
 */
export function download(
  request: SimRequest,
  segments: string[],
  context: GraphContext,
  tenantOf: (tenantId: string) => SimTenant | undefined,
): SimResponse {
  const refuse = (message: string) => graphError(401, 'unauthenticated', message);
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return graphError(405, 'methodNotAllowed', 'Only GET is allowed.');
  const [payload = '', mac = ''] = (segments[0] ?? '').split('.');
  const expected = signature(context, payload);
  if (mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected)))
    return refuse('The download link is not valid.');
  const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as DownloadGrant;
  if (grant.e < Date.now()) return refuse('The download link has expired.');
  const tenant = tenantOf(grant.t);
  const item = tenant?.drives.get(grant.d)?.items.get(grant.i);
  const version = item && !item.deleted ? item.versions.find((v) => v.id === grant.v) : undefined;
  if (!tenant || !item || !version) return notFound('The item was not found.');
  const bytes = versionBytes(tenant.tenantId, version);
  const headers = {
    'content-type': mimeTypeOf(item.name),
    'accept-ranges': 'bytes',
    etag: `"{${item.id}},${version.id}"`,
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    const start = range[1] ? Number(range[1]) : Math.max(0, bytes.length - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
    if (start >= bytes.length || start > end)
      return { status: 416, headers: { 'content-range': `bytes */${bytes.length}` }, bytes: new Uint8Array() };
    return {
      status: 206,
      headers: { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}` },
      bytes: bytes.subarray(start, end + 1),
    };
  }
  return { status: 200, headers, bytes };
}

function itemJson(context: GraphContext, tenant: SimTenant, drive: SimDrive, item: SimItem) {
  const latest = item.versions[item.versions.length - 1];
  const parent = drive.items.get(item.parentId);
  const parentPath = parent ? (parent.kind === 'root' ? '' : pathOf(drive, parent)) : '';
  const driveType = driveTypeOf(tenant, drive);
  const site = siteOf(tenant, drive);
  const reference = { driveType, driveId: drive.id, ...(site ? { siteId: site.id } : {}) };
  if (item.deleted) {
    return {
      id: item.id,
      name: item.name,
      deleted: { state: 'deleted' },
      parentReference: { ...reference, id: item.parentId },
    };
  }
  const modified = latest?.modified ?? item.created;
  const author = authorOf(tenant, drive);
  const children = () => [...drive.items.values()].filter((c) => c.parentId === item.id && !c.deleted).length;
  return {
    ...(item.kind === 'file' && latest
      ? { '@microsoft.graph.downloadUrl': downloadUrl(context, tenant, drive, item, latest) }
      : {}),
    id: item.id,
    name: item.name,
    createdDateTime: item.created,
    lastModifiedDateTime: modified,
    cTag: `"c:{${item.id}},${item.versions.length}"`,
    eTag: `"{${item.id}},${item.versions.length}"`,
    size: item.kind === 'file' ? (latest?.size ?? 0) : folderSize(drive, item),
    webUrl: `https://${host(tenant)}/${drive.id}${item.kind === 'root' ? '' : pathOf(drive, item)}`,
    createdBy: author,
    lastModifiedBy: author,
    parentReference:
      item.kind === 'root'
        ? reference
        : {
            ...reference,
            id: item.parentId,
            name: parent?.kind === 'root' ? 'root' : (parent?.name ?? ''),
            path: `/drives/${drive.id}/root:${parentPath}`,
          },
    fileSystemInfo: { createdDateTime: item.created, lastModifiedDateTime: modified },
    ...(item.kind === 'root' ? { root: {}, folder: { childCount: children() } } : {}),
    ...(item.kind === 'folder' ? { folder: { childCount: children() } } : {}),
    ...(item.kind === 'file' && latest
      ? { file: { mimeType: mimeTypeOf(item.name), hashes: { quickXorHash: hashOf(tenant, latest) } } }
      : {}),
  };
}

/** A folder's size: what its live files below take (latest versions), as OneDrive reports it. */
function folderSize(drive: SimDrive, folder: SimItem) {
  let size = 0;
  for (const item of drive.items.values()) {
    if (item.deleted || item.kind !== 'file') continue;
    for (let p = drive.items.get(item.parentId); p; p = drive.items.get(p.parentId)) {
      if (p.id === folder.id) {
        size += item.versions[item.versions.length - 1]?.size ?? 0;
        break;
      }
      if (p.kind === 'root') break;
    }
  }
  return size;
}

const versionJson = (tenant: SimTenant, drive: SimDrive, item: SimItem) =>
  [...item.versions].reverse().map((v) => ({
    id: v.id,
    lastModifiedDateTime: v.modified,
    size: v.size,
    lastModifiedBy: authorOf(tenant, drive),
  }));

function findItem(drive: SimDrive, itemId: string) {
  const id = itemId === 'root' ? `${drive.id}-root` : itemId;
  const item = drive.items.get(id);
  return item && !item.deleted ? item : undefined;
}

const childNamed = (drive: SimDrive, parentId: string, name: string) =>
  [...drive.items.values()].find(
    (i) => i.parentId === parentId && !i.deleted && i.name.toLowerCase() === name.toLowerCase(),
  );

function freeName(drive: SimDrive, parentId: string, name: string) {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let n = 1;
  let candidate = name;
  while (childNamed(drive, parentId, candidate)) candidate = `${stem} ${n++}${ext}`;
  return candidate;
}

/** Creates or replaces a file under parent with the conflict behaviour of Graph. */
function writeFile(
  context: GraphContext,
  tenant: SimTenant,
  drive: SimDrive,
  parent: SimItem,
  rawName: string,
  bytes: Uint8Array,
  conflict: string,
): SimResponse {
  const existing = childNamed(drive, parent.id, rawName);
  tenant.clock += 1;
  const now = new Date().toISOString();
  if (existing && conflict === 'replace' && existing.kind === 'file') {
    const next = Number.parseInt(existing.versions[existing.versions.length - 1]?.id ?? '0', 10) + 1;
    existing.versions.push({
      id: `${next}.0`,
      size: bytes.length,
      modified: now,
      content: bytes,
      contentKey: `upload|${tenant.clock}`,
    });
    existing.changed = tenant.clock;
    return { status: 200, json: itemJson(context, tenant, drive, existing) };
  }
  if (existing && conflict !== 'rename') {
    return graphError(409, 'nameAlreadyExists', 'The specified item name already exists.');
  }
  const name = existing ? freeName(drive, parent.id, rawName) : rawName;
  const id = `${drive.id}-u${tenant.nextItem++}`;
  const item: SimItem = {
    id,
    driveId: drive.id,
    name,
    parentId: parent.id,
    kind: 'file',
    versions: [{ id: '1.0', size: bytes.length, modified: now, content: bytes, contentKey: `upload|${id}` }],
    created: now,
    changed: tenant.clock,
    deleted: false,
    permissions: [],
  };
  drive.items.set(id, item);
  return { status: 201, json: itemJson(context, tenant, drive, item) };
}

/** A route on one drive: an unknown drive answers 404. */
const onDrive = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, drive: SimDrive) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  route(
    method,
    patterns,
    (call) => {
      const drive = call.tenant.drives.get(call.params.drive ?? '');
      return drive ? handle(call, drive) : notFound('The drive was not found.');
    },
    options,
  );

/** A route on one live item of a drive (`root` names the root): unknown ones answer 404, forbidden ones 403. */
const onItem = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, drive: SimDrive, item: SimItem) => SimResponse,
  options: RouteOptions = {},
): GraphRoute[] =>
  onDrive(
    method,
    patterns,
    (call, drive) => {
      const item = findItem(drive, call.params.item ?? 'root');
      if (!item) return notFound();
      if (item.forbidden) return graphError(403, 'accessDenied', 'Access denied');
      return handle(call, drive, item);
    },
    options,
  );

/** Graph's largest page of drive items. */
const ITEMS = { max: 999 };

/** 302 to the version's download link, as Graph answers `/content`. */
const redirectTo = (url: string): SimResponse => ({ status: 302, headers: { location: url } });

export const driveRoutes: GraphRoute[] = [
  ...onDrive('GET', 'drives/:drive', ({ tenant }, drive) => ({ status: 200, json: driveJson(tenant, drive) })),
  ...onItem(
    'GET',
    ['drives/:drive/root/delta', 'drives/:drive/items/:item/delta'],
    ({ context, request, tenant }, drive) =>
      delta(context, request, tenant, {
        resource: `drive:${drive.id}`,
        style: 'drive',
        max: ITEMS.max,
        changes: (after) => [...drive.items.values()].filter((i) => i.changed > after && !(after < 0 && i.deleted)),
        map: (i) => itemJson(context, tenant, drive, i),
      }),
    // driveItem's delta has an overload taking the token: `delta(token='…')` is `delta?token=…`.
    { context: 'Collection(microsoft.graph.driveItem)', functionParameters: ['token'] },
  ),
  ...onItem('GET', ['drives/:drive/root', 'drives/:drive/items/:item'], ({ context, tenant }, drive, item) => ({
    status: 200,
    json: itemJson(context, tenant, drive, item),
  })),
  ...onItem(
    'GET',
    ['drives/:drive/root/children', 'drives/:drive/items/:item/children'],
    ({ context, request, tenant }, drive, item) =>
      page(
        context,
        request,
        [...drive.items.values()].filter((c) => c.parentId === item.id && !c.deleted),
        (c) => itemJson(context, tenant, drive, c),
        ITEMS,
      ),
  ),
  ...onItem(
    'POST',
    ['drives/:drive/root/children', 'drives/:drive/items/:item/children'],
    ({ context, request, tenant }, drive, item) => {
      const body = jsonBody<{ name: string; '@microsoft.graph.conflictBehavior': string }>(request);
      const name = body.name ?? '';
      if (!name) return graphError(400, 'invalidRequest', 'A name is required.');
      const existing = childNamed(drive, item.id, name);
      const conflict = body['@microsoft.graph.conflictBehavior'] ?? 'fail';
      if (existing && conflict === 'fail')
        return graphError(409, 'nameAlreadyExists', 'The specified item name already exists.');
      if (existing && conflict === 'replace' && existing.kind === 'folder')
        return { status: 200, json: itemJson(context, tenant, drive, existing) };
      tenant.clock += 1;
      const id = `${drive.id}-u${tenant.nextItem++}`;
      const folder: SimItem = {
        id,
        driveId: drive.id,
        name: existing ? freeName(drive, item.id, name) : name,
        parentId: item.id,
        kind: 'folder',
        versions: [],
        created: new Date().toISOString(),
        changed: tenant.clock,
        deleted: false,
        permissions: [],
      };
      drive.items.set(id, folder);
      return { status: 201, json: itemJson(context, tenant, drive, folder) };
    },
  ),
  ...onItem('GET', 'drives/:drive/items/:item/versions', ({ context, request, tenant }, drive, item) =>
    page(context, request, versionJson(tenant, drive, item), (v) => v, ITEMS),
  ),
  ...onItem('GET', 'drives/:drive/items/:item/versions/:version', ({ tenant, params }, drive, item) => {
    const version = versionJson(tenant, drive, item).find((v) => v.id === params.version);
    return version ? { status: 200, json: version } : notFound('The version was not found.');
  }),
  ...onItem('GET', 'drives/:drive/items/:item/permissions', ({ context, request, tenant }, drive, item) => {
    const owner = ownerOf(tenant, drive);
    const grants = [
      ...(owner
        ? [{ id: 'owner', roles: ['owner'], grantedToV2: { user: { id: owner.id, displayName: owner.displayName } } }]
        : []),
      ...item.permissions.map((p) => ({
        id: p.id,
        roles: p.roles,
        grantedToV2: {
          user: { id: p.userId, displayName: tenant.users.find((u) => u.id === p.userId)?.displayName ?? '' },
        },
      })),
    ];
    return page(context, request, grants, (g) => g, ITEMS);
  }),
  ...onItem(
    'POST',
    'drives/:drive/items/:item/invite',
    ({ request, tenant }, _drive, item) => {
      const body = jsonBody<{ recipients: { objectId?: string }[]; roles: string[] }>(request);
      const granted = [];
      for (const r of body.recipients ?? []) {
        const user = tenant.users.find((u) => u.id === r.objectId);
        if (!r.objectId || !user) return graphError(400, 'invalidRequest', 'Unknown recipient.');
        const permission = {
          id: `p-${randomBytes(6).toString('hex')}`,
          userId: r.objectId,
          roles: body.roles ?? ['read'],
        };
        item.permissions.push(permission);
        granted.push({
          id: permission.id,
          roles: permission.roles,
          grantedToV2: { user: { id: user.id, displayName: user.displayName } },
        });
      }
      return { status: 200, json: { value: granted } };
    },
    { context: 'Collection(microsoft.graph.permission)' },
  ),
  ...onItem(
    'GET',
    ['drives/:drive/items/:item/content', 'drives/:drive/items/:item/versions/:version/content'],
    ({ context, tenant, params }, drive, item) => {
      if (item.kind !== 'file') return graphError(404, 'itemNotFound', 'A folder has no content.');
      const version =
        params.version === undefined
          ? item.versions[item.versions.length - 1]
          : item.versions.find((v) => v.id === params.version);
      if (!version) return notFound('The version was not found.');
      return redirectTo(downloadUrl(context, tenant, drive, item, version));
    },
  ),
  ...onItem(
    'POST',
    'drives/:drive/items/:item/versions/:version/restoreVersion',
    ({ tenant, params }, _drive, item) => {
      const version = item.versions.find((v) => v.id === params.version);
      if (!version) return notFound('The version was not found.');
      const next = Number.parseInt(item.versions[item.versions.length - 1]?.id ?? '0', 10) + 1;
      tenant.clock += 1;
      item.versions.push({ ...version, id: `${next}.0`, modified: new Date().toISOString() });
      item.changed = tenant.clock;
      return { status: 204 };
    },
  ),
  ...onItem('DELETE', 'drives/:drive/items/:item/versions/:version', ({ params }, _drive, item) => {
    const index = item.versions.findIndex((v) => v.id === params.version);
    if (index < 0) return notFound('The version was not found.');
    if (index === item.versions.length - 1)
      return graphError(400, 'invalidRequest', 'The current version cannot be deleted.');
    item.versions.splice(index, 1);
    return { status: 204 };
  }),
];

/**
 * The folder at `names` below `base`, made where missing as OneDrive does when a file is uploaded to
 * a path (`root:/A/B/file.txt:/content` makes A and B); a file in the way answers 409.
 */
function folderAt(tenant: SimTenant, drive: SimDrive, base: SimItem, names: readonly string[]): SimItem | SimResponse {
  let parent = base;
  for (const name of names) {
    const existing = childNamed(drive, parent.id, name);
    if (existing && existing.kind !== 'folder')
      return graphError(409, 'nameAlreadyExists', `A file named '${name}' is in the way of the folder path.`);
    if (existing) {
      parent = existing;
      continue;
    }
    tenant.clock += 1;
    const id = `${drive.id}-u${tenant.nextItem++}`;
    const folder: SimItem = {
      id,
      driveId: drive.id,
      name,
      parentId: parent.id,
      kind: 'folder',
      versions: [],
      created: new Date().toISOString(),
      changed: tenant.clock,
      deleted: false,
      permissions: [],
    };
    drive.items.set(id, folder);
    parent = folder;
  }
  return parent;
}

const isResponse = (value: SimItem | SimResponse): value is SimResponse => 'status' in value;

/**
 * `/drives/{d}/root:/a/b` (an item by its path, with or without the closing colon, and its
 * `:/children` and `:/content`), and uploads to `/drives/{d}/root:/a/b/name:/content` or
 * `/drives/{d}/items/{parent}:/a/name:/content` (or `…:/createUploadSession`): the file goes into the
 * folder the path names, made if missing; undefined when the path has no colon. `context` in the
 * answer is its @odata.context.
 */
export function drivePathCall(
  request: SimRequest,
  tenant: SimTenant,
  path: string,
  context: GraphContext,
): (SimResponse & { context?: string }) | undefined {
  const colon = path.indexOf(':');
  if (colon < 0 || !path.startsWith('/drives/')) return undefined;
  const head = path.slice(0, colon).split('/').filter(Boolean);
  const rest = decodeURIComponent(path.slice(colon + 1));
  const driveId = decodeURIComponent(head[1] ?? '');
  const drive = tenant.drives.get(driveId);
  if (!drive) return notFound('The drive was not found.');
  const itemContext = `drives('${driveId.replace(/'/g, "''")}')/items/$entity`;
  const byRoot = head.length === 3 && head[2] === 'root';
  const byItem = head.length === 4 && head[2] === 'items';
  const base = byRoot
    ? findItem(drive, 'root')
    : byItem
      ? findItem(drive, decodeURIComponent(head[3] ?? ''))
      : undefined;
  if (!base) return notFound();
  const suffix = /:\/(content|children|createUploadSession)$/.exec(rest)?.[1];
  const names = (suffix ? rest.slice(0, -(suffix.length + 2)) : rest.replace(/:$/, '')).split('/').filter(Boolean);
  if (request.method === 'GET') {
    let current: SimItem | undefined = base;
    for (const name of names) current = current && childNamed(drive, current.id, name);
    if (!current) return notFound();
    if (suffix === 'content') {
      const latest = current.versions[current.versions.length - 1];
      if (current.kind !== 'file' || !latest) return graphError(404, 'itemNotFound', 'A folder has no content.');
      return redirectTo(downloadUrl(context, tenant, drive, current, latest));
    }
    if (suffix === 'children') {
      const parent = current;
      return {
        ...page(
          context,
          request,
          [...drive.items.values()].filter((c) => c.parentId === parent.id && !c.deleted),
          (c) => itemJson(context, tenant, drive, c),
          ITEMS,
        ),
        context: `drives('${driveId.replace(/'/g, "''")}')/items('${parent.id}')/children`,
      };
    }
    return suffix ? notFound() : { status: 200, json: itemJson(context, tenant, drive, current), context: itemContext };
  }
  const name = names[names.length - 1];
  if (!name) return graphError(400, 'invalidRequest', 'The path names no file.');
  const conflict = request.query.get('@microsoft.graph.conflictBehavior') ?? 'replace';
  if (request.method === 'PUT' && suffix === 'content') {
    const folder = folderAt(tenant, drive, base, names.slice(0, -1));
    if (isResponse(folder)) return folder;
    return {
      ...writeFile(context, tenant, drive, folder, name, new Uint8Array(request.body), conflict),
      context: itemContext,
    };
  }
  if (request.method === 'POST' && suffix === 'createUploadSession') {
    const body = jsonBody<{ item: { '@microsoft.graph.conflictBehavior'?: string } }>(request);
    const id = randomBytes(12).toString('hex');
    // The folders of the path are made when the last fragment arrives, as the file is.
    context.sessions.set(id, {
      driveId: drive.id,
      parentId: base.id,
      folders: names.slice(0, -1),
      name,
      conflict: body.item?.['@microsoft.graph.conflictBehavior'] ?? 'replace',
      size: 0,
      chunks: [],
      received: 0,
    });
    return {
      status: 200,
      json: {
        uploadUrl: `${context.baseUrl()}/upload/${tenant.tenantId}/${id}`,
        expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
        nextExpectedRanges: ['0-'],
      },
      context: 'microsoft.graph.uploadSession',
    };
  }
  return notFound();
}

/** A fragment written into an upload session; the last one creates or replaces the file. */
export function uploadFragment(request: SimRequest, tenant: SimTenant, id: string, context: GraphContext): SimResponse {
  const session = context.sessions.get(id);
  if (!session || request.method !== 'PUT') return notFound('The upload session was not found.');
  const range = /bytes (\d+)-(\d+)\/(\d+)/.exec(request.headers['content-range'] ?? '');
  if (!range) return graphError(400, 'invalidRange', 'A Content-Range header is required.');
  const [, start, end, total] = range.map(Number);
  if (start !== session.received || (end ?? 0) - (start ?? 0) + 1 !== request.body.length) {
    return graphError(416, 'invalidRange', 'The fragment does not follow the bytes received.');
  }
  session.chunks.push(request.body);
  session.received += request.body.length;
  if (session.received < (total ?? 0)) {
    return {
      status: 202,
      json: {
        expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
        nextExpectedRanges: [`${session.received}-`],
      },
    };
  }
  context.sessions.delete(id);
  const drive = tenant.drives.get(session.driveId);
  const base = drive && findItem(drive, session.parentId);
  if (!drive || !base) return notFound();
  const parent = folderAt(tenant, drive, base, session.folders);
  if (isResponse(parent)) return parent;
  return writeFile(
    context,
    tenant,
    drive,
    parent,
    session.name,
    new Uint8Array(Buffer.concat(session.chunks)),
    session.conflict,
  );
}
