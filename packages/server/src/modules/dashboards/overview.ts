/**
 * The overview: every area of one tenant at a glance over the dashboard period — its newest run,
 * failed runs, what it covers and stores; clean-up savings; the licence with the trial limits left;
 * the ten newest failures of any kind.
 */
import {
  type Application,
  DASHBOARD_PERIOD_DAYS,
  type ItemsByKind,
  type JobType,
  type OverviewDashboard,
  TRIAL_LIMITS,
} from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { monthlySaving } from '../../jobs/executors/version-cleanup.js';
import { runView } from '../jobs/runs.js';
import type { TenantRecord } from '../tenants/repository.js';
import { overviewFigures, overviewRuns } from './repository.js';
import { BACKUP_KINDS, itemsOfKinds } from './service.js';

const DAY = 86_400_000;

type AreaType = 'backup' | 'exchangeArchive' | 'teamsArchive';

const AREA_TYPES: AreaType[] = ['backup', 'exchangeArchive', 'teamsArchive'];

export async function overview(ctx: AppContext, tenant: TenantRecord): Promise<OverviewDashboard> {
  const now = ctx.now();
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  // Independent: asked at once (on PostgreSQL's pool they run side by side).
  const [runs, [row]] = await Promise.all([
    overviewRuns(ctx.db, tenant.tenantId, AREA_TYPES),
    overviewFigures(ctx.db, tenant, from, AREA_TYPES),
  ]);
  const failed = row?.failed ?? {};
  const area = (
    type: AreaType,
    covered: number | undefined,
    bytes: number | string | undefined,
    items?: { items: number; itemsByKind: ItemsByKind },
  ) => {
    const last = runs.find((r) => r.n === 0 && r.type === type);
    return {
      lastJob: last ? runView(last) : null,
      failedRuns: Number(failed[type] ?? 0),
      protectedCount: Number(covered ?? 0),
      ...items,
      bytes: Number(bytes ?? 0),
    };
  };
  const mailKinds: Partial<Record<'events' | 'contacts' | 'tasks', number>> =
    typeof row?.mail_kinds === 'string' ? JSON.parse(row.mail_kinds) : (row?.mail_kinds ?? {});
  const mail: ItemsByKind = {
    mails: Number(row?.mail_items ?? 0),
    events: Number(mailKinds.events ?? 0),
    contacts: Number(mailKinds.contacts ?? 0),
    tasks: Number(mailKinds.tasks ?? 0),
  };
  const savedBytes = Number(row?.saved_bytes ?? 0);
  const trial = row?.license === 'trial';
  const used = (type: JobType) => (application: Application) =>
    Number(row?.used?.find((u) => u.type === type && u.application === application)?.n ?? 0);
  const left = (limit: number, used: (a: Application) => number, apps: readonly Application[]) =>
    trial ? Object.fromEntries(apps.map((a) => [a, Math.max(0, limit - used(a))])) : {};
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    backup: area('backup', row?.backup_covered, row?.backup_bytes, itemsOfKinds(row?.backup_kinds, BACKUP_KINDS)),
    emailArchive: area('exchangeArchive', row?.mail_covered, row?.mail_bytes, {
      items: Object.values(mail).reduce((sum, n) => sum + (n ?? 0), 0),
      itemsByKind: mail,
    }),
    teamsArchive: area('teamsArchive', row?.teams_covered, row?.teams_bytes),
    dataManagement: {
      savedBytes,
      monthlySaving: monthlySaving(savedBytes, Number(row?.price_per_gb_month ?? 0)),
      currency: row?.currency ?? 'EUR',
    },
    license: {
      kind: row?.license ?? 'full',
      backupJobsLeft: left(TRIAL_LIMITS.backupJobsPerApplication, used('backup'), ['onedrive', 'sharepoint', 'teams']),
      restoresLeft: left(TRIAL_LIMITS.restoresPerApplication, used('restore'), [
        'onedrive',
        'sharepoint',
        'teams',
        'exchange',
      ]),
    },
    recentFailures: runs
      .filter((r) => r.n > 0)
      .sort((a, b) => a.n - b.n)
      .map((r) => runView(r)),
  };
}
