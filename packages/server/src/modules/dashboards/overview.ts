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

async function area(
  ctx: AppContext,
  tenantId: string,
  type: JobType,
  from: Date,
  covered: { sql: string },
  stored: { sql: string },
) {
  const [last] = await ctx.db.query<RunWithJob>(
    `${RUN_SELECT} where r.tenant_id = $1 and j.type = $2 order by coalesce(r.started, r.created_at) desc, r.seq desc limit 1`,
    [tenantId, type],
  );
  const [row] = await ctx.db.query<{ failed: number; covered: number; bytes: string }>(
    `select (select count(*)::int from job_runs r join jobs j on j.job_id = r.job_id
              where r.tenant_id = $1 and j.type = $2 and r.status = 'failed' and coalesce(r.started, r.created_at) >= $3) as failed,
            (${covered.sql}) as covered, (${stored.sql}) as bytes`,
    [tenantId, type, from],
  );
  return {
    lastJob: last ? runView(last) : null,
    failedRuns: Number(row?.failed ?? 0),
    protectedCount: Number(row?.covered ?? 0),
    bytes: Number(row?.bytes ?? 0),
  };
}

async function usedPerApplication(ctx: AppContext, organisationId: string, type: JobType) {
  const rows = await ctx.db.query<{ application: Application; n: number }>(
    `select j.application, count(*)::int as n from jobs j join tenants t on t.tenant_id = j.tenant_id
      where t.organisation_id = $1 and j.type = $2 group by j.application`,
    [organisationId, type],
  );
  return (application: Application) => Number(rows.find((r) => r.application === application)?.n ?? 0);
}

export async function overview(ctx: AppContext, tenant: TenantRecord): Promise<OverviewDashboard> {
  const now = ctx.now();
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  const tenantId = tenant.tenantId;
  const sourcesOf = (type: string) =>
    `select count(distinct s)::int from jobs j, jsonb_array_elements_text(j.definition->'sources') s
      where j.tenant_id = $1 and j.type = '${type}'`;
  const archived = (kinds: string) =>
    `select coalesce(sum(size), 0)::bigint from archive_items where tenant_id = $1 and kind in (${kinds})`;
  const backup = await area(
    ctx,
    tenantId,
    'backup',
    from,
    { sql: sourcesOf('backup') },
    {
      sql: `select coalesce(sum(b.size), 0)::bigint from backup_items b join jobs j on j.job_id = b.job_id
             where j.tenant_id = $1`,
    },
  );
  const emailArchive = await area(
    ctx,
    tenantId,
    'exchangeArchive',
    from,
    { sql: `select count(distinct source)::int from archive_items where tenant_id = $1 and kind = 'mail'` },
    { sql: archived(`'mail'`) },
  );
  const teamsArchive = await area(
    ctx,
    tenantId,
    'teamsArchive',
    from,
    { sql: `select count(distinct source)::int from archive_items where tenant_id = $1 and kind in ('teams', 'chat')` },
    { sql: archived(`'teams', 'chat'`) },
  );
  const org = await findOrganisation(ctx.db, tenant.organisationId);
  const trial = org?.license === 'trial';
  const backups = await usedPerApplication(ctx, tenant.organisationId, 'backup');
  const restores = await usedPerApplication(ctx, tenant.organisationId, 'restore');
  const left = (limit: number, used: (a: Application) => number, apps: readonly Application[]) =>
    trial ? Object.fromEntries(apps.map((a) => [a, Math.max(0, limit - used(a))])) : {};
  const failures = await ctx.db.query<RunWithJob>(
    `${RUN_SELECT} where r.tenant_id = $1 and r.status = 'failed' order by r.finished desc nulls last, r.seq desc limit 10`,
    [tenantId],
  );
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    backup,
    emailArchive,
    teamsArchive,
    dataManagement: await savings(ctx.db, tenantId, now),
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
