import type { JobStatus } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { routes } from '../../http/contract.js';
import { ownValue } from '../../http/list-query.js';
import { JobQueue } from '../../jobs/queue.js';
import { durationOf, type JobRecord, jobView, listJobs } from '../../jobs/repository.js';
import { dataManagementAccounts, queryReports, queryRuns, runAccounts } from './runs.js';
import {
  createJob,
  deletionPreview,
  heldItemsReport,
  removeJob,
  requireJob,
  requireReport,
  retryRun,
  startJob,
  stopJob,
  updateJob,
} from './service.js';

const SORTABLE: Readonly<Record<string, (j: JobRecord) => string | number>> = {
  name: (j: JobRecord) => j.name.toLowerCase(),
  type: (j: JobRecord) => j.type,
  application: (j: JobRecord) => j.application,
  status: (j: JobRecord) => j.status,
  started: (j: JobRecord) => j.started?.getTime() ?? 0,
  finished: (j: JobRecord) => j.finished?.getTime() ?? 0,
  nextRun: (j: JobRecord) => j.nextRun?.getTime() ?? Number.MAX_SAFE_INTEGER,
  // A job that never ran sorts before every ended run (oldest first) and after them newest first.
  lastRun: (j: JobRecord) => j.lastRun?.finished.getTime() ?? 0,
  duration: (j: JobRecord) => (j.lastRun ? (durationOf(j.lastRun) ?? -1) : -1),
  createdAt: (j: JobRecord) => j.createdAt.getTime(),
};

export function jobRoutes(ctx: AppContext) {
  const queue = new JobQueue(ctx);

  return routes({
    'apollo.jobs.list': {
      async handler({ query }, { tenant }) {
        const search = query?.search?.trim().toLowerCase();
        let jobs = (await listJobs(ctx.db, tenant.tenantId)).filter(
          (j) =>
            (!query?.type || j.type === query.type) &&
            (!query?.application || j.application === query.application) &&
            (!query?.status || j.status === (query.status as JobStatus)) &&
            (!search ||
              j.name.toLowerCase().includes(search) ||
              j.sources.some((s) => s.toLowerCase().includes(search))),
        );
        const key = ownValue(SORTABLE, query?.sort, (j: JobRecord) => j.createdAt.getTime());
        const direction = query?.order === 'asc' ? 1 : -1;
        jobs = [...jobs].sort((a, b) => (key(a) < key(b) ? -direction : key(a) > key(b) ? direction : 0));
        const page = query?.page ?? 1;
        const pageSize = query?.pageSize ?? 25;
        return {
          items: jobs.slice((page - 1) * pageSize, page * pageSize).map(jobView),
          total: jobs.length,
          page,
          pageSize,
        };
      },
    },
    'apollo.jobs.deletionPreview': {
      async handler({ body }, { tenant }) {
        return deletionPreview(ctx, tenant, body);
      },
    },
    'apollo.jobs.create': {
      async handler({ body }, { tenant, actor }) {
        return jobView(await createJob(ctx, actor, tenant, body));
      },
    },
    'apollo.jobs.get': {
      async handler({ jobId }, { tenant }) {
        return jobView(await requireJob(ctx.db, tenant, jobId));
      },
    },
    'apollo.jobs.update': {
      async handler({ jobId, body }, { tenant, actor }) {
        const job = await requireJob(ctx.db, tenant, jobId);
        return jobView(await updateJob(ctx, actor, tenant, job, body));
      },
    },
    'apollo.jobs.delete': {
      async handler({ jobId }, { tenant, actor }) {
        const job = await requireJob(ctx.db, tenant, jobId);
        await removeJob(ctx, actor, tenant, job);
        return undefined;
      },
    },
    'apollo.jobs.start': {
      async handler({ jobId }, { tenant, actor }) {
        const job = await requireJob(ctx.db, tenant, jobId);
        const task = await startJob(ctx, actor, tenant, job);
        if (!task) throw new Error('start task missing');
        return task;
      },
    },
    'apollo.jobs.stop': {
      async handler({ jobId }, { tenant, actor }) {
        const job = await requireJob(ctx.db, tenant, jobId);
        const task = await stopJob(ctx, actor, tenant, job);
        if (!task) throw new Error('stop task missing');
        return task;
      },
    },
    'apollo.monitoring.list': {
      async handler({ query }, { tenant }) {
        const { type, ...rest } = query ?? {};
        if (rest.jobId) await requireJob(ctx.db, tenant, rest.jobId);
        return queryRuns(ctx.db, tenant.tenantId, { ...rest, ...(type ? { types: [type] } : {}) });
      },
    },
    'apollo.monitoring.accounts': {
      async handler({ reportId, query }, { tenant }) {
        return runAccounts(ctx.db, await requireReport(ctx, tenant, reportId), query ?? {});
      },
    },
    'apollo.monitoring.retry': {
      async handler({ reportId }, { tenant, actor }) {
        return retryRun(ctx, actor, tenant, await requireReport(ctx, tenant, reportId));
      },
    },
    'apollo.reporting.list': {
      async handler({ query }, { tenant }) {
        const { type, types, ...rest } = query ?? {};
        const chosen = type ? [type] : types?.length ? types : undefined;
        return queryReports(ctx.db, tenant.tenantId, { ...rest, ...(chosen ? { types: chosen } : {}) });
      },
    },
    'apollo.reporting.accounts': {
      async handler({ reportId, query }, { tenant }) {
        return runAccounts(ctx.db, await requireReport(ctx, tenant, reportId), query ?? {});
      },
    },
    'apollo.reporting.dataManagementReports': {
      async handler({ query }, { tenant }) {
        const { type: _, types: __, ...rest } = query ?? {};
        return queryReports(ctx.db, tenant.tenantId, { ...rest, types: ['versionCleanup'] });
      },
    },
    'apollo.reporting.dataManagementAccounts': {
      async handler({ reportId, query }, { tenant }) {
        return dataManagementAccounts(ctx.db, await requireReport(ctx, tenant, reportId), query ?? {});
      },
    },
    'apollo.reporting.heldItems': {
      async handler({ reportId, query }, { tenant, actor }) {
        return heldItemsReport(ctx, tenant, actor.user, await requireReport(ctx, tenant, reportId), query ?? {});
      },
    },
    'apollo.jobs.status': {
      async handler({ jobId, taskId }, { tenant }) {
        const job = await requireJob(ctx.db, tenant, jobId);
        const task = await queue.task(taskId);
        if (!task || task.jobId !== job.jobId) throw notFound('Task not found');
        return task;
      },
    },
  });
}
