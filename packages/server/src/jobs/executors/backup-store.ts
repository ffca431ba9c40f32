/**
 * Backed-up items as temporal rows: a row per (source, item, version) with the run sequence number
 * that first saw it and the one that saw it deleted. A snapshot of run N is the rows alive at N, so an
 * incremental run writes only what changed and unchanged content is stored once (blobs by hash).
 */
import type { Queryable } from '../../db/database.js';

export interface BackupItemInput {
  jobId: string;
  sourceId: string;
  itemId: string;
  versionId: string;
  driveId: string | null;
  kind: 'file' | 'folder' | 'message';
  name: string;
  path: string;
  parentId: string | null;
  size: number;
  hash: string | null;
  modifiedAt: Date | null;
  isLatest: boolean;
  seq: number;
  metadata?: Record<string, unknown>;
}

/** The item's stored versions, each with the run that first stored it (`first_seq`) and its size. */
export async function storedVersions(db: Queryable, jobId: string, sourceId: string, itemId: string) {
  const rows = await db.query<{
    version_id: string;
    is_latest: boolean;
    deleted_seq: number | null;
    first_seq: number;
    size: number;
  }>(
    `select version_id, is_latest, deleted_seq, first_seq, size from backup_items
      where job_id = $1 and source_id = $2 and item_id = $3`,
    [jobId, sourceId, itemId],
  );
  return new Map(
    rows.map((r) => [r.version_id, { ...r, first_seq: Number(r.first_seq), size: Number(r.size) }] as const),
  );
}

/** Stores a version (idempotent: a resumed run writes the same row again without change). */
export async function putItem(db: Queryable, item: BackupItemInput) {
  await db.query(
    `insert into backup_items (job_id, source_id, item_id, version_id, drive_id, kind, name, path, parent_id, size, hash,
                               modified_at, is_latest, first_seq, metadata)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     on conflict (job_id, source_id, item_id, version_id) do update
       set name = excluded.name, path = excluded.path, parent_id = excluded.parent_id, is_latest = excluded.is_latest,
           deleted_seq = null`,
    [
      item.jobId,
      item.sourceId,
      item.itemId,
      item.versionId,
      item.driveId,
      item.kind,
      item.name,
      item.path,
      item.parentId,
      item.size,
      item.hash,
      item.modifiedAt,
      item.isLatest,
      item.seq,
      JSON.stringify(item.metadata ?? {}),
    ],
  );
}

/** The item's other versions are no longer the latest. */
export async function demoteOtherVersions(
  db: Queryable,
  jobId: string,
  sourceId: string,
  itemId: string,
  latest: string,
) {
  await db.query(
    `update backup_items set is_latest = false
      where job_id = $1 and source_id = $2 and item_id = $3 and version_id <> $4 and is_latest`,
    [jobId, sourceId, itemId, latest],
  );
}

/** Renamed or moved: every stored version follows the item's new name and place. */
export async function relocate(
  db: Queryable,
  jobId: string,
  sourceId: string,
  itemId: string,
  name: string,
  path: string,
  parentId: string | null,
) {
  await db.query(
    `update backup_items set name = $4, path = $5, parent_id = $6
      where job_id = $1 and source_id = $2 and item_id = $3 and (name <> $4 or path <> $5)`,
    [jobId, sourceId, itemId, name, path, parentId],
  );
}

/** Deleted at the source: the item stays in earlier snapshots only. */
export async function markDeleted(db: Queryable, jobId: string, sourceId: string, itemId: string, seq: number) {
  await db.query(
    `update backup_items set deleted_seq = $4 where job_id = $1 and source_id = $2 and item_id = $3 and deleted_seq is null`,
    [jobId, sourceId, itemId, seq],
  );
}

export interface SnapshotItem {
  sourceId: string;
  itemId: string;
  versionId: string;
  driveId: string | null;
  kind: 'file' | 'folder' | 'message';
  name: string;
  path: string;
  parentId: string | null;
  size: number;
  hash: string | null;
  modifiedAt: Date | null;
  /** Direct grants of the item when it was backed up. */
  permissions: { userId: string; roles: string[] }[];
}

/**
 * The items of a source as the backup run with sequence number `seq` saw them: for each live item,
 * its newest version stored at or before that run.
 */
export async function snapshotItems(
  db: Queryable,
  jobId: string,
  sourceId: string,
  seq: number,
): Promise<SnapshotItem[]> {
  const rows = await db.query<{
    source_id: string;
    item_id: string;
    version_id: string;
    drive_id: string | null;
    kind: SnapshotItem['kind'];
    name: string;
    path: string;
    parent_id: string | null;
    size: number;
    hash: string | null;
    modified_at: Date | null;
    metadata: { permissions?: { userId: string; roles: string[] }[] } | string | null;
  }>(
    `select distinct on (item_id) source_id, item_id, version_id, drive_id, kind, name, path, parent_id, size, hash, modified_at,
            (select b2.metadata from backup_items b2 where b2.job_id = backup_items.job_id and b2.source_id = backup_items.source_id
               and b2.item_id = backup_items.item_id and b2.metadata ? 'permissions' and b2.first_seq <= $3
             order by b2.modified_at desc nulls last limit 1) as metadata
       from backup_items
      where job_id = $1 and source_id = $2 and first_seq <= $3 and (deleted_seq is null or deleted_seq > $3)
      order by item_id, modified_at desc nulls last, first_seq desc`,
    [jobId, sourceId, seq],
  );
  return rows.map((r) => ({
    sourceId: r.source_id,
    itemId: r.item_id,
    versionId: r.version_id,
    driveId: r.drive_id,
    kind: r.kind,
    name: r.name,
    path: r.path,
    parentId: r.parent_id,
    size: Number(r.size),
    hash: r.hash,
    modifiedAt: r.modified_at ? new Date(r.modified_at) : null,
    permissions: (typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata)?.permissions ?? [],
  }));
}

/** The backup run whose snapshot a restore at `at` uses: the last finished run at or before it. */
export async function snapshotSeq(db: Queryable, jobId: string, at: Date): Promise<number | null> {
  const [row] = await db.query<{ seq: number }>(
    `select seq from job_runs where job_id = $1 and status = 'finished' and finished <= $2 order by seq desc limit 1`,
    [jobId, at],
  );
  return row ? Number(row.seq) : null;
}
