/**
 * Data management: removes old file versions under the job's rule (keep the newest N, or remove
 * those older than a date; the current version is never removed) and records, per file, its
 * versions, those eligible, and the space they take and free.
 */
import type { CleanupRule } from '@compliance-portal/sdk';
import type { DriveItemVersion } from '@microsoft/microsoft-graph-types';
import type { Executor } from '../run-context.js';
import { itemPath } from './backup.js';
import type { DataPlane } from './plane.js';

/** Versions newest first, as Graph lists them; index 0 is the current version. */
export function eligibleVersions(versions: readonly DriveItemVersion[], rule: CleanupRule): DriveItemVersion[] {
  if (rule.kind === 'keepNewest') return versions.slice(Math.max(1, rule.count));
  const before = new Date(rule.date).getTime();
  return versions
    .slice(1)
    .filter((v) => v.lastModifiedDateTime !== undefined && v.lastModifiedDateTime !== null)
    .filter((v) => new Date(v.lastModifiedDateTime ?? 0).getTime() < before);
}

export function versionCleanupExecutor(plane: DataPlane): Executor {
  return async (rc) => {
    const rule = rc.job.cleanupRule;
    if (!rule) throw new Error('The clean-up job has no rule.');
    const graph = await plane.graph(rc.tenant);
    let freedTotal = 0;
    let deletedTotal = 0;
    for (const source of rc.job.sources) {
      rc.checkStopped();
      const drives = await rc.item({ key: `source:${source}`, name: source, source, wholeSource: true }, async () => {
        if (rc.job.application === 'onedrive') return [(await graph.userDrive(source)).id ?? ''];
        const ids: string[] = [];
        for await (const d of graph.siteDrives(source)) ids.push(d.id ?? '');
        return ids;
      });
      if (!drives.ok) continue;
      for (const driveId of drives.value) {
        for await (const page of graph.driveDelta(driveId)) {
          const files = page.filter((i) => i.file && !i.deleted);
          rc.progress({ total: files.length, source });
          for (const file of files) {
            rc.checkStopped();
            const itemId = file.id ?? '';
            const result = await rc.item({ key: `${driveId}/${itemId}`, name: itemPath(file), source }, async () => {
              const versions: DriveItemVersion[] = [];
              for await (const v of graph.itemVersions(driveId, itemId)) versions.push(v);
              const eligible = eligibleVersions(versions, rule);
              let freed = 0;
              let deleted = 0;
              for (const version of eligible) {
                rc.checkStopped();
                await graph.deleteVersion(driveId, itemId, version.id ?? '');
                freed += Number(version.size ?? 0);
                deleted += 1;
              }
              await rc.ctx.db.query(
                `insert into version_inventory (run_id, job_id, source_id, drive_id, item_id, path, versions, eligible,
                                                eligible_bytes, deleted, freed_bytes)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 on conflict (run_id, drive_id, item_id) do update
                   set versions = excluded.versions, eligible = excluded.eligible, eligible_bytes = excluded.eligible_bytes,
                       deleted = version_inventory.deleted + excluded.deleted,
                       freed_bytes = version_inventory.freed_bytes + excluded.freed_bytes`,
                [
                  rc.run.run_id,
                  rc.job.jobId,
                  source,
                  driveId,
                  itemId,
                  itemPath(file),
                  versions.length,
                  eligible.length,
                  eligible.reduce((sum, v) => sum + Number(v.size ?? 0), 0),
                  deleted,
                  freed,
                ],
              );
              return { freed, deleted };
            });
            if (result.ok) {
              freedTotal += result.value.freed;
              deletedTotal += result.value.deleted;
              rc.progress({ done: 1, bytes: result.value.freed, source });
            }
          }
        }
      }
    }
    return { message: `Removed ${deletedTotal} old version(s), freeing ${(freedTotal / 1024 ** 2).toFixed(1)} MB.` };
  };
}
