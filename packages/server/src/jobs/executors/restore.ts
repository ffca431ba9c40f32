/**
 * Restore of backed-up files into the original account or site, or into another one: the chosen
 * files and folders (a folder brings everything under it) as the snapshot at the chosen date had
 * them. Items that exist at the destination follow the conflict policy: skip, keep both (a copy with
 * a new name) or overwrite.
 */
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ConflictPolicy } from '@compliance-portal/sdk';
import type { GraphApi } from '../../m365/graph-api.js';
import { GraphError } from '../../m365/graph-api.js';
import type { OrganisationKeys } from '../../storage/encryption.js';
import { sealFile } from '../../storage/file-encryption.js';
import type { FileStore } from '../../storage/object-blob-store.js';
import { counted } from '../../words.js';
import { findJob } from '../repository.js';
import type { Executor, RunContext } from '../run-context.js';
import { createZip } from '../zip.js';
import { type SnapshotItem, snapshotItems, snapshotSeq } from './backup-store.js';
import { restoreMailboxItems } from './mailbox-restore.js';
import type { Blobs, DataPlane } from './plane.js';
import {
  downloadSiteContent,
  NO_SITE_PROGRESS,
  restoreSiteContent,
  retrySelection,
  type SiteRestoreProgress,
  type SiteSelection,
  selectionSize,
  selectSiteContent,
} from './site-restore.js';

const BEHAVIOR = { skip: 'fail', keepBoth: 'rename', overwrite: 'replace' } as const;

/**
 * The chosen items and, for folders, everything below them; "root" chooses all, "drive:{id}" a
 * whole document library, a channel's id every message of the channel (the discovery tree's nodes).
 */
export function selectItems(items: SnapshotItem[], nodeIds: readonly string[]): SnapshotItem[] {
  if (nodeIds.includes('root')) return items;
  const chosen = new Set(nodeIds);
  const folders = items.filter((i) => chosen.has(i.itemId) && i.kind === 'folder');
  const below = (i: SnapshotItem) => folders.some((f) => f.driveId === i.driveId && i.path.startsWith(`${f.path}/`));
  return items.filter(
    (i) =>
      chosen.has(i.itemId) ||
      (i.driveId !== null && chosen.has(`drive:${i.driveId}`)) ||
      (i.kind === 'message' && i.parentId !== null && chosen.has(i.parentId)) ||
      below(i),
  );
}

async function targetDrive(graph: GraphApi, application: string, target: string, fallback: string | null) {
  if (application === 'onedrive') return (await graph.userDrive(target)).id ?? '';
  if (fallback && target === '') return fallback;
  for await (const drive of graph.siteDrives(target)) return drive.id ?? '';
  throw new GraphError(404, 'itemNotFound', `The site ${target} has no document library.`);
}

/** Creates the folders of `path` under the drive root (existing ones are reused); returns the last id. */
async function ensureFolders(graph: GraphApi, driveId: string, folderPath: string, cache: Map<string, string>) {
  let parentId = 'root';
  let walked = '';
  for (const name of folderPath.split('/').filter(Boolean)) {
    walked += `/${name}`;
    const known = cache.get(walked);
    if (known) {
      parentId = known;
      continue;
    }
    const existing = await graph.itemByPath(driveId, walked);
    const folder = existing?.folder ? existing : await graph.createFolder(driveId, parentId, name, 'fail');
    parentId = folder.id ?? '';
    cache.set(walked, parentId);
  }
  return parentId;
}

/** A restore download's name in its store's files (in the data directory: its path there). */
export function restoreArchiveName(runId: string) {
  return `restores/${runId}.zip`;
}

/** No lists and no pages: what a restore of anything but a site's content chooses of them. */
const NO_SITE_CONTENT: SiteSelection = { lists: [], pages: [] };

const noSiteContent = (site: SiteSelection) => site.lists.length === 0 && site.pages.length === 0;

/** "3 files, 12 list items and 2 pages": the files always, list items and pages when chosen. */
function whatWasRestored(site: SiteSelection, files: number, listItems: number, pages: number) {
  const parts = [
    ...(files > 0 || noSiteContent(site) ? [counted(files, 'file')] : []),
    ...(site.lists.length > 0 ? [counted(listItems, 'list item')] : []),
    ...(site.pages.length > 0 ? [counted(pages, 'page')] : []),
  ];
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : (parts[0] ?? '');
}

/**
 * Restore as a download: the chosen files in a ZIP with their folders, and a site's chosen lists (as
 * csv) and pages (as JSON) beside them, written here, then kept in the store of the backup's location
 * (an object store's, or the server's own), from which any API process streams it.
 */
async function downloadArchive(
  rc: RunContext,
  blobs: Blobs,
  keep: FileStore,
  keys: OrganisationKeys,
  files: SnapshotItem[],
  site: { selection: SiteSelection; jobId: string; seq: number },
) {
  const name = restoreArchiveName(rc.run.run_id);
  const path = join(rc.ctx.config.dataDir, name);
  await mkdir(dirname(path), { recursive: true });
  const zip = await createZip(path);
  const source = rc.job.restore?.sourceId ?? '';
  rc.progress({ total: files.length + selectionSize(site.selection), source });
  for (const file of files) {
    rc.checkStopped();
    const result = await rc.item({ key: `restore:${file.itemId}`, name: file.path, source }, async () => {
      const bytes = await blobs.get(file.hash ?? '');
      // A Teams message is its JSON, in a folder per channel.
      const name = file.kind === 'message' ? `${file.path}/${file.itemId}.json` : file.path;
      await zip.add(name, bytes, file.modifiedAt ?? undefined);
      return bytes.length;
    });
    if (result.ok) rc.progress({ done: 1, bytes: result.value, source });
  }
  const content = await downloadSiteContent(rc, zip, site.selection, {
    jobId: site.jobId,
    siteId: source,
    seq: site.seq,
  });
  const size = await zip.close();
  // Kept encrypted under the organisation's key, as its blobs are.
  const sealed = `${path}.sealed`;
  await sealFile(await keys.ensure(rc.tenant.organisationId), path, sealed);
  await rm(path, { force: true });
  await keep.keep(name, sealed);
  await rc.saveCheckpoint({ archive: name, size });
  // The size is the run's download's (shown beside its link, in the reader's units), not said here twice.
  return {
    message: `Prepared a download of ${whatWasRestored(site.selection, files.length, content.listItems, content.pages)}.`,
  };
}

export function restoreExecutor(plane: DataPlane): Executor {
  return async (rc: RunContext) => {
    const spec = rc.job.restore;
    if (!spec) throw new Error('The restore job has nothing to restore.');
    if (rc.job.application === 'exchange') return restoreMailboxItems(rc, plane, spec);
    const source = await findJob(rc.ctx.db, spec.sourceJobId);
    if (!source) throw new Error('The backup job of this restore was removed.');
    // The versions are in the backup job's storage location.
    const blobs = await plane.storeAt(source.locationId);
    const seq = await snapshotSeq(rc.ctx.db, source.jobId, new Date(spec.snapshot));
    if (seq === null) throw new Error('No finished backup exists at or before the chosen date.');
    const items = selectItems(await snapshotItems(rc.ctx.db, source.jobId, spec.sourceId, seq), spec.nodeIds);
    // A site's lists and pages (site-restore.ts) come with or without its files.
    const selected =
      source.application === 'sharepoint'
        ? await selectSiteContent(rc.ctx.db, { jobId: source.jobId, siteId: spec.sourceId }, seq, spec.nodeIds)
        : NO_SITE_CONTENT;
    if (spec.target === 'download') {
      const entries = items.filter((i) => i.kind === 'file' || i.kind === 'message');
      if (entries.length === 0 && noSiteContent(selected))
        throw new Error('The snapshot has none of the chosen items.');
      return downloadArchive(rc, blobs, await plane.filesAt(source.locationId), plane.keys, entries, {
        selection: selected,
        jobId: source.jobId,
        seq,
      });
    }
    if (items.some((i) => i.kind === 'message')) {
      throw new Error(
        'Teams messages can be restored as a download only: Microsoft Graph does not let an application post them back.',
      );
    }
    const chosen = items.filter((i) => i.kind === 'file');
    if (chosen.length === 0 && noSiteContent(selected)) throw new Error('The snapshot has none of the chosen items.');
    // A retry of the files, list items and pages that failed restores those only.
    const retry = rc.retry?.kind === 'items' ? rc.retry.keys : null;
    const files = retry ? chosen.filter((f) => retry.has(`restore:${f.itemId}`)) : chosen;
    const site = retry ? retrySelection(selected, retry) : selected;

    const graph = await plane.graph(rc.tenant);
    const targetId = spec.target === 'other' ? (spec.targetId ?? '') : spec.sourceId;
    // Lists and pages need no library at the destination.
    const driveId =
      files.length > 0 ? await targetDrive(graph, source.application, targetId, files[0]?.driveId ?? null) : '';
    const done = new Set((rc.checkpoint.done as string[] | undefined) ?? []);
    let siteProgress = (rc.checkpoint.site as SiteRestoreProgress | undefined) ?? NO_SITE_PROGRESS;
    const save = () => rc.saveCheckpoint({ done: [...done], site: siteProgress });
    const folders = new Map<string, string>();
    const policy: ConflictPolicy = spec.conflictPolicy;
    let skipped = 0;
    const siteDone = siteProgress.listItems + siteProgress.pages + siteProgress.skipped;
    rc.progress({ total: files.length + selectionSize(site), done: done.size + siteDone, source: targetId });
    for (const file of files) {
      if (done.has(file.itemId)) continue;
      rc.checkStopped();
      const result = await rc.item({ key: `restore:${file.itemId}`, name: file.path, source: targetId }, async () => {
        const folderPath = file.path.slice(0, file.path.length - file.name.length);
        const parentId = await ensureFolders(graph, driveId, folderPath, folders);
        const bytes = await blobs.get(file.hash ?? '');
        try {
          const restored = await graph.uploadContent(driveId, parentId, file.name, bytes, BEHAVIOR[policy]);
          // Grants go back where the file came from; in another account they would share it with strangers.
          if (spec.target === 'original') {
            for (const roles of new Set(file.permissions.map((p) => p.roles.join(',')))) {
              const userIds = file.permissions.filter((p) => p.roles.join(',') === roles).map((p) => p.userId);
              await graph.grantPermission(driveId, restored.id ?? '', { userIds, roles: roles.split(',') });
            }
          }
          return bytes.length;
        } catch (error) {
          // Skip: the destination already has the item and keeps it.
          if (policy === 'skip' && error instanceof GraphError && error.status === 409) {
            skipped += 1;
            return 0;
          }
          throw error;
        }
      });
      if (result.ok) rc.progress({ done: 1, bytes: result.value, source: targetId });
      done.add(file.itemId);
      if (done.size % 50 === 0) await save();
    }
    await save();
    const content = await restoreSiteContent(
      rc,
      graph,
      site,
      { siteId: targetId, original: spec.target === 'original', policy },
      siteProgress,
      (progress) => {
        siteProgress = progress;
        return save();
      },
    );
    skipped += content.skipped;
    const restored = whatWasRestored(
      site,
      files.length - (skipped - content.skipped),
      content.listItems,
      content.pages,
    );
    const notes = content.notes.map((n) => ` ${n.charAt(0).toUpperCase()}${n.slice(1)}.`).join('');
    return {
      message:
        skipped > 0
          ? `Restored ${restored}; ${skipped} already at the destination ${skipped === 1 ? 'was' : 'were'} skipped.${notes}`
          : `Restored ${restored}.${notes}`,
    };
  };
}
