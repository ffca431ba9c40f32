/**
 * Data management's storage analysis and dashboard. The analysis reads every file of the tenant's
 * SharePoint sites with its versions from Microsoft 365 and keeps, per site, the bytes taken with all
 * versions and the old (not current) versions among them, and the day's total; a team's site (its
 * group's root site) is kept as the team's, under the team's name. It runs when the
 * dashboard is read and nothing is stored, in the background when what is stored is older than six
 * hours or older than the newest clean-up run. Savings come from the clean-up runs' inventory.
 */
import { DASHBOARD_PERIOD_DAYS, DASHBOARD_TOP, type DataManagementDashboard } from '@compliance-portal/sdk';
import type { DriveItem } from '@microsoft/microsoft-graph-types';
import type { AppContext } from '../../context.js';
import { monthlySaving } from '../../jobs/executors/version-cleanup.js';
import { forEachLimit } from '../../jobs/pool.js';
import { type GraphApi, GraphError } from '../../m365/graph-api.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  analysedSites,
  analysisState,
  dailyUsage,
  replaceStorageUsage,
  type SiteUsage,
  savedPerDay,
  storagePrice,
  type UsageKind,
} from './repository.js';

const DAY = 86_400_000;
const MAX_AGE_MS = 6 * 3_600_000;
const CONCURRENCY = 4;

/** One site's files with all their versions. */
async function analyseSite(graph: GraphApi, site: { id: string; name: string; kind: UsageKind }): Promise<SiteUsage> {
  const usage: SiteUsage = {
    sourceId: site.id,
    kind: site.kind,
    displayName: site.name,
    files: 0,
    usedBytes: 0,
    oldVersions: 0,
    oldVersionBytes: 0,
  };
  for await (const drive of graph.siteDrives(site.id)) {
    const files: DriveItem[] = [];
    for await (const page of graph.driveDelta(drive.id ?? ''))
      for (const i of page) if (i.file && !i.deleted) files.push(i);
    await forEachLimit(files, CONCURRENCY, async (file) => {
      let index = 0;
      for await (const v of graph.itemVersions(drive.id ?? '', file.id ?? '')) {
        const size = Number(v.size ?? 0);
        usage.usedBytes += size;
        if (index > 0) {
          usage.oldVersions += 1;
          usage.oldVersionBytes += size;
        }
        index += 1;
      }
      // A file Graph lists no versions for still takes its size.
      if (index === 0) usage.usedBytes += Number(file.size ?? 0);
      usage.files += 1;
    });
  }
  return usage;
}

/**
 * The teams' own sites: each team's group's root site, by site id, with the team's name. Without the
 * permission to list the teams (GroupMember.Read.All) none is known, and every site counts as a site.
 */
async function teamSites(ctx: AppContext, graph: GraphApi, tenant: TenantRecord) {
  const teams = new Map<string, string>();
  try {
    for await (const team of graph.teams()) {
      if (!team.id) continue;
      try {
        const site = await graph.groupRootSite(team.id);
        if (site.id) teams.set(site.id, team.displayName ?? site.displayName ?? '');
      } catch (error) {
        // A team whose site is not provisioned (yet, or any more) has none to count.
        if (!(error instanceof GraphError && error.status === 404)) throw error;
      }
    }
  } catch (error) {
    if (!(error instanceof GraphError && error.status === 403)) throw error;
    ctx.log.warn({ err: error, tenantId: tenant.tenantId }, 'storage analysis: teams not readable, sites not labelled');
  }
  return teams;
}

/** Reads the tenant's sites and stores what they take; the day's total too. */
export async function analyseStorage(ctx: AppContext, graph: GraphApi, tenant: TenantRecord) {
  const teams = await teamSites(ctx, graph, tenant);
  const sites: { id: string; name: string; kind: UsageKind }[] = [];
  for await (const s of graph.sites()) {
    const id = s.id ?? '';
    const team = teams.get(id);
    sites.push(
      team !== undefined
        ? { id, name: team, kind: 'team' }
        : { id, name: s.displayName ?? s.name ?? s.webUrl ?? '', kind: 'site' },
    );
  }
  const usages: SiteUsage[] = [];
  for (const site of sites.filter((s) => s.id)) usages.push(await analyseSite(graph, site));
  const now = ctx.now();
  await ctx.db.transaction((tx) => replaceStorageUsage(tx, tenant.tenantId, usages, now));
}

const running = new Map<string, Promise<void>>();

/** Analyses now when nothing is stored; refreshes in the background when what is stored is stale. */
export async function ensureAnalysis(ctx: AppContext, connect: () => Promise<GraphApi>, tenant: TenantRecord) {
  const state = await analysisState(ctx.db, tenant.tenantId);
  const analysed = state?.analysed ? new Date(state.analysed) : null;
  const cleanedSince = !!analysed && !!state?.cleaned && new Date(state.cleaned) > analysed;
  const stale = !analysed || cleanedSince || ctx.now().getTime() - analysed.getTime() > MAX_AGE_MS;
  if (!stale) return;
  let task = running.get(tenant.tenantId);
  if (!task) {
    task = connect()
      .then((graph) => analyseStorage(ctx, graph, tenant))
      .finally(() => running.delete(tenant.tenantId));
    running.set(tenant.tenantId, task);
  }
  if (!analysed || cleanedSince) {
    // Nothing to show yet, or a clean-up changed the figures: wait (a failure keeps what is stored).
    try {
      await task;
    } catch (error) {
      if (!analysed) throw error;
      ctx.log.warn({ err: error, tenantId: tenant.tenantId }, 'storage analysis failed');
    }
  } else task.catch((error) => ctx.log.warn({ err: error, tenantId: tenant.tenantId }, 'storage analysis failed'));
}

export async function dataManagementDashboard(ctx: AppContext, tenantId: string): Promise<DataManagementDashboard> {
  const now = ctx.now();
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  const price = await storagePrice(ctx.db, tenantId);
  const pricePerGbMonth = Number(price?.price_per_gb_month ?? 0);
  const sites = await analysedSites(ctx.db, tenantId);
  const saved = new Map((await savedPerDay(ctx.db, tenantId, from)).map((r) => [r.day, Number(r.bytes)]));
  const daily = await dailyUsage(ctx.db, tenantId, now.toISOString().slice(0, 10));
  const used = new Map(daily.map((d) => [d.day, Number(d.used_bytes)]));
  // Used bytes carry forward from the last day analysed; days before any analysis show none.
  let carried = Number([...daily].reverse().find((d) => d.day < from.toISOString().slice(0, 10))?.used_bytes ?? 0);
  const series = [];
  for (let t = from.getTime(); t <= now.getTime(); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    carried = used.get(date) ?? carried;
    series.push({ date, usedBytes: carried, savedBytes: saved.get(date) ?? 0 });
  }
  const storageSavedBytes = [...saved.values()].reduce((sum, b) => sum + b, 0);
  const bySize = [...sites].sort((a, b) => Number(b.used_bytes) - Number(a.used_bytes));
  const withOldVersions = sites.filter((s) => Number(s.old_versions) > 0);
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    from: from.toISOString(),
    to: now.toISOString(),
    storageUsedBytes: sites.reduce((sum, s) => sum + Number(s.used_bytes), 0),
    storageSavedBytes,
    pricePerGbMonth,
    currency: price?.currency ?? 'EUR',
    monthlySaving: monthlySaving(storageSavedBytes, pricePerGbMonth),
    series,
    topSitesWithoutDataManagement: bySize
      .filter((s) => !s.managed)
      .slice(0, DASHBOARD_TOP.sitesWithoutDataManagement)
      .map((s) => ({ siteId: s.source_id, displayName: s.display_name, bytes: Number(s.used_bytes) })),
    coverage: {
      sites: sites.length,
      covered: sites.filter((s) => s.managed).length,
      withOldVersions: withOldVersions.length,
      coveredWithOldVersions: withOldVersions.filter((s) => s.managed).length,
    },
    topCleanupCandidates: [...withOldVersions]
      .sort((a, b) => Number(b.old_version_bytes) - Number(a.old_version_bytes))
      .slice(0, DASHBOARD_TOP.cleanupCandidates)
      .map((s) => ({
        sourceId: s.source_id,
        kind: s.kind,
        displayName: s.display_name,
        eligibleVersions: Number(s.old_versions),
        reclaimableBytes: Number(s.old_version_bytes),
        covered: s.managed,
      })),
  };
}
