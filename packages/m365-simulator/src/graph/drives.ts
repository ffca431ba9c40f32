/**
 * Drives: items, children, delta, versions, content, permissions, and the writes restores and
 * clean-ups make (uploads, upload sessions, folders, version restore and removal). Paths with a colon
 * (`root:/a/b`, `items/{parent}:/{name}:/content`) address an item by its path.
 */
import { randomBytes } from 'node:crypto';
import { pathOf, type SimDrive, type SimItem, type SimTenant, versionBytes } from '../model.js';
import { delta, graphError, jsonBody, notFound, page, type SimRequest, type SimResponse } from './odata.js';
import { type GraphCall, type GraphContext, type GraphRoute, route } from './router.js';

export function itemJson(tenant: SimTenant, drive: SimDrive, item: SimItem) {
  const latest = item.versions[item.versions.length - 1];
  const parent = drive.items.get(item.parentId);
  const parentPath = parent ? (parent.kind === 'root' ? '' : pathOf(drive, parent)) : '';
  if (item.deleted) return { id: item.id, deleted: { state: 'deleted' }, parentReference: { driveId: drive.id } };
  return {
    id: item.id,
    name: item.name,
    createdDateTime: item.created,
    lastModifiedDateTime: latest?.modified ?? item.created,
    cTag: `"c:{${item.id}},${item.versions.length}"`,
    eTag: `"{${item.id}},${item.versions.length}"`,
    size: latest?.size ?? 0,
    webUrl: `https://${tenant.domain.split('.')[0]}.sharepoint.com/${drive.id}${pathOf(drive, item)}`,
    parentReference:
      item.kind === 'root'
        ? { driveId: drive.id }
        : { driveId: drive.id, id: item.parentId, path: `/drives/${drive.id}/root:${parentPath}` },
    ...(item.kind === 'root' ? { root: {}, folder: { childCount: 0 } } : {}),
    ...(item.kind === 'folder'
      ? {
          folder: {
            childCount: [...drive.items.values()].filter((c) => c.parentId === item.id && !c.deleted).length,
          },
        }
      : {}),
    ...(item.kind === 'file' ? { file: { mimeType: 'application/octet-stream' } } : {}),
  };
}

const versionJson = (item: SimItem) =>
  [...item.versions].reverse().map((v) => ({ id: v.id, size: v.size, lastModifiedDateTime: v.modified }));

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
export function writeFile(
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
    return { status: 200, json: itemJson(tenant, drive, existing) };
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
  return { status: 201, json: itemJson(tenant, drive, item) };
}

/** A route on one live item of a drive: unknown drives and items answer 404, forbidden ones 403. */
const onItem = (
  method: string,
  patterns: string | string[],
  handle: (call: GraphCall, drive: SimDrive, item: SimItem) => SimResponse,
): GraphRoute[] =>
  route(method, patterns, (call) => {
    const drive = call.tenant.drives.get(call.params.drive ?? '');
    const item = drive && findItem(drive, call.params.item ?? '');
    if (!drive || !item) return notFound();
    if (item.forbidden) return graphError(403, 'accessDenied', 'Access denied');
    return handle(call, drive, item);
  });

export const driveRoutes: GraphRoute[] = [
  ...route('GET', 'drives/:drive/root/delta', ({ context, request, tenant, params }) => {
    const drive = tenant.drives.get(params.drive ?? '');
    if (!drive) return notFound();
    return delta(
      context,
      request,
      tenant,
      (after) => [...drive.items.values()].filter((i) => i.changed > after && !(after < 0 && i.deleted)),
      (i) => itemJson(tenant, drive, i),
    );
  }),
  ...onItem('GET', 'drives/:drive/items/:item', ({ tenant }, drive, item) => ({
    status: 200,
    json: itemJson(tenant, drive, item),
  })),
  ...onItem('GET', 'drives/:drive/items/:item/children', ({ context, request, tenant }, drive, item) =>
    page(
      context,
      request,
      [...drive.items.values()].filter((c) => c.parentId === item.id && !c.deleted),
      (c) => itemJson(tenant, drive, c),
    ),
  ),
  ...onItem('POST', 'drives/:drive/items/:item/children', ({ request, tenant }, drive, item) => {
    const body = jsonBody<{ name: string; '@microsoft.graph.conflictBehavior': string }>(request);
    const name = body.name ?? '';
    const existing = childNamed(drive, item.id, name);
    const conflict = body['@microsoft.graph.conflictBehavior'] ?? 'fail';
    if (existing && conflict === 'fail')
      return graphError(409, 'nameAlreadyExists', 'The specified item name already exists.');
    if (existing && conflict === 'replace' && existing.kind === 'folder')
      return { status: 200, json: itemJson(tenant, drive, existing) };
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
    return { status: 201, json: itemJson(tenant, drive, folder) };
  }),
  ...onItem('GET', 'drives/:drive/items/:item/versions', ({ context, request }, _drive, item) =>
    page(context, request, versionJson(item), (v) => v),
  ),
  ...onItem('GET', 'drives/:drive/items/:item/permissions', ({ context, request, tenant }, drive, item) => {
    const owner = tenant.users.find((u) => u.driveId === drive.id);
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
    return page(context, request, grants, (g) => g);
  }),
  ...onItem('POST', 'drives/:drive/items/:item/invite', ({ request, tenant }, _drive, item) => {
    const body = jsonBody<{ recipients: { objectId?: string }[]; roles: string[] }>(request);
    const granted = [];
    for (const r of body.recipients ?? []) {
      if (!r.objectId || !tenant.users.some((u) => u.id === r.objectId))
        return graphError(400, 'invalidRequest', 'Unknown recipient.');
      const permission = {
        id: `p-${randomBytes(6).toString('hex')}`,
        userId: r.objectId,
        roles: body.roles ?? ['read'],
      };
      item.permissions.push(permission);
      granted.push({ id: permission.id, roles: permission.roles });
    }
    return { status: 200, json: { value: granted } };
  }),
  ...onItem(
    'GET',
    ['drives/:drive/items/:item/content', 'drives/:drive/items/:item/versions/:version/content'],
    ({ tenant, params }, _drive, item) => {
      const version =
        params.version === undefined
          ? item.versions[item.versions.length - 1]
          : item.versions.find((v) => v.id === params.version);
      if (!version) return notFound('The version was not found.');
      return {
        status: 200,
        headers: { 'content-type': 'application/octet-stream' },
        bytes: versionBytes(tenant.tenantId, version),
      };
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
 * `/drives/{d}/root:/a/b` (an item by its path), and uploads to `/drives/{d}/items/{parent}:/{name}:/content`
 * or `…:/createUploadSession`; undefined when the path has no colon.
 */
export function drivePathCall(
  request: SimRequest,
  tenant: SimTenant,
  path: string,
  context: GraphContext,
): SimResponse | undefined {
  const colon = path.indexOf(':');
  if (colon < 0 || !path.startsWith('/drives/')) return undefined;
  const head = path.slice(0, colon).split('/').filter(Boolean);
  const rest = decodeURIComponent(path.slice(colon + 1));
  const drive = tenant.drives.get(decodeURIComponent(head[1] ?? ''));
  if (!drive) return notFound();
  if (request.method === 'GET' && head.length === 3 && head[2] === 'root') {
    let current = findItem(drive, 'root');
    for (const name of rest.split('/').filter(Boolean)) current = current && childNamed(drive, current.id, name);
    return current ? { status: 200, json: itemJson(tenant, drive, current) } : notFound();
  }
  const parent = findItem(drive, decodeURIComponent(head[3] ?? ''));
  if (!parent) return notFound();
  const name = rest.replace(/^\//, '').replace(/:\/(content|createUploadSession)$/, '');
  const conflict = request.query.get('@microsoft.graph.conflictBehavior') ?? 'replace';
  if (request.method === 'PUT' && rest.endsWith(':/content'))
    return writeFile(tenant, drive, parent, name, new Uint8Array(request.body), conflict);
  if (request.method === 'POST' && rest.endsWith(':/createUploadSession')) {
    const body = jsonBody<{ item: { '@microsoft.graph.conflictBehavior'?: string } }>(request);
    const id = randomBytes(12).toString('hex');
    context.sessions.set(id, {
      driveId: drive.id,
      parentId: parent.id,
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
      },
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
    return { status: 202, json: { nextExpectedRanges: [`${session.received}-`] } };
  }
  context.sessions.delete(id);
  const drive = tenant.drives.get(session.driveId);
  const parent = drive && findItem(drive, session.parentId);
  if (!drive || !parent) return notFound();
  return writeFile(
    tenant,
    drive,
    parent,
    session.name,
    new Uint8Array(Buffer.concat(session.chunks)),
    session.conflict,
  );
}
