/**
 * The file manager: a site's libraries or a OneDrive, folders and files read live from Microsoft 365;
 * a file's versions with those a clean-up rule removes; what a clean-up of chosen files and folders
 * would remove and free. Nodes are `root`, `drive:{driveId}` or `{driveId}:{itemId}`; a clean-up job
 * takes `{driveId}:{path}`.
 */
import type {
  BrowseRequest,
  BrowseResult,
  CleanupPreview,
  CleanupPreviewRequest,
  DataManagementApplication,
  FileNode,
  FileVersion,
  VersionsRequest,
} from '@compliance-portal/sdk';
import type { DriveItem, DriveItemVersion } from '@microsoft/microsoft-graph-types';
import type { Queryable } from '../../db/database.js';
import { badRequest, notFound } from '../../errors.js';
import { itemPath } from '../../jobs/executors/backup.js';
import { eligibleVersions, monthlySaving } from '../../jobs/executors/version-cleanup.js';
import { forEachLimit } from '../../jobs/pool.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { storagePrice } from './repository.js';

/** Graph calls at once for one request (each file's versions is a call). */
const CONCURRENCY = 4;
/** Most files a preview reads, so one request stays bounded. */
const MAX_PREVIEW_FILES = 20_000;

type Source = { application: DataManagementApplication; sourceId: string };

/** The drives (document libraries, or the OneDrive) of a site or an account. */
async function drivesOf(graph: GraphApi, source: Source) {
  if (source.application === 'onedrive') return [await graph.userDrive(source.sourceId)];
  const drives = [];
  for await (const d of graph.siteDrives(source.sourceId)) drives.push(d);
  return drives;
}

/** `{driveId}:{rest}` split at the first colon after the drive id (drive ids hold no colon). */
function splitNode(nodeId: string): { driveId: string; rest: string } {
  const at = nodeId.indexOf(':');
  if (at <= 0) throw badRequest('Invalid request', { nodeId: ['Expected {driveId}:{itemId}.'] });
  return { driveId: nodeId.slice(0, at), rest: nodeId.slice(at + 1) };
}

async function requireDrive(graph: GraphApi, source: Source, driveId: string) {
  const drives = await drivesOf(graph, source);
  if (!drives.some((d) => d.id === driveId)) throw notFound('Folder not found');
}

const versionBytes = (versions: readonly DriveItemVersion[]) =>
  versions.reduce((sum, v) => sum + Number(v.size ?? 0), 0);

async function allVersions(graph: GraphApi, driveId: string, itemId: string) {
  const versions: DriveItemVersion[] = [];
  for await (const v of graph.itemVersions(driveId, itemId)) versions.push(v);
  return versions;
}

function nodeOf(driveId: string, item: DriveItem): FileNode {
  return {
    nodeId: `${driveId}:${item.id ?? ''}`,
    kind: item.folder ? 'folder' : 'file',
    name: item.name ?? '',
    path: `${driveId}:${itemPath(item)}`,
    sizeBytes: Number(item.size ?? 0),
    modified: item.lastModifiedDateTime ?? null,
    versions: null,
    eligibleVersions: null,
    reclaimableBytes: null,
  };
}

export async function browse(graph: GraphApi, body: BrowseRequest): Promise<BrowseResult> {
  const page = body.page ?? 1;
  const pageSize = body.pageSize ?? 50;
  let nodes: FileNode[];
  if (body.nodeId === 'root' && body.application === 'sharepoint') {
    nodes = (await drivesOf(graph, body)).map((d) => ({
      nodeId: `drive:${d.id ?? ''}`,
      kind: 'library',
      name: d.name ?? 'Documents',
      path: `${d.id ?? ''}:/`,
      sizeBytes: Number(d.quota?.used ?? 0),
      modified: d.lastModifiedDateTime ?? null,
      versions: null,
      eligibleVersions: null,
      reclaimableBytes: null,
    }));
  } else {
    let driveId: string;
    let itemId = 'root';
    if (body.nodeId === 'root') driveId = (await graph.userDrive(body.sourceId)).id ?? '';
    else if (body.nodeId.startsWith('drive:')) driveId = body.nodeId.slice('drive:'.length);
    else ({ driveId, rest: itemId } = splitNode(body.nodeId));
    await requireDrive(graph, body, driveId);
    const children: DriveItem[] = [];
    for await (const child of graph.children(driveId, itemId)) children.push(child);
    nodes = children
      .sort((a, b) => Number(!a.folder) - Number(!b.folder) || (a.name ?? '').localeCompare(b.name ?? ''))
      .map((child) => nodeOf(driveId, child));
  }
  const items = nodes.slice((page - 1) * pageSize, page * pageSize);
  // Versions only for the files shown: one Graph call each.
  await forEachLimit(
    items.filter((n) => n.kind === 'file'),
    CONCURRENCY,
    async (node) => {
      const { driveId, rest } = splitNode(node.nodeId);
      const versions = await allVersions(graph, driveId, rest);
      const eligible = eligibleVersions(versions, body.rule);
      node.versions = versions.length;
      node.eligibleVersions = eligible.length;
      node.reclaimableBytes = versionBytes(eligible);
    },
  );
  return { items, total: nodes.length, page, pageSize };
}

export async function fileVersions(graph: GraphApi, body: VersionsRequest): Promise<FileVersion[]> {
  const { driveId, rest } = splitNode(body.nodeId);
  await requireDrive(graph, body, driveId);
  const versions = await allVersions(graph, driveId, rest);
  const eligible = new Set(eligibleVersions(versions, body.rule).map((v) => v.id));
  return versions.map((v, i) => ({
    versionId: v.id ?? '',
    modified: v.lastModifiedDateTime ?? null,
    sizeBytes: Number(v.size ?? 0),
    current: i === 0,
    eligible: eligible.has(v.id),
  }));
}

/** Every file at or below the chosen paths, once each (a path inside another counts once). */
async function filesAt(graph: GraphApi, paths: readonly string[]) {
  const files = new Map<string, { driveId: string; item: DriveItem }>();
  const folders: { driveId: string; itemId: string }[] = [];
  for (const entry of paths) {
    const { driveId, rest } = splitNode(entry);
    const path = rest.replace(/\/+$/, '');
    const item = path === '' ? await graph.item(driveId, 'root') : await graph.itemByPath(driveId, path);
    if (!item) throw notFound(`Nothing is at ${rest}.`);
    if (item.folder || path === '') folders.push({ driveId, itemId: item.id ?? '' });
    else files.set(`${driveId}:${item.id ?? ''}`, { driveId, item });
  }
  const seen = new Set<string>();
  while (folders.length > 0) {
    const folder = folders.pop();
    if (!folder || seen.has(`${folder.driveId}:${folder.itemId}`)) continue;
    seen.add(`${folder.driveId}:${folder.itemId}`);
    for await (const child of graph.children(folder.driveId, folder.itemId)) {
      if (child.folder) folders.push({ driveId: folder.driveId, itemId: child.id ?? '' });
      else if (child.file) files.set(`${folder.driveId}:${child.id ?? ''}`, { driveId: folder.driveId, item: child });
      if (files.size > MAX_PREVIEW_FILES)
        throw badRequest(`A clean-up preview reads at most ${MAX_PREVIEW_FILES} files; choose fewer folders.`);
    }
  }
  return [...files.values()];
}

/** What removing the versions `rule` makes eligible in the chosen files and folders frees. */
export async function cleanupPreview(
  db: Queryable,
  graph: GraphApi,
  tenantId: string,
  body: CleanupPreviewRequest,
): Promise<CleanupPreview> {
  const drives = new Set((await drivesOf(graph, body)).map((d) => d.id));
  for (const p of body.paths)
    if (!drives.has(splitNode(p).driveId)) throw notFound(`${p} is not in this site or OneDrive.`);
  const files = await filesAt(graph, body.paths);
  let versions = 0;
  let eligible = 0;
  let bytes = 0;
  await forEachLimit(files, CONCURRENCY, async ({ driveId, item }) => {
    const all = await allVersions(graph, driveId, item.id ?? '');
    const chosen = eligibleVersions(all, body.rule);
    versions += all.length;
    eligible += chosen.length;
    bytes += versionBytes(chosen);
  });
  const price = await storagePrice(db, tenantId);
  const pricePerGbMonth = Number(price?.price_per_gb_month ?? 0);
  return {
    files: files.length,
    versions,
    eligibleVersions: eligible,
    reclaimableBytes: bytes,
    pricePerGbMonth,
    currency: price?.currency ?? 'EUR',
    monthlySaving: monthlySaving(bytes, pricePerGbMonth),
  };
}
