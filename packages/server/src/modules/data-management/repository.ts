/**
 * Data management's tables: the storage analysis per site (`storage_usage`) and per day
 * (`storage_daily`), the clean-up runs' version inventory, and the tenant's storage price.
 */
import type { Queryable } from '../../db/database.js';

export type UsageKind = 'site' | 'team';

/** What a site (or a team's site) takes, as the storage analysis found it. */
export interface SiteUsage {
  sourceId: string;
  kind: UsageKind;
  displayName: string;
  files: number;
  usedBytes: number;
  oldVersions: number;
  oldVersionBytes: number;
}

/** The tenant's storage price per GB and month, and its currency (none before its backup settings exist). */
export async function storagePrice(
  db: Queryable,
  tenantId: string,
): Promise<{ price_per_gb_month: string; currency: string } | undefined> {
  const [price] = await db.query<{ price_per_gb_month: string; currency: string }>(
    'select price_per_gb_month, currency from backup_config where tenant_id = $1',
    [tenantId],
  );
  return price;
}

/**
 * Keeps `usages` as the tenant's analysis in place of the one before, and their sum as the day's
 * total. Run in a transaction: the dashboard reads one analysis whole.
 */
export async function replaceStorageUsage(
  tx: Queryable,
  tenantId: string,
  usages: readonly SiteUsage[],
  now: Date,
): Promise<void> {
  await tx.query('delete from storage_usage where tenant_id = $1', [tenantId]);
  for (const u of usages)
    await tx.query(
      `insert into storage_usage (tenant_id, source_id, kind, display_name, files, used_bytes, old_versions,
                                  old_version_bytes, analysed_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [tenantId, u.sourceId, u.kind, u.displayName, u.files, u.usedBytes, u.oldVersions, u.oldVersionBytes, now],
    );
  await tx.query(
    `insert into storage_daily (tenant_id, day, used_bytes) values ($1, $2, $3)
     on conflict (tenant_id, day) do update set used_bytes = excluded.used_bytes`,
    [tenantId, now.toISOString().slice(0, 10), usages.reduce((sum, u) => sum + u.usedBytes, 0)],
  );
}

/** When the tenant's storage was last analysed, and when its newest clean-up run finished. */
export async function analysisState(
  db: Queryable,
  tenantId: string,
): Promise<{ analysed: Date | null; cleaned: Date | null } | undefined> {
  const [state] = await db.query<{ analysed: Date | null; cleaned: Date | null }>(
    `select (select max(analysed_at) from storage_usage where tenant_id = $1) as analysed,
            (select max(r.finished) from job_runs r join jobs j on j.job_id = r.job_id
              where j.tenant_id = $1 and j.type = 'versionCleanup') as cleaned`,
    [tenantId],
  );
  return state;
}

/**
 * The version inventory of a tenant's clean-up runs that finished since `$2` (`$1` the tenant): what
 * they freed (`v.freed_bytes`), for the data-management dashboard's days and the overview's sum.
 */
export const FREED_SINCE = `version_inventory v join job_runs r on r.run_id = v.run_id join jobs j on j.job_id = r.job_id
      where j.tenant_id = $1 and r.finished >= $2`;

/** Bytes freed by clean-up runs that finished since `from`, per day. */
export function savedPerDay(db: Queryable, tenantId: string, from: Date) {
  return db.query<{ day: string; bytes: string }>(
    `select to_char(date_trunc('day', r.finished at time zone 'UTC'), 'YYYY-MM-DD') as day,
            coalesce(sum(v.freed_bytes), 0)::bigint as bytes
       from ${FREED_SINCE} group by 1`,
    [tenantId, from],
  );
}

/** The analysis's sites, each marked `managed` when a clean-up job of the tenant includes it. */
export function analysedSites(db: Queryable, tenantId: string) {
  return db.query<{
    source_id: string;
    kind: UsageKind;
    display_name: string;
    used_bytes: string;
    old_versions: number;
    old_version_bytes: string;
    managed: boolean;
  }>(
    `select u.*, exists (select 1 from jobs j where j.tenant_id = u.tenant_id and j.type = 'versionCleanup'
                          and j.definition->'sources' ? u.source_id) as managed
       from storage_usage u where u.tenant_id = $1`,
    [tenantId],
  );
}

/** The tenant's analysed total per day up to `until` (YYYY-MM-DD), oldest first. */
export function dailyUsage(db: Queryable, tenantId: string, until: string) {
  return db.query<{ day: string; used_bytes: string }>(
    `select to_char(day, 'YYYY-MM-DD') as day, used_bytes from storage_daily where tenant_id = $1 and day <= $2
      order by day`,
    [tenantId, until],
  );
}
