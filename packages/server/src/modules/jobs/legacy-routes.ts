/**
 * The legacy jobs API of the worker screens: scheduled email, Teams and deletion jobs of the worker's
 * active tenant, their runs, starting and stopping, and a run's report per account.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { Application, JobRun, JobType, RunAccount, ScheduledJob } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { conflict, notFound } from '../../http/errors.js';
import { restoreArchivePath } from '../../jobs/executors/restore.js';
import { JobQueue } from '../../jobs/queue.js';
import { findJob, type JobRecord, jobStatusOf, type RunRow } from '../../jobs/repository.js';
import type { User } from '../identity/users.js';
import { requireWorker } from '../organisations/access.js';
import { requireTenant } from '../tenants/access.js';
import type { TenantRecord } from '../tenants/repository.js';
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

type RunWithJob = RunRow & { name: string; type: JobType; application: Application };

export function runView(r: RunWithJob): JobRun {
  return {
    reportId: r.run_id,
    jobId: r.job_id,
    jobName: r.name,
    jobType: r.type,
    application: r.application,
    status: jobStatusOf(r.status),
    progress: Number(r.progress),
    started: iso(r.started),
    finished: iso(r.finished),
    itemsProcessed: Number(r.items_done),
    itemsFailed: Number(r.items_failed),
    bytesProcessed: Number(r.bytes),
    ...(r.message ? { message: r.message } : {}),
  };
}

const RUN_SELECT = `select r.*, j.name, j.type, j.application from job_runs r join jobs j on j.job_id = r.job_id`;

/** The worker's active tenant: the one its jobs belong to. */
async function workerTenant(ctx: AppContext, user: User, workerIp: string): Promise<TenantRecord> {
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
      access: 'session',
      async handler({ workerIp, prefix }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, String(workerIp));
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
      access: 'session',
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
      access: 'session',
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        const { jobId: _, ...changes } = body;
        return scheduledView(await updateJob(ctx, { user, ip: rc.ip }, tenant, job, changes));
      },
    },
    'legacy.jobs.remove': {
      access: 'session',
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        await removeJob(ctx, { user, ip: rc.ip }, tenant, job);
        return undefined;
      },
    },
    'legacy.jobs.start': {
      access: 'session',
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        await queue.requestStart(job);
        await ctx.audit({
          actorUserId: user.id,
          actorEmail: user.email,
          organisationId: tenant.organisationId,
          action: 'job.start',
          target: job.jobId,
          outcome: 'success',
          ip: rc.ip,
        });
        const run = await latestRun(ctx, job.jobId);
        if (!run) throw conflict('The job could not be queued.');
        return runView(run);
      },
    },
    'legacy.jobs.stop': {
      access: 'session',
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { job, tenant } = await jobFor(ctx, user, body.jobId);
        const run = await latestRun(ctx, job.jobId);
        if (!run || (run.status !== 'running' && run.status !== 'queued')) throw conflict('The job is not running.');
        await queue.requestStop(job);
        await ctx.audit({
          actorUserId: user.id,
          actorEmail: user.email,
          organisationId: tenant.organisationId,
          action: 'job.stop',
          target: job.jobId,
          outcome: 'success',
          ip: rc.ip,
        });
        return runView((await latestRun(ctx, job.jobId)) ?? run);
      },
    },
    'legacy.jobs.running': {
      access: 'session',
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
      access: 'session',
      async handler({ body }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, body.workerIp);
        const where = ['r.tenant_id = $1'];
        const params: (string | string[] | Date)[] = [tenant.tenantId];
        const add = (clause: string, value: string | string[] | Date) => {
          params.push(value);
          where.push(clause.replace('?', `$${params.length}`));
        };
        if (body.prefix) add('j.type = ?', FAMILY[body.prefix].type);
        if (body.type?.length) add('j.type = any(?)', body.type);
        if (body.status?.length) {
          const runStatuses = body.status.flatMap((s) =>
            s === 'pending' ? ['queued', 'stopped'] : s === 'running' ? ['running'] : [s],
          );
          add('r.status = any(?)', runStatuses);
        }
        if (body.from) add('r.created_at >= ?', new Date(body.from));
        if (body.to) add('r.created_at <= ?', new Date(body.to));
        if (body.search?.trim()) add(`j.name ilike ?`, `%${body.search.trim().replace(/[%_\\]/g, '\\$&')}%`);
        const sortable: Record<string, string> = {
          started: 'r.started',
          finished: 'r.finished',
          jobName: 'j.name',
          status: 'r.status',
          progress: 'r.progress',
        };
        const order = `${sortable[body.sort ?? 'started'] ?? 'r.started'} ${body.order === 'asc' ? 'asc' : 'desc'} nulls last, r.seq desc`;
        const page = body.page ?? 1;
        const pageSize = body.pageSize ?? 25;
        const [count] = await ctx.db.query<{ n: number }>(
          `select count(*)::int as n from job_runs r join jobs j on j.job_id = r.job_id where ${where.join(' and ')}`,
          params,
        );
        const rows = await ctx.db.query<RunWithJob>(
          `${RUN_SELECT} where ${where.join(' and ')} order by ${order} limit ${pageSize} offset ${(page - 1) * pageSize}`,
          params,
        );
        return { items: rows.map(runView), total: Number(count?.n ?? 0), page, pageSize };
      },
    },
    'legacy.jobs.downloadRestoreArchive': {
      access: 'session',
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
        return createReadStream(path) as never;
      },
    },
    'legacy.jobs.reportDataAccounts': {
      access: 'session',
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const [run] = await ctx.db.query<RunRow>('select * from job_runs where run_id = $1', [body.reportId]);
        if (!run) throw notFound('Report not found');
        await jobFor(ctx, user, run.job_id).catch(() => {
          throw notFound('Report not found');
        });
        const sources = await ctx.db.query<{
          source_id: string;
          items: number;
          failed_items: number;
          bytes: number;
          failed: boolean;
        }>('select * from job_run_sources where run_id = $1 order by source_id', [run.run_id]);
        const errors = await ctx.db.query<{ source_id: string | null; item_name: string; message: string }>(
          'select source_id, item_name, message from job_run_errors where run_id = $1 order by id',
          [run.run_id],
        );
        const runStatus = jobStatusOf(run.status);
        const accounts: RunAccount[] = sources.map((s) => ({
          accountId: s.source_id,
          displayName: s.source_id,
          status: s.failed ? 'failed' : runStatus,
          items: Number(s.items),
          failedItems: Number(s.failed_items),
          bytes: Number(s.bytes),
          errors: errors
            .filter((e) => e.source_id === s.source_id)
            .slice(0, 100)
            .map((e) => `${e.item_name}: ${e.message}`),
        }));
        const search = body.search?.trim().toLowerCase();
        const filtered = accounts.filter(
          (a) => (!body.status || a.status === body.status) && (!search || a.accountId.toLowerCase().includes(search)),
        );
        const page = body.page ?? 1;
        const pageSize = body.pageSize ?? 25;
        return {
          items: filtered.slice((page - 1) * pageSize, page * pageSize),
          total: filtered.length,
          page,
          pageSize,
        };
      },
    },
  });
}
