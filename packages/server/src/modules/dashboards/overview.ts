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
import { monthlySaving } from '../../jobs/executors/version-cleanup.js';
import { FREED_SINCE } from '../data-management/repository.js';
import { RUN_VIEW_COLUMNS, type RunViewRow, runView } from '../jobs/runs.js';
import type { TenantRecord } from '../tenants/repository.js';
import { storedContents } from './service.js';

const DAY = 86_400_000;

type AreaType = 'backup' | 'exchangeArchive' | 'teamsArchive';

const AREA_TYPES: AreaType[] = ['backup', 'exchangeArchive', 'teamsArchive'];

/**
 * The runs the overview shows, in one query: each area's newest run (`n` 0) and the tenant's ten
 * newest failed runs of any kind (`n` 1 to 10, newest first).
 */
function overviewRuns(ctx: AppContext, tenantId: string) {
  return ctx.db.query<RunViewRow & { n: number }>(
    `(select distinct on (j.type) ${RUN_VIEW_COLUMNS}, 0::int as n from job_runs r join jobs j on j.job_id = r.job_id
       where r.tenant_id = $1 and j.type = any($2) order by j.type, coalesce(r.started, r.created_at) desc, r.seq desc)
     union all
     (select ${RUN_VIEW_COLUMNS},
             row_number() over (order by r.finished desc nulls last, r.seq desc)::int as n
        from job_runs r join jobs j on j.job_id = r.job_id
       where r.tenant_id = $1 and r.status = 'failed' order by n limit 10)`,
    [tenantId, AREA_TYPES],
  );
}

/**
 * Every figure of the overview in one query: per area its failed runs since `from`, what it covers
 * and stores; the bytes clean-ups freed since `from` and the tenant's storage price; the
 * organisation's licence and, on a trial, its backup and restore jobs per workload. The overview is
 * read on every visit: one round trip and one plan instead of one per figure; the archived bytes come
 * from the per-source totals the database keeps (migration 18). The backup's stored bytes are its
 * accounts', sites' and teams' stored sizes as their dashboards show them (each content of a source
 * once, however many jobs back it up: see storedContents); per-job totals would count an account
 * twice that two jobs cover.
 */
function overviewFigures(ctx: AppContext, tenant: TenantRecord, from: Date) {
  return ctx.db.query<{
    failed: Record<string, number>;
    backup_covered: number;
    backup_bytes: number | string;
    mail_covered: number;
    mail_bytes: number | string;
    teams_covered: number;
    teams_bytes: number | string;
    saved_bytes: number | string;
    price_per_gb_month: number | string | null;
    currency: string | null;
    license: OverviewDashboard['license']['kind'] | null;
    used: { type: JobType; application: Application; n: number }[] | null;
  }>(
    `select
       (select coalesce(json_object_agg(type, n), '{}') from (select j.type, count(*)::int as n from job_runs r
          join jobs j on j.job_id = r.job_id where r.tenant_id = $1 and j.type = any($3) and r.status = 'failed'
           and coalesce(r.started, r.created_at) >= $2 group by j.type) x) as failed,
       (select count(distinct s)::int from jobs j, jsonb_array_elements_text(j.definition->'sources') s
         where j.tenant_id = $1 and j.type = 'backup') as backup_covered,
       (select coalesce(sum(c.size), 0)::bigint
          from (${storedContents(`j.tenant_id = $1 and j.type = 'backup'`)}) c) as backup_bytes,
       a.mail_covered, a.mail_bytes, a.teams_covered, a.teams_bytes,
       (select coalesce(sum(v.freed_bytes), 0)::bigint from ${FREED_SINCE}) as saved_bytes,
       c.price_per_gb_month, c.currency, o.license,
       case when o.license = 'trial' then
         (select json_agg(x) from (select j.type, j.application, count(*)::int as n from jobs j
            join tenants t on t.tenant_id = j.tenant_id
           where t.organisation_id = $4 and j.type in ('backup', 'restore') group by j.type, j.application) x)
       end as used
     from (select count(distinct source) filter (where kind = 'mail')::int as mail_covered,
                  coalesce(sum(bytes) filter (where kind = 'mail'), 0)::bigint as mail_bytes,
                  count(distinct source) filter (where kind in ('teams', 'chat'))::int as teams_covered,
                  coalesce(sum(bytes) filter (where kind in ('teams', 'chat')), 0)::bigint as teams_bytes
             from archive_usage where tenant_id = $1 and items > 0) a
     left join backup_config c on c.tenant_id = $1
     left join organisations o on o.id = $4`,
    [tenant.tenantId, from, AREA_TYPES, tenant.organisationId],
  );
}

export async function overview(ctx: AppContext, tenant: TenantRecord): Promise<OverviewDashboard> {
  const now = ctx.now();
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  // Independent: asked at once (on PostgreSQL's pool they run side by side).
  const [runs, [row]] = await Promise.all([overviewRuns(ctx, tenant.tenantId), overviewFigures(ctx, tenant, from)]);
  const failed = row?.failed ?? {};
  const area = (type: AreaType, covered: number | undefined, bytes: number | string | undefined) => {
    const last = runs.find((r) => r.n === 0 && r.type === type);
    return {
      lastJob: last ? runView(last) : null,
      failedRuns: Number(failed[type] ?? 0),
      protectedCount: Number(covered ?? 0),
      bytes: Number(bytes ?? 0),
    };
  };
  const savedBytes = Number(row?.saved_bytes ?? 0);
  const trial = row?.license === 'trial';
  const used = (type: JobType) => (application: Application) =>
    Number(row?.used?.find((u) => u.type === type && u.application === application)?.n ?? 0);
  const left = (limit: number, used: (a: Application) => number, apps: readonly Application[]) =>
    trial ? Object.fromEntries(apps.map((a) => [a, Math.max(0, limit - used(a))])) : {};
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    backup: area('backup', row?.backup_covered, row?.backup_bytes),
    emailArchive: area('exchangeArchive', row?.mail_covered, row?.mail_bytes),
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
