/**
 * Data management: removes old file versions under the job's rule (keep the newest N, or remove
 * those older than a date; the current version is never removed), in the whole sites or OneDrives or
 * only in the files and folders of the job's `paths`, and records, per file, its
 * versions, those eligible, and the space they take and free.
 */
import type { CleanupRule } from '@compliance-portal/sdk';
import type { Drive, DriveItemVersion } from '@microsoft/microsoft-graph-types';
import type { Queryable } from '../../db/database.js';
import { counted } from '../../words.js';
import type { WorkPart } from '../progress.js';
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

/** Does a file at `path` of `driveId` fall under one of a clean-up job's `paths`? All when none. */
function pathChosen(driveId: string, path: string, chosen: readonly string[] | undefined): boolean {
  if (!chosen || chosen.length === 0) return true;
  const full = `${driveId}:${path}`;
  return chosen.some((c) => {
    const prefix = c.replace(/\/+$/, '');
    return full === prefix || full.startsWith(`${prefix}/`) || prefix === `${driveId}:`;
  });
}

/** What freeing `bytes` saves a month at a price per GB (10^9 bytes, as storage is billed). */
export function monthlySaving(bytes: number, pricePerGbMonth: number): number {
  return (bytes / 1e9) * pricePerGbMonth;
}

/** A clean-up run in figures: files, versions, eligible and removed versions, bytes, and the saving. */
export async function versionInventorySummary(db: Queryable, runId: string, tenantId: string) {
  const [totals] = await db.query<{
    files: number;
    versions: number;
    eligible: number;
    eligible_bytes: string;
    deleted: number;
    freed: string;
  }>(
    `select count(*)::int as files, coalesce(sum(versions), 0)::int as versions, coalesce(sum(eligible), 0)::int as eligible,
            coalesce(sum(eligible_bytes), 0)::bigint as eligible_bytes, coalesce(sum(deleted), 0)::int as deleted,
            coalesce(sum(freed_bytes), 0)::bigint as freed
       from version_inventory where run_id = $1`,
    [runId],
  );
  const [price] = await db.query<{ price_per_gb_month: string; currency: string }>(
    'select price_per_gb_month, currency from backup_config where tenant_id = $1',
    [tenantId],
  );
  const pricePerGb = Number(price?.price_per_gb_month ?? 0);
  const eligibleBytes = Number(totals?.eligible_bytes ?? 0);
  const freedBytes = Number(totals?.freed ?? 0);
  return {
    files: Number(totals?.files ?? 0),
    versions: Number(totals?.versions ?? 0),
    eligibleVersions: Number(totals?.eligible ?? 0),
    eligibleBytes,
    deletedVersions: Number(totals?.deleted ?? 0),
    freedBytes,
    currency: price?.currency ?? 'EUR',
    pricePerGbMonth: pricePerGb,
    eligibleSavingPerMonth: monthlySaving(eligibleBytes, pricePerGb),
    savingPerMonth: monthlySaving(freedBytes, pricePerGb),
  };
}

export function versionCleanupExecutor(plane: DataPlane): Executor {
  return async (rc) => {
    const rule = rc.job.cleanupRule;
    if (!rule) throw new Error('The clean-up job has no rule.');
    const graph = await plane.graph(rc.tenant);
    let freedTotal = 0;
    let deletedTotal = 0;
    // Each account or site an equal part of the run's work, its drives parts of that by the bytes they take.
    const parts = rc.work.split(rc.job.sources.length);
    for (const [index, source] of rc.job.sources.entries()) {
      rc.checkStopped();
      const part = parts[index] as WorkPart;
      const drives = await rc.item(
        { key: `source:${source}`, name: source, source, wholeSource: true, part },
        async () => {
          const drive = (d: Drive) => ({ id: d.id ?? '', used: Number(d.quota?.used ?? 0) });
          if (rc.job.application === 'onedrive') return [drive(await graph.userDrive(source))];
          const found = [];
          for await (const d of graph.siteDrives(source)) found.push(drive(d));
          return found;
        },
      );
      if (!drives.ok) continue;
      const driveParts = part.split(drives.value.map((d) => 1 + d.used));
      for (const [at, { id: driveId }] of drives.value.entries()) {
        const drivePart = driveParts[at] as WorkPart;
        for await (const page of graph.driveDelta(driveId)) {
          const files = page.filter((i) => i.file && !i.deleted && pathChosen(driveId, itemPath(i), rc.job.paths));
          rc.progress({ total: files.length, source, part: drivePart, more: page.length });
          for (const file of files) {
            rc.checkStopped();
            const itemId = file.id ?? '';
            const ref = { key: `${driveId}/${itemId}`, name: itemPath(file), source, part: drivePart };
            const result = await rc.item(ref, async () => {
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
              rc.progress({ done: 1, bytes: result.value.freed, source, part: drivePart });
            }
          }
        }
        drivePart.end();
      }
    }
    const [price] = await rc.ctx.db.query<{ price_per_gb_month: string; currency: string }>(
      'select price_per_gb_month, currency from backup_config where tenant_id = $1',
      [rc.tenant.tenantId],
    );
    const saving = monthlySaving(freedTotal, Number(price?.price_per_gb_month ?? 0));
    return {
      message: `Removed ${counted(deletedTotal, 'old version')}, freeing ${(freedTotal / 1024 ** 2).toFixed(1)} MB: ${saving.toFixed(2)} ${price?.currency ?? 'EUR'} a month.`,
    };
  };
}
