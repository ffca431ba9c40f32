/**
 * Backup of OneDrive accounts and SharePoint sites: every drive is read with a delta query, so the
 * first run reads everything and later runs only what changed since the stored delta link. Every
 * version of every file is kept (content in the blob store, deduplicated by hash); folders keep the
 * tree; deletions close the item's rows so earlier snapshots still have it.
 */

import type { DriveItem } from '@microsoft/microsoft-graph-types';
import type { GraphApi } from '../../m365/graph-api.js';
import { quickXorHash } from '../../m365/quickxorhash.js';
import { counted } from '../../words.js';
import { forEachLimit, readAhead } from '../pool.js';
import type { WorkPart } from '../progress.js';
import { includes } from '../repository.js';
import type { Executor, RunContext } from '../run-context.js';
import {
  type BackupItemInput,
  finishFile,
  markDeleted,
  putItem,
  putItems,
  storedVersions,
  storedVersionsOf,
} from './backup-store.js';
import type { DataPlane } from './plane.js';
import { backupSiteContent } from './site-content.js';
import { forEachChannelMessage } from './teams.js';

/**
 * Parallel items per drive: more than a tenant's bound on Graph requests in flight (its client keeps
 * to that bound), so that the next requests are queued while other items are hashed and stored.
 */
const ITEM_CONCURRENCY = 24;

interface DriveRef {
  sourceId: string;
  driveId: string;
  name: string;
  label: string;
  /** The bytes Graph says the drive takes (its quota's `used`): its weight in the run's progress. */
  used: number;
}

/** "/drives/x/root:/Documents/a" → "/Documents/a". */
export function itemPath(item: DriveItem): string {
  const parent = item.parentReference?.path ?? '';
  const at = parent.indexOf(':');
  const folder = at >= 0 ? parent.slice(at + 1) : '';
  return `${folder}/${item.name ?? ''}`.replace(/\/+/g, '/');
}

async function drivesOf(rc: RunContext, graph: GraphApi, source: string): Promise<DriveRef[]> {
  if (rc.job.application === 'onedrive') {
    const drive = await graph.userDrive(source);
    return [
      {
        sourceId: source,
        driveId: drive.id ?? '',
        name: drive.name ?? 'OneDrive',
        label: source,
        used: Number(drive.quota?.used ?? 0),
      },
    ];
  }
  const drives: DriveRef[] = [];
  for await (const drive of graph.siteDrives(source)) {
    drives.push({
      sourceId: source,
      driveId: drive.id ?? '',
      name: drive.name ?? 'Documents',
      label: `${source} ${drive.name ?? ''}`.trim(),
      used: Number(drive.quota?.used ?? 0),
    });
  }
  return drives;
}

/** Downloaded bytes that are not what Graph says the file holds: retried, then an item failure. */
class ContentHashMismatch extends Error {
  readonly code = 'quickXorHashMismatch';
  readonly permanent = false;
  constructor(expected: string, actual: string) {
    super(`Downloaded content does not match its quickXorHash (expected ${expected}, got ${actual}).`);
    this.name = 'ContentHashMismatch';
  }
}

/**
 * Checks the current content against the item's `file.hashes.quickXorHash` (Graph gives it for
 * OneDrive and SharePoint files; not for versions). A file changed since it was listed has a new
 * hash: the item is read again before the content counts as corrupt.
 */
async function verifyContent(graph: GraphApi, driveId: string, item: DriveItem, content: Uint8Array) {
  const listed = item.file?.hashes?.quickXorHash;
  if (!listed) return;
  const actual = quickXorHash(content);
  if (actual === listed) return;
  const current = (await graph.item(driveId, item.id ?? '')).file?.hashes?.quickXorHash;
  if (current && current === actual) return;
  throw new ContentHashMismatch(current ?? listed, actual);
}

/**
 * Backs up a file's versions not stored yet; answers the bytes of the versions this run stores. A
 * version this run stored before an interruption or a failed attempt (its `first_seq` is this run's)
 * counts too, once (`counted` holds the drive's versions counted by this worker), so a resumed run
 * reports what an uninterrupted one does.
 */
async function backupFile(
  rc: RunContext,
  plane: DataPlane,
  graph: GraphApi,
  drive: DriveRef,
  item: DriveItem,
  seq: number,
  counted: Set<string>,
  prefetched: { stored?: Awaited<ReturnType<typeof storedVersions>> },
) {
  const itemId = item.id ?? '';
  // The page's read of the stored versions serves the first attempt; a retry reads them again.
  const stored = prefetched.stored ?? (await storedVersions(rc.ctx.db, rc.job.jobId, drive.sourceId, itemId));
  delete prefetched.stored;
  const path = itemPath(item);
  const versions = [];
  for await (const version of graph.itemVersions(drive.driveId, itemId)) versions.push(version);
  // Newest first, as Graph lists them; the first is the current version.
  const latest = versions[0]?.id ?? item.cTag ?? 'current';
  if (versions.length === 0)
    versions.push({ id: latest, size: item.size ?? 0, lastModifiedDateTime: item.lastModifiedDateTime });
  let bytes = 0;
  // Counted once the file is done: an attempt that fails midway is retried and counts again.
  const mine: string[] = [];
  // The new versions' rows, written together once the file is done.
  const rows: BackupItemInput[] = [];
  for (const [index, version] of versions.entries()) {
    const versionId = version.id ?? '';
    const key = `${itemId}/${versionId}`;
    const before = stored.get(versionId);
    if (before) {
      if (before.first_seq === seq && !counted.has(key)) {
        mine.push(key);
        bytes += before.size;
      }
      continue;
    }
    rc.checkStopped();
    const content = await graph.itemContent(drive.driveId, itemId, index === 0 ? undefined : versionId);
    if (index === 0) await verifyContent(graph, drive.driveId, item, content);
    const blob = await plane.blobs.put(content);
    mine.push(key);
    bytes += blob.size;
    rows.push({
      jobId: rc.job.jobId,
      sourceId: drive.sourceId,
      itemId,
      versionId,
      driveId: drive.driveId,
      kind: 'file',
      name: item.name ?? '',
      path,
      parentId: item.parentReference?.id ?? null,
      size: blob.size,
      hash: blob.hash,
      modifiedAt: version.lastModifiedDateTime ? new Date(version.lastModifiedDateTime) : null,
      isLatest: index === 0,
      seq,
      metadata: { storedSize: blob.storedSize, newBlob: blob.isNew },
    });
  }
  await putItems(rc.ctx.db, rows);
  // Direct grants (not the owner's, not inherited from a folder) go back with a restore.
  const grants = [];
  for await (const permission of graph.itemPermissions(drive.driveId, itemId)) {
    const userId = permission.grantedToV2?.user?.id;
    const roles = (permission.roles ?? []).filter((r) => r !== 'owner');
    if (userId && roles.length > 0 && !permission.inheritedFrom) grants.push({ userId, roles });
  }
  await finishFile(rc.ctx.db, {
    jobId: rc.job.jobId,
    sourceId: drive.sourceId,
    itemId,
    latest,
    name: item.name ?? '',
    path,
    parentId: item.parentReference?.id ?? null,
    permissions: grants,
  });
  for (const key of mine) counted.add(key);
  return bytes;
}

/** Backs up one drive; `part` is its share of the run's work, listed page by page and complete at its end. */
async function backupDrive(rc: RunContext, plane: DataPlane, graph: GraphApi, drive: DriveRef, part: WorkPart) {
  const key = `${drive.sourceId}:${drive.driveId}`;
  // The library's name, for browsing a site's snapshot by library.
  await rc.ctx.db.query(
    `insert into backup_drives (job_id, source_id, drive_id, name) values ($1, $2, $3, $4)
     on conflict (job_id, source_id, drive_id) do update set name = excluded.name`,
    [rc.job.jobId, drive.sourceId, drive.driveId, drive.name],
  );
  const seq = Number(rc.run.seq);
  const counted = { done: 0, bytes: 0 };
  const countedVersions = new Set<string>();
  const pages = graph.driveDelta(drive.driveId, await rc.deltaLink(key));
  // After a resync the pages hold the whole drive: what they do not hold was deleted meanwhile.
  let seen = new Set<string>();
  let resynced = false;
  let readAgain = false;
  for await (const page of readAhead(pages)) {
    rc.checkStopped();
    if (pages.resynced() && !resynced) {
      resynced = true;
      seen = new Set();
    }
    for (const item of page) if (!item.deleted && item.id) seen.add(item.id);
    rc.progress({
      total: page.filter((i) => i.file || i.deleted).length,
      source: drive.sourceId,
      part,
      more: page.length,
    });
    // Folders keep the tree: written together, one statement for the page.
    await putItems(
      rc.ctx.db,
      page
        .filter((item) => item.folder && !item.deleted && !item.root)
        .map((item) => ({
          jobId: rc.job.jobId,
          sourceId: drive.sourceId,
          itemId: item.id ?? '',
          versionId: '',
          driveId: drive.driveId,
          kind: 'folder' as const,
          name: item.name ?? '',
          path: itemPath(item),
          parentId: item.parentReference?.id ?? null,
          size: 0,
          hash: null,
          modifiedAt: item.lastModifiedDateTime ? new Date(item.lastModifiedDateTime) : null,
          isLatest: true,
          seq,
        })),
    );
    const stored = await storedVersionsOf(
      rc.ctx.db,
      rc.job.jobId,
      drive.sourceId,
      page.filter((item) => item.file && !item.deleted).map((item) => item.id ?? ''),
    );
    await forEachLimit(page, ITEM_CONCURRENCY, async (item) => {
      const itemId = item.id ?? '';
      const itemKey = `${drive.driveId}/${itemId}`;
      if (item.deleted) {
        await markDeleted(rc.ctx.db, rc.job.jobId, drive.sourceId, itemId, seq);
        counted.done += 1;
        rc.progress({ done: 1, source: drive.sourceId, part });
        return;
      }
      if (item.root || item.folder) return;
      if (!item.file) return;
      if (await rc.isKnownFailure(itemKey)) {
        // Skipped, not changed: its share of the work is done, but it is not an item of the run.
        part.finish(1);
        rc.progress({ source: drive.sourceId });
        return;
      }
      // The item's own name: its source (an account's or site's id) is named beside it in the report.
      const ref = { key: itemKey, name: `${drive.name}${itemPath(item)}`, source: drive.sourceId, part };
      const prefetched = { stored: stored.get(itemId) ?? new Map() };
      const result = await rc.item(ref, () =>
        backupFile(rc, plane, graph, drive, item, seq, countedVersions, prefetched),
      );
      if (result.ok) {
        counted.done += 1;
        counted.bytes += result.value;
        rc.progress({ done: 1, bytes: result.value, source: drive.sourceId, part });
      } else if (!result.permanent) {
        readAgain = true;
      }
    });
  }
  if (resynced) {
    const live = await rc.ctx.db.query<{ item_id: string }>(
      `select distinct item_id from backup_items
        where job_id = $1 and source_id = $2 and drive_id = $3 and deleted_seq is null`,
      [rc.job.jobId, drive.sourceId, drive.driveId],
    );
    for (const { item_id } of live) {
      if (!seen.has(item_id)) await markDeleted(rc.ctx.db, rc.job.jobId, drive.sourceId, item_id, seq);
    }
  }
  // Saved only after the last page, and only when no file failed for a reason that may pass (a
  // store or Graph away): a run stopped midway, or one with such a failure, leaves the next to read
  // the same changes again, and the versions stored meanwhile are not fetched twice.
  const link = pages.deltaLink();
  if (link && !readAgain) await rc.saveDeltaLink(key, link);
  part.end();
  return { ...counted, resynced };
}

export function backupExecutor(server: DataPlane): Executor {
  return async (rc) => {
    // Versions go to the job's storage location (see jobs' location rule: it stays while they are there).
    const plane = await server.at(rc.job.locationId, rc.tenant.organisationId);
    if (rc.job.application === 'teams') return teamsBackup(rc, plane);
    const graph = await plane.graph(rc.tenant);
    const finished = new Set((rc.checkpoint.drives as string[] | undefined) ?? []);
    // A resumed run reports again what the drives it finished before the interruption did.
    const counts = (rc.checkpoint.counts as Record<string, { done: number; bytes: number }> | undefined) ?? {};
    const resynced = (rc.checkpoint.resynced as string[] | undefined) ?? [];
    // Sites whose lists and pages are done (their counts are in the run's row already).
    const contents = new Set((rc.checkpoint.contents as string[] | undefined) ?? []);
    const listsResynced = (rc.checkpoint.listsResynced as string[] | undefined) ?? [];
    for (const [source, c] of Object.entries(counts))
      rc.progress({ total: c.done, done: c.done, bytes: c.bytes, source });
    // What a site backup covers of each site: everything, unless it chose.
    const sharepoint = rc.job.application === 'sharepoint';
    const withLibraries = !sharepoint || includes(rc.job, 'libraries');
    const withContent = sharepoint && (includes(rc.job, 'lists') || includes(rc.job, 'pages'));
    // Each account or site an equal part of the run's work, its drives parts of that by the bytes they take.
    const parts = rc.work.split(rc.job.sources.length);
    for (const [index, source] of rc.job.sources.entries()) {
      rc.checkStopped();
      const part = parts[index] as WorkPart;
      if (await rc.isKnownFailure(`source:${source}`)) {
        part.end();
        continue;
      }
      // A site backup without its libraries reads no drive.
      const drives = withLibraries
        ? await rc.item({ key: `source:${source}`, name: source, source, wholeSource: true, part }, () =>
            drivesOf(rc, graph, source),
          )
        : { ok: true as const, value: [] };
      if (!drives.ok) continue;
      // A site's lists and pages come after its libraries, a part of its work beside theirs.
      const weights = drives.value.map((d) => 1 + d.used);
      const allParts = part.split(withContent ? [...weights, 1 + weights.length] : weights);
      const driveParts = allParts.slice(0, weights.length);
      for (const [at, drive] of drives.value.entries()) {
        const key = `${drive.sourceId}:${drive.driveId}`;
        const drivePart = driveParts[at] as WorkPart;
        if (finished.has(key)) {
          drivePart.end();
          continue;
        }
        const done = await backupDrive(rc, plane, graph, drive, drivePart);
        finished.add(key);
        if (done.resynced) resynced.push(drive.label);
        const before = counts[drive.sourceId] ?? { done: 0, bytes: 0 };
        counts[drive.sourceId] = { done: before.done + done.done, bytes: before.bytes + done.bytes };
        await rc.saveCheckpoint({ drives: [...finished], counts, resynced, contents: [...contents], listsResynced });
      }
      const contentPart = allParts[weights.length];
      if (!contentPart) continue;
      if (contents.has(source)) {
        contentPart.end();
        continue;
      }
      const content = await rc.item(
        { key: `content:${source}`, name: `${source} lists and pages`, source, part: contentPart },
        () => backupSiteContent(rc, graph, source, contentPart),
      );
      if (content.ok) listsResynced.push(...content.value.resynced);
      contents.add(source);
      await rc.saveCheckpoint({ drives: [...finished], counts, resynced, contents: [...contents], listsResynced });
    }
    const said = [
      ...(resynced.length > 0 ? [resyncMessage(resynced, 'drive')] : []),
      ...(listsResynced.length > 0 ? [resyncMessage(listsResynced, 'list')] : []),
    ];
    return said.length > 0 ? { message: said.join(' ') } : {};
  };
}

/**
 * What a run says when Graph refused stored delta links (410 Gone) and sources were read in full:
 * nothing was stored twice, and the next run reads changes again.
 */
export function resyncMessage(sources: readonly string[], noun: 'drive' | 'list' | 'mail folder'): string {
  const shown = sources.slice(0, 5).join(', ');
  const more = sources.length > 5 ? ` and ${sources.length - 5} more` : '';
  return (
    `Microsoft Graph no longer accepted the change token of ${counted(sources.length, noun)} (${shown}${more}); ` +
    `${sources.length === 1 ? 'it was' : 'they were'} read again in full, without storing any item twice.`
  );
}

/** Teams: every channel's messages and replies, kept as JSON (messages are not files of a drive). */
async function teamsBackup(rc: RunContext, plane: DataPlane) {
  const graph = await plane.graph(rc.tenant);
  const seq = Number(rc.run.seq);
  await forEachChannelMessage(rc, graph, async (teamId, channel, m) => {
    const channelId = channel.id ?? '';
    // An edited message is a new version; an unchanged one is stored already and is not an item of
    // this run (one this run stored before an interruption is, again).
    const version = m.lastModifiedDateTime ?? m.createdDateTime ?? '';
    const stored = (await storedVersions(rc.ctx.db, rc.job.jobId, teamId, m.id ?? '')).get(version);
    if (stored && stored.first_seq !== seq) {
      rc.progress({ source: teamId });
      return;
    }
    const blob = await plane.blobs.put(new TextEncoder().encode(JSON.stringify(m)));
    await putItem(rc.ctx.db, {
      jobId: rc.job.jobId,
      sourceId: teamId,
      itemId: m.id ?? '',
      versionId: version,
      driveId: null,
      kind: 'message',
      name: m.subject || (m.body?.content ?? '').replace(/<[^>]+>/g, '').slice(0, 80),
      path: `/${channel.displayName ?? channelId}`,
      parentId: channelId,
      size: blob.size,
      hash: blob.hash,
      modifiedAt: version ? new Date(version) : null,
      isLatest: true,
      seq,
    });
    rc.progress({ total: 1, done: 1, bytes: blob.size, source: teamId });
  });
  return {};
}
