/**
 * The overview: every area of one tenant at a glance over the dashboard period — its newest run,
 * failed runs, what it covers and stores; clean-up savings; the licence with the trial limits left;
 * the ten newest failures of any kind.
 */
import {
  type Application,
  DASHBOARD_PERIOD_DAYS,
  type JobType,
  type OverviewDashboard,
  TRIAL_LIMITS,
} from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { savings } from '../data-management/storage.js';
import { RUN_SELECT, type RunWithJob, runView } from '../jobs/runs.js';
import { findOrganisation } from '../organisations/repository.js';
import type { TenantRecord } from '../tenants/repository.js';

const DAY = 86_400_000;

type AreaType = 'backup' | 'exchangeArchive' | 'teamsArchive';

/**
 * Per area (job type): its newest run, its failed runs since `from`, what it covers and what it
 * stores. Two queries for the three areas, not two each: the overview is read on every visit.
 */
async function areas(ctx: AppContext, tenantId: string, from: Date) {
  const types: AreaType[] = ['backup', 'exchangeArchive', 'teamsArchive'];
  const lastRuns = ctx.db.query<RunWithJob>(
    `select distinct on (j.type) r.*, j.name, j.type, j.application from job_runs r join jobs j on j.job_id = r.job_id
      where r.tenant_id = $1 and j.type = any($2) order by j.type, coalesce(r.started, r.created_at) desc, r.seq desc`,
    [tenantId, types],
  );
  const archived = (kinds: string) =>
    `select coalesce(sum(size), 0)::bigint from archive_items where tenant_id = $1 and kind in (${kinds})`;
  const totals = ctx.db.query<Record<string, number | string | null>>(
    `select
       (select coalesce(json_object_agg(type, n), '{}') from (select j.type, count(*)::int as n from job_runs r
          join jobs j on j.job_id = r.job_id where r.tenant_id = $1 and j.type = any($3) and r.status = 'failed'
           and coalesce(r.started, r.created_at) >= $2 group by j.type) x) as failed,
       (select count(distinct s)::int from jobs j, jsonb_array_elements_text(j.definition->'sources') s
         where j.tenant_id = $1 and j.type = 'backup') as backup_covered,
       (select coalesce(sum(b.size), 0)::bigint from backup_items b join jobs j on j.job_id = b.job_id
         where j.tenant_id = $1) as backup_bytes,
       (select count(distinct source)::int from archive_items where tenant_id = $1 and kind = 'mail') as mail_covered,
       (${archived(`'mail'`)}) as mail_bytes,
       (select count(distinct source)::int from archive_items where tenant_id = $1 and kind in ('teams', 'chat')) as teams_covered,
       (${archived(`'teams', 'chat'`)}) as teams_bytes`,
    [tenantId, from, types],
  );
  const [lasts, [row]] = await Promise.all([lastRuns, totals]);
  const failed = (row?.failed ?? {}) as unknown as Record<string, number>;
  const area = (type: AreaType, covered: string, bytes: string) => {
    const last = lasts.find((r) => r.type === type);
    return {
      lastJob: last ? runView(last) : null,
      failedRuns: Number(failed[type] ?? 0),
      protectedCount: Number(row?.[covered] ?? 0),
      bytes: Number(row?.[bytes] ?? 0),
    };
  };
  return {
    backup: area('backup', 'backup_covered', 'backup_bytes'),
    emailArchive: area('exchangeArchive', 'mail_covered', 'mail_bytes'),
    teamsArchive: area('teamsArchive', 'teams_covered', 'teams_bytes'),
  };
}

/** Jobs of the organisation per type and workload, for the trial limits left. */
async function usedPerApplication(ctx: AppContext, organisationId: string) {
  const rows = await ctx.db.query<{ type: JobType; application: Application; n: number }>(
    `select j.type, j.application, count(*)::int as n from jobs j join tenants t on t.tenant_id = j.tenant_id
      where t.organisation_id = $1 and j.type in ('backup', 'restore') group by j.type, j.application`,
    [organisationId],
  );
  return (type: JobType) => (application: Application) =>
    Number(rows.find((r) => r.type === type && r.application === application)?.n ?? 0);
}

export async function overview(ctx: AppContext, tenant: TenantRecord): Promise<OverviewDashboard> {
  const now = ctx.now();
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  const tenantId = tenant.tenantId;
  // The parts are independent: asked at once (on PostgreSQL's pool they run side by side).
  const [{ backup, emailArchive, teamsArchive }, org, failures, dataManagement] = await Promise.all([
    areas(ctx, tenantId, from),
    findOrganisation(ctx.db, tenant.organisationId),
    ctx.db.query<RunWithJob>(
      `${RUN_SELECT} where r.tenant_id = $1 and r.status = 'failed' order by r.finished desc nulls last, r.seq desc limit 10`,
      [tenantId],
    ),
    savings(ctx.db, tenantId, now),
  ]);
  const trial = org?.license === 'trial';
  const used = trial ? await usedPerApplication(ctx, tenant.organisationId) : () => () => 0;
  const backups = used('backup');
  const restores = used('restore');
  const left = (limit: number, used: (a: Application) => number, apps: readonly Application[]) =>
    trial ? Object.fromEntries(apps.map((a) => [a, Math.max(0, limit - used(a))])) : {};
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    backup,
    emailArchive,
    teamsArchive,
    dataManagement,
    license: {
      kind: org?.license ?? 'full',
      backupJobsLeft: left(TRIAL_LIMITS.backupJobsPerApplication, backups, ['onedrive', 'sharepoint', 'teams']),
      restoresLeft: left(TRIAL_LIMITS.restoresPerApplication, restores, [
        'onedrive',
        'sharepoint',
        'teams',
        'exchange',
      ]),
    },
    recentFailures: failures.map(runView),
  };
}
