/**
 * The legacy jobs API of the worker screens: scheduled email, Teams and deletion jobs of the worker's
 * active tenant, their runs, starting and stopping, and a run's report per account.
 */
import {
  type Application,
  type JobType,
  MAILBOX_PARTS,
  type MailboxPart,
  type ScheduledJob,
} from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import type { JobRecord } from '../../jobs/repository.js';
import { queryRuns, runAccounts, runView } from './runs.js';
import {
  createJob,
  jobsOfType,
  removeJob,
  requireUserJob,
  requireUserReport,
  restoreArchiveOf,
  runningRuns,
  startJobRun,
  stopJobRun,
  updateJob,
} from './service.js';

type Prefix = 'email' | 'teams' | 'deletion';

const FAMILY: Record<Prefix, { type: JobType; application: Application }> = {
  email: { type: 'exchangeArchive', application: 'exchange' },
  teams: { type: 'teamsArchive', application: 'teams' },
  deletion: { type: 'archiveDeletion', application: 'exchange' },
};

const prefixOf = (type: JobType): Prefix =>
  type === 'teamsArchive' ? 'teams' : type === 'archiveDeletion' ? 'deletion' : 'email';

const isMailboxPart = (part: string): part is MailboxPart => (MAILBOX_PARTS as readonly string[]).includes(part);

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function scheduledView(j: JobRecord): ScheduledJob {
  return {
    jobId: j.jobId,
    name: j.name,
    type: j.type,
    prefix: prefixOf(j.type),
    sources: j.sources,
    folders: j.folders ?? [],
    recurrence: j.recurrence,
    retention: j.retention,
    // Only an email archive chooses among mail, calendars, contacts and tasks.
    ...(j.include && j.type === 'exchangeArchive' ? { include: j.include.filter(isMailboxPart) } : {}),
    status: j.status,
    enabled: j.enabled,
    progress: j.progress,
    started: iso(j.started),
    finished: iso(j.finished),
    nextRun: iso(j.nextRun),
  };
}

export function legacyJobRoutes(ctx: AppContext) {
  return routes({
    'legacy.jobs.scheduled': {
      async handler({ prefix }, { tenant }) {
        return (await jobsOfType(ctx, tenant, FAMILY[prefix as Prefix].type)).map(scheduledView);
      },
    },
    'legacy.jobs.create': {
      async handler({ body }, { tenant, actor }) {
        const family = FAMILY[body.prefix];
        const job = await createJob(ctx, actor, tenant, {
          name: body.name,
          type: family.type,
          application: family.application,
          sources: body.sources,
          ...(body.folders ? { folders: body.folders } : {}),
          ...(body.recurrence ? { recurrence: body.recurrence } : {}),
          ...(body.retention ? { retention: body.retention } : {}),
          ...(body.include ? { include: body.include } : {}),
        });
        return scheduledView(job);
      },
    },
    'legacy.jobs.update': {
      async handler({ body }, { actor }) {
        const { job, tenant } = await requireUserJob(ctx, actor.user, body.jobId);
        const { jobId: _, ...changes } = body;
        return scheduledView(await updateJob(ctx, actor, tenant, job, changes));
      },
    },
    'legacy.jobs.remove': {
      async handler({ body }, { actor }) {
        const { job, tenant } = await requireUserJob(ctx, actor.user, body.jobId);
        await removeJob(ctx, actor, tenant, job);
        return undefined;
      },
    },
    'legacy.jobs.start': {
      async handler({ body }, { actor }) {
        const { job, tenant } = await requireUserJob(ctx, actor.user, body.jobId);
        return runView(await startJobRun(ctx, actor, tenant, job));
      },
    },
    'legacy.jobs.stop': {
      async handler({ body }, { actor }) {
        const { job, tenant } = await requireUserJob(ctx, actor.user, body.jobId);
        return runView(await stopJobRun(ctx, actor, tenant, job));
      },
    },
    'legacy.jobs.running': {
      async handler(_args, { tenant }) {
        return (await runningRuns(ctx, tenant)).map((r) => runView(r));
      },
    },
    'legacy.jobs.filtered': {
      async handler({ body }, { tenant }) {
        return queryRuns(ctx.db, tenant.tenantId, {
          ...body,
          ...(body.prefix ? { types: [FAMILY[body.prefix].type] } : {}),
          ...(body.type?.length ? { types: body.type } : {}),
        });
      },
    },
    'legacy.jobs.downloadRestoreArchive': {
      async handler({ body }, { actor, reply }) {
        const { job } = await requireUserJob(ctx, actor.user, body.jobId);
        const file = await restoreArchiveOf(ctx, job);
        const name = `restore-${job.name.replace(/[^\w.-]+/g, '_').slice(0, 80)}.zip`;
        reply
          .type('application/zip')
          .header('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`)
          .header('Content-Length', file.size);
        return file.stream;
      },
    },
    'legacy.jobs.reportDataAccounts': {
      async handler({ body }, { actor }) {
        const run = await requireUserReport(ctx, actor.user, body.reportId);
        return runAccounts(ctx.db, run, body);
      },
    },
  });
}
