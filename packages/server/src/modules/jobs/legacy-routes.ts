/**
 * The legacy jobs API of the worker screens: scheduled email, Teams and deletion jobs of the worker's
 * active tenant, their runs, starting and stopping, and a run's report per account.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { Application, JobType, ScheduledJob } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { conflict, notFound } from '../../http/errors.js';
import { restoreArchivePath } from '../../jobs/executors/restore.js';
import { JobQueue } from '../../jobs/queue.js';
import { findJob, type JobRecord, type RunRow } from '../../jobs/repository.js';
import type { User } from '../identity/users.js';
import { requireWorker } from '../organisations/access.js';
import { requireTenant } from '../tenants/access.js';
import type { TenantRecord } from '../tenants/repository.js';
import { queryRuns, RUN_SELECT, type RunWithJob, runAccounts, runView } from './runs.js';
import { createJob, removeJob, requireJob, updateJob } from './service.js';

type Prefix = 'email' | 'teams' | 'deletion';

const FAMILY: Record<Prefix, { type: JobType; application: Application }> = {
  email: { type: 'exchangeArchive', application: 'exchange' },
  teams: { type: 'teamsArchive', application: 'teams' },
  deletion: { type: 'archiveDeletion', application: 'exchange' },
};

const prefixOf = (type: JobType): Prefix =>
  type === 'teamsArchive' ? 'teams' : type === 'archiveDeletion' ? 'deletion' : 'email';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function scheduledView(j: JobRecord): ScheduledJob {
  return {
    jobId: j.jobId,
    name: j.name,
    type: j.type,
    prefix: prefixOf(j.type),
    sources: j.sources,
    folders: j.folders ?? [],
    recurrence: j.recurrence,
    retention: j.retention,
    status: j.status,
    enabled: j.enabled,
    progress: j.progress,
    started: iso(j.started),
    finished: iso(j.finished),
    nextRun: iso(j.nextRun),
  };
}

/** The worker's active tenant: the one its jobs belong to. */
export async function workerTenant(ctx: AppContext, user: User, workerIp: string): Promise<TenantRecord> {
  const worker = await requireWorker(ctx, user, { workerIp });
  if (!worker.stagingtenantId) throw notFound('No Tenant was found in the Configuration. Please configure one.');
  return requireTenant(ctx, user, worker.stagingtenantId);
}

/** A job the user may act on, whatever the tenant. */
async function jobFor(ctx: AppContext, user: User, jobId: string) {
  const job = await findJob(ctx.db, jobId);
  if (!job) throw notFound('Job not found');
  const tenant = await requireTenant(ctx, user, job.tenantId).catch(() => {
    throw notFound('Job not found');
  });
  return { job: await requireJob(ctx.db, tenant, jobId), tenant };
}

async function latestRun(ctx: AppContext, jobId: string) {
  const [row] = await ctx.db.query<RunWithJob>(`${RUN_SELECT} where r.job_id = $1 order by r.seq desc limit 1`, [
    jobId,
  ]);
  return row;
}

export function legacyJobRoutes(ctx: AppContext) {
  const queue = new JobQueue(ctx);
  return routes({
    'legacy.jobs.scheduled': {
      async handler({ workerIp, prefix }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, workerIp);
        const family = FAMILY[prefix as Prefix];
        const rows = await ctx.db.query<{ job_id: string }>(
          'select job_id from jobs where tenant_id = $1 and type = $2 order by created_at desc',
          [tenant.tenantId, family.type],
        );
        const jobs = await Promise.all(rows.map((r) => findJob(ctx.db, r.job_id)));
        return jobs.filter((j): j is JobRecord => j !== undefined).map(scheduledView);
      },
    },
    'legacy.jobs.create': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await workerTenant(ctx, user, body.workerIp);
        const family = FAMILY[body.prefix];
        const job = await createJob(ctx, { user, ip: rc.ip }, tenant, {
          name: body.name,
          type: family.type,
          application: family.application,
          sources: body.sources,
          ...(body.folders ? { folders: body.folders } : {}),
          ...(body.recurrence ? { recurrence: body.recurrence } : {}),
          ...(body.retention ? { retention: body.retention } : {}),
        });
        return scheduledView(job);
      },
    },
    'legacy.jobs.update': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        const { jobId: _, ...changes } = body;
        return scheduledView(await updateJob(ctx, { user, ip: rc.ip }, tenant, job, changes));
      },
    },
    'legacy.jobs.remove': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        await removeJob(ctx, { user, ip: rc.ip }, tenant, job);
        return undefined;
      },
    },
    'legacy.jobs.start': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        await queue.requestStart(job);
        await ctx.audit({
          ...actedBy(user, rc.ip),
          organisationId: tenant.organisationId,
          action: 'job.start',
          target: job.jobId,
          outcome: 'success',
        });
        const run = await latestRun(ctx, job.jobId);
        if (!run) throw conflict('The job could not be queued.');
        return runView(run);
      },
    },
    'legacy.jobs.stop': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        const run = await latestRun(ctx, job.jobId);
        if (!run || (run.status !== 'running' && run.status !== 'queued')) throw conflict('The job is not running.');
        await queue.requestStop(job);
        await ctx.audit({
          ...actedBy(user, rc.ip),
          organisationId: tenant.organisationId,
          action: 'job.stop',
          target: job.jobId,
          outcome: 'success',
        });
        return runView((await latestRun(ctx, job.jobId)) ?? run);
      },
    },
    'legacy.jobs.running': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        const rows = await ctx.db.query<RunWithJob>(
          `${RUN_SELECT} where r.tenant_id = $1 and r.status in ('queued', 'running') order by r.seq`,
          [tenant.tenantId],
        );
        return rows.map(runView);
      },
    },
    'legacy.jobs.filtered': {
      async handler({ body }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, body.workerIp);
        return queryRuns(ctx.db, tenant.tenantId, {
          ...body,
          ...(body.prefix ? { types: [FAMILY[body.prefix].type] } : {}),
          ...(body.type?.length ? { types: body.type } : {}),
        });
      },
    },
    'legacy.jobs.downloadRestoreArchive': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job } = await jobFor(ctx, user, body.jobId);
        if (job.type !== 'restore' || job.restore?.target !== 'download') {
          throw conflict('This restore does not prepare a download.');
        }
        const [run] = await ctx.db.query<RunRow>(
          `select * from job_runs where job_id = $1 and status = 'finished' order by seq desc limit 1`,
          [job.jobId],
        );
        const path = run ? restoreArchivePath(ctx.config.dataDir, run.run_id) : '';
        if (!run || !existsSync(path)) throw notFound('The download is not ready yet.');
        const name = `restore-${job.name.replace(/[^\w.-]+/g, '_').slice(0, 80)}.zip`;
        rc.reply
          .type('application/zip')
          .header('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`)
          .header('Content-Length', statSync(path).size);
        return createReadStream(path);
      },
    },
    'legacy.jobs.reportDataAccounts': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const [run] = await ctx.db.query<RunRow>('select * from job_runs where run_id = $1', [body.reportId]);
        if (!run) throw notFound('Report not found');
        await jobFor(ctx, user, run.job_id).catch(() => {
          throw notFound('Report not found');
        });
        return runAccounts(ctx.db, run, body);
      },
    },
  });
}
