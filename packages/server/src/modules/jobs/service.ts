/**
 * Creating, changing and removing jobs: the rules every caller meets, whichever API it uses. Trial
 * limits are enforced here, not only in the UI.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type Application,
  type DeletionPreview,
  type DeletionPreviewRequest,
  errorTexts,
  type HeldItem,
  type HeldItemsQuery,
  type JobCreate,
  type JobInclude,
  type JobType,
  type JobUpdate,
  MAILBOX_PARTS,
  type Page,
  SITE_PARTS,
  TRIAL_LIMITS,
} from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { requireTenant } from '../../access/scope.js';
import { retentionScope } from '../../archive-data/archive-filter.js';
import { chatsOf } from '../../archive-data/archive-repository.js';
import { refreshHolds } from '../../archive-data/legal-hold.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { badRequest, conflict, notFound, refusal } from '../../errors.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { retentionCutoff } from '../../jobs/executors/archive.js';
import { restoreArchiveName } from '../../jobs/executors/restore.js';
import { JobQueue } from '../../jobs/queue.js';
import { definitionOf, findJob, type JobDefinition, type JobRecord, type RunRow } from '../../jobs/repository.js';
import { isRetryable, retryScopeOf } from '../../jobs/retry.js';
import { isTimeZone, nextRun } from '../../jobs/schedule.js';
import { openKeptFile } from '../../storage/file-encryption.js';
import { unknownSources } from '../discovery/service.js';
import { readableMailboxes, requireMailboxRead } from '../ediscovery/access.js';
import { keptCustodians } from '../ediscovery/custodians.js';
import type { User } from '../identity/users.js';
import { locationExists } from '../locations/repository.js';
import { locationStoreIdentity } from '../locations/service.js';
import { findOrganisation, type Organisation } from '../organisations/repository.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  activeRuns,
  archivedBeforeFilter,
  archivedSourcesAmong,
  countArchivedBefore,
  countOrganisationJobs,
  defaultLocationId,
  deleteJob,
  findRun,
  findTenantRun,
  insertJob,
  jobHasBackupItems,
  jobHoldsDataOf,
  latestFinishedRun,
  latestRunWithJob,
  listJobsOfType,
  lockActiveRuns,
  lockOrganisation,
  organisationTimeZone,
  updateJobRow,
} from './repository.js';
import { runHeldItems } from './runs.js';
import type { RunViewRow } from './runs-repository.js';

/** Which applications each job type works on. */
const APPLICATIONS: Record<JobType, readonly Application[]> = {
  backup: ['onedrive', 'sharepoint', 'teams'],
  restore: ['onedrive', 'sharepoint', 'teams', 'exchange'],
  exchangeArchive: ['exchange'],
  teamsArchive: ['teams'],
  archiveDeletion: ['exchange', 'teams'],
  versionCleanup: ['onedrive', 'sharepoint'],
};

/** Job types that write into a storage location. */
const WRITES_TO_LOCATION: readonly JobType[] = ['backup', 'exchangeArchive', 'teamsArchive'];

/** The trial licence's refusals, as the SDK words them (tests compare against these). */
export const TRIAL_MESSAGES = {
  backupJobs: errorTexts.trialBackupJobs,
  sources: errorTexts.trialSources(),
  restores: errorTexts.trialRestores,
  noDelete: errorTexts.trialNoDelete(),
} as const;

type Candidate = JobDefinition & { type: JobType; application: Application; locationId: string | null };

/**
 * The parts of each source a job may choose among (an Exchange archive's of a mailbox, a SharePoint
 * backup's of a site); none for the other jobs, which cover what they cover.
 */
function partsOf(job: Pick<Candidate, 'type' | 'application'>): readonly JobInclude[number][] | undefined {
  if (job.type === 'exchangeArchive' && job.application === 'exchange') return MAILBOX_PARTS;
  if (job.type === 'backup' && job.application === 'sharepoint') return SITE_PARTS;
  return undefined;
}

/**
 * What the job stores of `include`: nothing when it names every part, so that a job that chose all
 * reads like one that never chose (and covers a part added later as the others do).
 */
function storedDefinition(job: Candidate): JobDefinition {
  const { include, ...rest } = job;
  const parts = partsOf(job);
  if (!include || !parts || parts.every((p) => include.includes(p))) return definitionOf(rest);
  return definitionOf({ ...rest, include: parts.filter((p) => include.includes(p)) });
}

async function validate(db: Queryable, tenant: TenantRecord, job: Candidate, now: Date) {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (!APPLICATIONS[job.type].includes(job.application)) {
    add('application', `A ${job.type} job works on ${APPLICATIONS[job.type].join(', ')}.`);
  }
  if (new Set(job.sources).size !== job.sources.length) add('sources', 'Each source may be listed once.');
  if (job.chats?.length && !(job.application === 'teams' && ['teamsArchive', 'archiveDeletion'].includes(job.type)))
    add('chats', 'Only Teams archive and deletion jobs cover chats.');
  if (job.paths?.length) {
    if (job.type !== 'versionCleanup') add('paths', 'Only clean-up jobs take paths.');
    else if (job.sources.length !== 1) add('paths', 'A clean-up of chosen paths works on one site or OneDrive.');
    if (job.paths.some((p) => !/^[^:/]+:\//.test(p))) add('paths', 'A path is {driveId}:/folder/name.');
  }
  if (job.include) {
    const parts = partsOf(job);
    if (!parts) add('include', 'Only Exchange archive and SharePoint backup jobs choose what they include.');
    else if (job.include.some((p) => !parts.includes(p)))
      add(
        'include',
        `${job.type === 'backup' ? 'A SharePoint backup' : 'An Exchange archive'} includes any of ${parts.join(', ')}.`,
      );
  }
  const r = job.recurrence;
  if (r) {
    if (r.kind === 'daysOfWeek' && !r.daysOfWeek?.length) add('recurrence.daysOfWeek', 'Choose at least one day.');
    if (r.kind === 'specificDate') {
      if (!r.date) add('recurrence.date', 'Choose the date.');
      else if (new Date(r.date).getTime() <= now.getTime()) add('recurrence.date', 'The date must be in the future.');
    }
    if (r.timeZone && !isTimeZone(r.timeZone)) add('recurrence.timeZone', 'Unknown time zone.');
  }
  if (job.retention?.unit === 'year' && job.retention.value !== 1)
    add('retention.value', 'A retention in years is 1 year.');
  if (job.type === 'archiveDeletion' && !job.retention) add('retention', 'An archive deletion job needs a retention.');
  if (job.type === 'versionCleanup' && !job.cleanupRule) add('cleanupRule', 'A clean-up job needs a rule.');
  if (job.type === 'restore' && !job.restore) add('restore', 'A restore job needs what to restore.');
  if (job.type !== 'restore' && job.restore) add('restore', 'Only restore jobs restore.');
  if (job.restore?.target === 'other' && !job.restore.targetId) add('restore.targetId', 'Choose where to restore to.');
  if (WRITES_TO_LOCATION.includes(job.type) && !job.locationId) add('locationId', 'Choose a storage location.');
  if (Object.keys(errors).length > 0) throw badRequest('Invalid request', errors);

  if (job.locationId) {
    if (!(await locationExists(db, tenant.tenantId, job.locationId))) throw notFound('Location not found');
  }
  if (job.restore) {
    const source = await findJob(db, job.restore.sourceJobId);
    // Mail comes back from the archive (its archive job), everything else from a backup.
    const sourceType = job.application === 'exchange' ? 'exchangeArchive' : 'backup';
    if (!source || source.tenantId !== tenant.tenantId || source.type !== sourceType) {
      throw notFound(job.application === 'exchange' ? 'Exchange Backup Job not found.' : 'Backup job not found');
    }
    if (source.application !== job.application) {
      throw badRequest('Invalid request', { application: ['A restore works on the application of its backup.'] });
    }
  }
}

/**
 * Which discovery names what a job reads: accounts (OneDrive, mailboxes, chats) are the tenant's
 * accounts as the OneDrive discovery lists them all, with or without a mailbox (an archive of an
 * account without one ends with a warning, not a refusal); sites and teams their own.
 */
const discoveryOf = (application: Application): Application => (application === 'exchange' ? 'onedrive' : application);

/** Whether the backup or archive job reads `sourceId` or holds data of it, so a restore can take it from there. */
async function restorableFrom(db: Queryable, jobId: string, sourceId: string) {
  const job = await findJob(db, jobId);
  if (job?.sources.includes(sourceId)) return true;
  return jobHoldsDataOf(db, jobId, sourceId);
}

/**
 * Every account, site, team or mailbox a job names must be the tenant's (404 otherwise): a job of one
 * organisation can never read, restore into or delete another's.
 */
async function checkReferences(ctx: AppContext, tenant: TenantRecord, job: Candidate) {
  const graph = () => dataPlaneOf(ctx).graph(tenant, { interactive: true });
  const unknown = new Set<string>();
  const check = async (application: Application, ids: readonly string[]) => {
    for (const id of await unknownSources(ctx, graph, tenant, discoveryOf(application), ids)) unknown.add(id);
  };
  if (job.type === 'restore' && job.restore) {
    if (!(await restorableFrom(ctx.db, job.restore.sourceJobId, job.restore.sourceId))) {
      unknown.add(job.restore.sourceId);
    }
    // Where it restores to: the original account, site or team, or another of the tenant.
    const targets = job.restore.target === 'other' && job.restore.targetId ? [job.restore.targetId] : [];
    await check(job.application, [...new Set([...job.sources, ...targets])]);
  } else if (job.type === 'archiveDeletion') {
    // A deletion job may name a mailbox or team that has since left the tenant but is archived.
    const archived = await archivedSourcesAmong(ctx.db, tenant.tenantId, job.application, job.sources);
    await check(
      job.application,
      job.sources.filter((id) => !archived.has(id)),
    );
  } else {
    await check(job.application, job.sources);
  }
  if (job.chats?.length) await check('exchange', job.chats);
  if (unknown.size > 0) {
    throw notFound(`Not an account, site or team of this tenant: ${[...unknown].slice(0, 10).join(', ')}`);
  }
}

async function enforceTrial(db: Queryable, org: Organisation | undefined, job: Candidate, except?: string) {
  if (org?.license !== 'trial') return;
  if (job.type === 'backup') {
    if (job.sources.length > TRIAL_LIMITS.sourcesPerBackup) throw refusal(403, 'trialSources');
    if (
      (await countOrganisationJobs(db, org.id, 'backup', job.application, except ?? '')) >=
      TRIAL_LIMITS.backupJobsPerApplication
    ) {
      throw refusal(403, 'trialBackupJobs', job.application);
    }
  }
  if (job.type === 'restore' && !except) {
    if (
      (await countOrganisationJobs(db, org.id, 'restore', job.application, '')) >= TRIAL_LIMITS.restoresPerApplication
    ) {
      throw refusal(403, 'trialRestores', job.application);
    }
  }
}

async function timeZoneOf(db: Queryable, organisationId: string) {
  return (await organisationTimeZone(db, organisationId)) ?? 'UTC';
}

export async function createJob(ctx: AppContext, actor: Actor, tenant: TenantRecord, body: JobCreate) {
  const now = ctx.now();
  const org = await findOrganisation(ctx.db, tenant.organisationId);
  const candidate: Candidate = {
    type: body.type,
    application: body.application,
    sources: body.sources.map((s) => s.trim()),
    ...(body.folders ? { folders: body.folders } : {}),
    ...(body.chats?.length ? { chats: body.chats.map((c) => c.trim()) } : {}),
    ...(body.paths?.length ? { paths: body.paths } : {}),
    recurrence: body.recurrence ?? null,
    retention: body.retention ?? null,
    ...(body.restore ? { restore: body.restore } : {}),
    ...(body.cleanupRule ? { cleanupRule: body.cleanupRule } : {}),
    ...(body.include ? { include: body.include } : {}),
    locationId:
      body.locationId ??
      (WRITES_TO_LOCATION.includes(body.type) ? await defaultLocationId(ctx.db, tenant.tenantId) : null),
  };
  await validate(ctx.db, tenant, candidate, now);
  await checkReferences(ctx, tenant, candidate);
  // Archived mail restored anywhere but its own mailbox (another mailbox, or a download) is read by
  // the restorer: eDiscovery's right to read that mailbox is needed, as for its downloads.
  if (candidate.application === 'exchange' && candidate.restore && candidate.restore.target !== 'original') {
    const graph = () => dataPlaneOf(ctx).graph(tenant, { interactive: true });
    await requireMailboxRead(ctx, graph, tenant, actor, candidate.restore.sourceId, 'archive.restore');
  }
  const jobId = randomUUID();
  await ctx.db.transaction(async (tx) => {
    // Serialise creations per organisation so two requests cannot both pass a trial limit.
    await lockOrganisation(tx, tenant.organisationId);
    await enforceTrial(tx, org, candidate);
    const next = nextRun({
      recurrence: candidate.recurrence,
      after: now,
      createdAt: now,
      organisationTimeZone: await timeZoneOf(tx, tenant.organisationId),
    });
    await insertJob(tx, {
      jobId,
      tenantId: tenant.tenantId,
      name: body.name.trim(),
      type: candidate.type,
      application: candidate.application,
      locationId: candidate.locationId,
      definition: storedDefinition(candidate),
      nextRun: next,
      createdBy: actor.user.id,
      createdAt: now,
    });
    // Restores, and jobs that start after creation, run now.
    if (candidate.type === 'restore' || candidate.recurrence?.kind === 'afterCreation') {
      await new JobQueue(ctx).enqueue(jobId, 'creation', tx);
    }
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: candidate.type === 'restore' ? 'restore.create' : 'job.create',
        target: jobId,
        outcome: 'success',
        details: { type: candidate.type, application: candidate.application, sources: candidate.sources.length },
      },
      tx,
    );
  });
  const job = await findJob(ctx.db, jobId);
  if (!job) throw new Error('job insert returned nothing');
  return job;
}

/**
 * Whether moving the job to `locationId` would leave its stored versions behind: a backup's versions
 * are read from its location's store, so once it has stored any it may move only to a location of the
 * same store. (Archived items record their location themselves, so an archive job may move freely.)
 */
async function backupMovesStore(db: Queryable, job: JobRecord, locationId: string | null): Promise<boolean> {
  if (job.type !== 'backup') return false;
  if (!(await jobHasBackupItems(db, job.jobId))) return false;
  return (await locationStoreIdentity(db, job.locationId)) !== (await locationStoreIdentity(db, locationId));
}

export async function updateJob(ctx: AppContext, actor: Actor, tenant: TenantRecord, job: JobRecord, body: JobUpdate) {
  const now = ctx.now();
  const org = await findOrganisation(ctx.db, tenant.organisationId);
  const candidate: Candidate = {
    type: job.type,
    application: job.application,
    sources: body.sources?.map((s) => s.trim()) ?? job.sources,
    ...((body.folders ?? job.folders) ? { folders: body.folders ?? job.folders } : {}),
    ...((body.chats ?? job.chats)?.length ? { chats: body.chats ?? job.chats } : {}),
    ...((body.paths ?? job.paths)?.length ? { paths: body.paths ?? job.paths } : {}),
    recurrence: body.recurrence ?? job.recurrence,
    retention: body.retention ?? job.retention,
    ...(job.restore ? { restore: job.restore } : {}),
    ...((body.cleanupRule ?? job.cleanupRule) ? { cleanupRule: body.cleanupRule ?? job.cleanupRule } : {}),
    ...((body.include ?? job.include) ? { include: body.include ?? job.include } : {}),
    locationId: body.locationId ?? job.locationId,
  };
  await validate(ctx.db, tenant, candidate, now);
  if (body.sources || body.chats) await checkReferences(ctx, tenant, candidate);
  if (candidate.locationId !== job.locationId && (await backupMovesStore(ctx.db, job, candidate.locationId))) {
    throw refusal(409, 'jobLocationHoldsData');
  }
  await ctx.db.transaction(async (tx) => {
    await enforceTrial(tx, org, candidate, job.jobId);
    const next = job.enabled
      ? nextRun({
          recurrence: candidate.recurrence,
          after: now,
          createdAt: job.createdAt,
          organisationTimeZone: await timeZoneOf(tx, tenant.organisationId),
        })
      : null;
    await updateJobRow(tx, {
      jobId: job.jobId,
      name: body.name?.trim() ?? job.name,
      locationId: candidate.locationId,
      definition: storedDefinition(candidate),
      nextRun: next,
      updatedAt: now,
    });
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'job.update',
        target: job.jobId,
        outcome: 'success',
        details: { changed: Object.keys(body) },
      },
      tx,
    );
  });
  const updated = await findJob(ctx.db, job.jobId);
  if (!updated) throw notFound('Job not found');
  return updated;
}

export async function removeJob(ctx: AppContext, actor: Actor, tenant: TenantRecord, job: JobRecord) {
  const org = await findOrganisation(ctx.db, tenant.organisationId);
  if (org?.license === 'trial' && job.type === 'backup') throw refusal(403, 'trialNoDelete');
  await ctx.db.transaction(async (tx) => {
    if (await lockActiveRuns(tx, job.jobId)) throw conflict('Stop the job before removing it.');
    await deleteJob(tx, job.jobId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'job.remove',
        target: job.jobId,
        outcome: 'success',
        details: { type: job.type, name: job.name },
      },
      tx,
    );
  });
}

/** The job, or 404 when it is not this tenant's. */
export async function requireJob(db: Queryable, tenant: TenantRecord, jobId: string): Promise<JobRecord> {
  const job = await findJob(db, jobId);
  if (!job || job.tenantId !== tenant.tenantId) throw notFound('Job not found');
  return job;
}

/** A job the user may act on, whatever its tenant (the legacy API names jobs without their tenant), or 404. */
export async function requireUserJob(
  ctx: AppContext,
  user: User,
  jobId: string,
): Promise<{ job: JobRecord; tenant: TenantRecord }> {
  const job = await findJob(ctx.db, jobId);
  if (!job) throw notFound('Job not found');
  const tenant = await requireTenant(ctx, user, job.tenantId).catch(() => {
    throw notFound('Job not found');
  });
  return { job: await requireJob(ctx.db, tenant, jobId), tenant };
}

/** The tenant's jobs of one type, newest first. */
export function jobsOfType(ctx: AppContext, tenant: TenantRecord, type: JobType): Promise<JobRecord[]> {
  return listJobsOfType(ctx.db, tenant.tenantId, type);
}

/** Start: enables the job's schedule and queues a run now (see JobQueue.requestStart); audited. */
export async function startJob(ctx: AppContext, actor: Actor, tenant: TenantRecord, job: JobRecord) {
  const task = await new JobQueue(ctx).requestStart(job);
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'job.start',
    target: job.jobId,
    outcome: 'success',
  });
  return task;
}

/** Stop: disables the job's schedule and stops its run (see JobQueue.requestStop); audited. */
export async function stopJob(ctx: AppContext, actor: Actor, tenant: TenantRecord, job: JobRecord) {
  const task = await new JobQueue(ctx).requestStop(job);
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'job.stop',
    target: job.jobId,
    outcome: 'success',
  });
  return task;
}

/** What a retry covers, in the contract's words. */
const SCOPE_NAMES = { items: 'failedItems', sources: 'failedSources', job: 'wholeJob' } as const;

/**
 * Retry: queues a new run of the run's job covering only its failed items where the job can pick
 * them out, else the whole job (jobs/retry.ts); the schedule stays as it is. 409 for a run that
 * neither failed, nor was stopped, nor has failed items, and while the job has a run queued or
 * running. Audited.
 */
export async function retryRun(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  run: RunRow,
): Promise<{
  reportId: string;
  jobId: string;
  retryOf: string;
  scope: (typeof SCOPE_NAMES)[keyof typeof SCOPE_NAMES];
  count: number;
}> {
  if (!isRetryable(run)) throw conflict('Only a failed or stopped run, or one with failed items, can be retried.');
  const job = await findJob(ctx.db, run.job_id);
  if (!job || job.tenantId !== tenant.tenantId) throw notFound('Report not found');
  const scope = await retryScopeOf(ctx.db, job, run);
  const runId = await ctx.db.transaction((tx) =>
    new JobQueue(ctx).enqueue(job.jobId, 'retry', tx, { of: run.run_id, scope }),
  );
  if (!runId) throw conflict('The job has a run queued or running; retry once it ended.');
  const count = scope.kind === 'items' ? scope.keys.length : scope.kind === 'sources' ? scope.sources.length : 0;
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'job.retry',
    target: job.jobId,
    outcome: 'success',
    details: { run: run.run_id, retry: runId, scope: SCOPE_NAMES[scope.kind], count },
  });
  return { reportId: runId, jobId: job.jobId, retryOf: run.run_id, scope: SCOPE_NAMES[scope.kind], count };
}

/** The job's latest run, with its job's name, type and application. */
function latestRun(ctx: AppContext, job: JobRecord): Promise<RunViewRow | undefined> {
  return latestRunWithJob(ctx.db, job.jobId);
}

/** Starts the job and answers its queued run; 409 when none was queued. */
export async function startJobRun(ctx: AppContext, actor: Actor, tenant: TenantRecord, job: JobRecord) {
  await startJob(ctx, actor, tenant, job);
  const run = await latestRun(ctx, job);
  if (!run) throw conflict('The job could not be queued.');
  return run;
}

/** Stops the job's queued or running run and answers it as it is then; 409 when none is. */
export async function stopJobRun(ctx: AppContext, actor: Actor, tenant: TenantRecord, job: JobRecord) {
  const run = await latestRun(ctx, job);
  if (!run || (run.status !== 'running' && run.status !== 'queued')) throw conflict('The job is not running.');
  await stopJob(ctx, actor, tenant, job);
  return (await latestRun(ctx, job)) ?? run;
}

/** The tenant's queued and running runs, oldest first. */
export function runningRuns(ctx: AppContext, tenant: TenantRecord): Promise<RunViewRow[]> {
  return activeRuns(ctx.db, tenant.tenantId);
}

/** A run of this tenant (its report), or 404. */
export async function requireReport(ctx: AppContext, tenant: TenantRecord, reportId: string): Promise<RunRow> {
  const run = await findTenantRun(ctx.db, tenant.tenantId, reportId);
  if (!run) throw notFound('Report not found');
  return run;
}

/** A run (its report) of a job the user may act on, whatever its tenant, or 404. */
export async function requireUserReport(ctx: AppContext, user: User, reportId: string): Promise<RunRow> {
  const run = await findRun(ctx.db, reportId);
  if (!run) throw notFound('Report not found');
  await requireUserJob(ctx, user, run.job_id).catch(() => {
    throw notFound('Report not found');
  });
  return run;
}

/**
 * The zip a restore as a download made (its latest finished run's), as a path on this server; 409 for
 * another job, 404 while there is none yet.
 */
/** A restore's download, as a stream from the store of its backup's location (whichever process wrote it). */
export async function restoreArchiveOf(ctx: AppContext, job: JobRecord): Promise<{ size: number; stream: Readable }> {
  if (job.type !== 'restore' || job.restore?.target !== 'download') {
    throw conflict('This restore does not prepare a download.');
  }
  const run = await latestFinishedRun(ctx.db, job.jobId);
  const source = await findJob(ctx.db, job.restore.sourceJobId);
  const plane = dataPlaneOf(ctx);
  const files = await plane.filesAt(source?.locationId ?? null);
  const file = run ? await files.open(restoreArchiveName(run.run_id)) : undefined;
  if (!file) throw notFound('The download is not ready yet.');
  return openKeptFile(plane.keys, file);
}

/**
 * The items a deletion run kept on legal hold (runs.ts), their subjects where `user` may read them
 * (the mailboxes eDiscovery opens to them, and their chats).
 */
export async function heldItemsReport(
  ctx: AppContext,
  tenant: TenantRecord,
  user: User,
  run: RunRow,
  query: HeldItemsQuery,
): Promise<Page<HeldItem>> {
  const connect = () => dataPlaneOf(ctx).graph(tenant, { interactive: true });
  const mailboxes = await readableMailboxes(ctx, connect, tenant, user);
  const chats = await chatsOf(ctx.db, tenant.tenantId, mailboxes);
  return runHeldItems(ctx.db, run, { mailboxes, chats }, query);
}

/**
 * How much an archive deletion with this retention would remove now, how much legal holds keep, and of
 * which custodians of which cases (counts and names only: no content, so whoever may act for the
 * tenant sees them).
 */
export async function deletionPreview(
  ctx: AppContext,
  tenant: TenantRecord,
  input: DeletionPreviewRequest,
): Promise<DeletionPreview> {
  const before = retentionCutoff(ctx.now(), input.retention);
  // Items archived since the holds last looked are counted as a run would find them.
  await refreshHolds(ctx.db, tenant.tenantId);
  const scope = retentionScope(
    input.application === 'exchange' ? 'mail' : 'teams',
    input.sources,
    input.chats ?? [],
    3,
  );
  const counts = await countArchivedBefore(ctx.db, tenant.tenantId, before, scope);
  const heldCustodians =
    counts.held > 0 ? await keptCustodians(ctx.db, tenant.tenantId, archivedBeforeFilter(before, scope)) : [];
  return { before: before.toISOString(), ...counts, heldCustodians };
}
