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

type StoredVersion = {
  version_id: string;
  is_latest: boolean;
  deleted_seq: number | null;
  first_seq: number;
  size: number;
};

/**
 * The stored versions of each of `itemIds` (one query for a page of items), each with the run that
 * first stored it (`first_seq`) and its size.
 */
export async function storedVersionsOf(db: Queryable, jobId: string, sourceId: string, itemIds: readonly string[]) {
  const byItem = new Map<string, Map<string, StoredVersion>>();
  if (itemIds.length === 0) return byItem;
  const rows = await db.query<StoredVersion & { item_id: string }>(
    `select item_id, version_id, is_latest, deleted_seq, first_seq, size from backup_items
      where job_id = $1 and source_id = $2 and item_id = any($3::text[])`,
    [jobId, sourceId, [...itemIds]],
  );
  for (const { item_id, ...r } of rows) {
    const versions = byItem.get(item_id) ?? new Map<string, StoredVersion>();
    byItem.set(item_id, versions);
    versions.set(r.version_id, { ...r, first_seq: Number(r.first_seq), size: Number(r.size) });
  }
  return byItem;
}

/** The item's stored versions, each with the run that first stored it (`first_seq`) and its size. */
export async function storedVersions(db: Queryable, jobId: string, sourceId: string, itemId: string) {
  return (await storedVersionsOf(db, jobId, sourceId, [itemId])).get(itemId) ?? new Map<string, StoredVersion>();
}

/** Rows of one insert (15 parameters a row; PostgreSQL takes at most 65,535). */
const INSERT_BATCH = 1000;

/** Stores versions, many to a statement (idempotent: a resumed run writes the same rows again without change). */
export async function putItems(db: Queryable, items: readonly BackupItemInput[]) {
  for (let start = 0; start < items.length; start += INSERT_BATCH) {
    const params: unknown[] = [];
    const rows = items.slice(start, start + INSERT_BATCH).map((item) => {
      const at = params.length;
      params.push(
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
      );
      return `(${Array.from({ length: 15 }, (_, i) => `$${at + i + 1}`).join(', ')})`;
    });
    await db.query(
      `insert into backup_items (job_id, source_id, item_id, version_id, drive_id, kind, name, path, parent_id, size, hash,
                                 modified_at, is_latest, first_seq, metadata)
       values ${rows.join(',\n')}
       on conflict (job_id, source_id, item_id, version_id) do update
         set name = excluded.name, path = excluded.path, parent_id = excluded.parent_id, is_latest = excluded.is_latest,
             deleted_seq = null`,
      params,
    );
  }
}

/** Stores a version (idempotent: a resumed run writes the same row again without change). */
export async function putItem(db: Queryable, item: BackupItemInput) {
  await putItems(db, [item]);
}

/**
 * A file's versions are stored: the other versions are no longer the latest, the latest keeps the
 * item's direct grants, and every version follows the item's current name and place (renamed or
 * moved). One statement.
 */
export async function finishFile(
  db: Queryable,
  file: {
    jobId: string;
    sourceId: string;
    itemId: string;
    latest: string;
    name: string;
    path: string;
    parentId: string | null;
    permissions: { userId: string; roles: string[] }[];
  },
) {
  await db.query(
    `update backup_items
        set is_latest = case when version_id = $4 then is_latest else false end,
            metadata = case when version_id = $4 then metadata || $8::jsonb else metadata end,
            parent_id = case when name <> $5 or path <> $6 then $7 else parent_id end,
            name = $5, path = $6
      where job_id = $1 and source_id = $2 and item_id = $3
        and (version_id = $4 or is_latest or name <> $5 or path <> $6)`,
    [
      file.jobId,
      file.sourceId,
      file.itemId,
      file.latest,
      file.name,
      file.path,
      file.parentId,
      JSON.stringify({ permissions: file.permissions }),
    ],
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
