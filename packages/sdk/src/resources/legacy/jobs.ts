/** Legacy jobs: the worker's scheduled email, Teams and deletion jobs and their runs. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import {
  JobRun,
  JobStatus,
  JobType,
  listQueryProperties,
  MAILBOX_PARTS,
  page,
  Recurrence,
  Retention,
  RunAccount,
} from '../common.js';

/** The job family a scheduled-jobs list is for. */
export const JobPrefix = s.oneOfStrings(['email', 'teams', 'deletion']);
export type JobPrefix = s.Static<typeof JobPrefix>;

/** Schema of what an email archive job archives of each mailbox. */
const MailboxInclude = s.array(s.oneOfStrings(MAILBOX_PARTS), {
  minItems: 1,
  maxItems: MAILBOX_PARTS.length,
  uniqueItems: true,
  description: 'Email archive only: any of mail, calendars, contacts, tasks; absent for all of them.',
});

/** Schema of a scheduled job, as the legacy job calls answer it. */
export const ScheduledJob = s.object({
  jobId: s.string(),
  name: s.string(),
  type: JobType,
  prefix: JobPrefix,
  sources: s.array(s.string(), { description: 'Mailboxes or teams.' }),
  folders: s.array(s.string(), { description: 'Folder paths such as Inbox/TestOrder; empty for all.' }),
  recurrence: s.nullable(Recurrence),
  retention: s.nullable(Retention),
  include: s.optional(MailboxInclude),
  status: JobStatus,
  enabled: s.boolean(),
  progress: s.integer({ minimum: 0, maximum: 100 }),
  started: s.nullable(s.dateTime()),
  finished: s.nullable(s.dateTime()),
  nextRun: s.nullable(s.dateTime()),
});
/**
 * A scheduled email archive, Teams archive or archive deletion job of the worker's tenant: its family
 * (`prefix`), the mailboxes or teams it covers, its folder paths (empty for all), recurrence,
 * retention, what an email archive archives of each mailbox (`include`, absent for mail, calendars,
 * contacts and tasks), status and progress (0 to 100), and its last and next runs. `enabled` is false after a
 * stop until the next start.
 */
export type ScheduledJob = s.Static<typeof ScheduledJob>;

const jobFields = {
  name: s.string({ minLength: 1, maxLength: 120 }),
  sources: s.array(s.string({ minLength: 1 }), { minItems: 1 }),
  folders: s.optional(s.array(s.string({ minLength: 1, maxLength: 400 }), { uniqueItems: true })),
  recurrence: s.optional(Recurrence),
  retention: s.optional(Retention),
  include: s.optional(MailboxInclude),
};

/** Schema of the body of `POST /jobs/scheduled-job/create`. */
export const ScheduledJobCreate = s.object({ workerIp: s.string({ minLength: 1 }), prefix: JobPrefix, ...jobFields });
/**
 * A new scheduled job on a worker's tenant: its family (`email`, `teams` or `deletion`), name, at least
 * one mailbox or team, optional folder paths, recurrence and retention (an archive deletion needs one),
 * and for an email archive what it archives of each mailbox (default everything).
 */
export type ScheduledJobCreate = s.Static<typeof ScheduledJobCreate>;

/** Schema of the body of `POST /jobs/scheduled-job/update`. */
export const ScheduledJobUpdate = s.object({
  jobId: s.string({ minLength: 1 }),
  name: s.optional(jobFields.name),
  sources: s.optional(jobFields.sources),
  folders: jobFields.folders,
  recurrence: jobFields.recurrence,
  retention: jobFields.retention,
  include: jobFields.include,
});
/** A change to a scheduled job: only the fields given change; the family stays. */
export type ScheduledJobUpdate = s.Static<typeof ScheduledJobUpdate>;

/** Schema of the body that names one job: remove, start, stop, and the restore archive download. */
export const JobRef = s.object({ jobId: s.string({ minLength: 1 }) });
/** The job a legacy job call acts on. */
export type JobRef = s.Static<typeof JobRef>;

/** Schema of the body of `POST /filtered-jobs`. */
export const FilteredJobsRequest = s.object({
  ...listQueryProperties,
  workerIp: s.string({ minLength: 1 }),
  prefix: s.optional(JobPrefix),
  status: s.optional(s.array(JobStatus)),
  type: s.optional(s.array(JobType)),
  from: s.optional(s.dateTime()),
  to: s.optional(s.dateTime('Runs started before. Not before `from`: a range given backwards is refused with 400.')),
});
/**
 * Which runs of a worker's tenant to list: paging, sorting and search, filtered by job family,
 * statuses, job types and when the run started (`from` inclusive, `to` exclusive).
 */
export type FilteredJobsRequest = s.Static<typeof FilteredJobsRequest>;

/** Schema of the body of `POST /backup-and-restore/scheduled-job/report-data-accounts`. */
export const ReportDataAccountsRequest = s.object({
  ...listQueryProperties,
  reportId: s.string({ minLength: 1 }),
  status: s.optional(JobStatus),
});
/**
 * Which accounts of a run's report to list: the report (the run), paging, sorting and search, filtered
 * by status.
 */
export type ReportDataAccountsRequest = s.Static<typeof ReportDataAccountsRequest>;

/**
 * The catalogue entries of legacy jobs: runs in progress, scheduled jobs and their create, update,
 * remove, start and stop, filtered runs, a run's accounts, and the restore archive download. {@link
 * legacyJobsApi} binds them.
 */
export const legacyJobsEndpoints = defineResource('legacy', 'jobs', {
  running: {
    method: 'GET',
    path: '/backup-and-restore/running-jobs',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'Runs in progress',
    query: s.object({ workerIp: s.string({ minLength: 1 }) }),
    response: s.array(JobRun),
  },
  scheduled: {
    method: 'GET',
    path: '/backup-and-restore/scheduled-jobs/{workerIp}/{prefix}',
    scope: { workerTenant: { in: 'path', name: 'workerIp' } },
    summary: 'Scheduled jobs of one family',
    params: s.object({ workerIp: s.string(), prefix: JobPrefix }),
    response: s.array(ScheduledJob),
  },
  create: {
    method: 'POST',
    path: '/jobs/scheduled-job/create',
    scope: { workerTenant: { in: 'body', name: 'workerIp' } },
    summary: 'Create a scheduled job',
    body: ScheduledJobCreate,
    response: ScheduledJob,
  },
  update: {
    method: 'POST',
    path: '/jobs/scheduled-job/update',
    scope: 'caller',
    summary: 'Change a scheduled job',
    body: ScheduledJobUpdate,
    response: ScheduledJob,
  },
  remove: {
    method: 'POST',
    path: '/jobs/scheduled-job/remove',
    scope: 'caller',
    summary: 'Remove a scheduled job',
    body: JobRef,
    refusals: { 409: 'The job is running; stop it before removing it.' },
  },
  start: {
    method: 'POST',
    path: '/backup-and-restore/scheduled-job/start',
    scope: 'caller',
    summary: 'Start a scheduled job now',
    body: JobRef,
    response: JobRun,
    successStatus: 202,
    refusals: { 409: 'The job could not be queued (it is already queued or running).' },
  },
  stop: {
    method: 'POST',
    path: '/backup-and-restore/stop-running-job',
    scope: 'caller',
    summary: 'Stop a running job',
    body: JobRef,
    response: JobRun,
    successStatus: 202,
    refusals: { 409: 'The job is neither queued nor running.' },
  },
  filtered: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/filtered-jobs',
    scope: { workerTenant: { in: 'body', name: 'workerIp' } },
    summary: 'Runs matching a filter',
    body: FilteredJobsRequest,
    response: page(JobRun),
  },
  reportDataAccounts: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/backup-and-restore/scheduled-job/report-data-accounts',
    scope: 'caller',
    summary: "A run's accounts",
    body: ReportDataAccountsRequest,
    response: page(RunAccount),
  },
  downloadRestoreArchive: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/backup-and-restore/download-restore-archive',
    scope: 'caller',
    summary: "Download a restore-to-download job's archive",
    body: JobRef,
    responseKind: 'blob',
    refusals: { 409: 'The restore did not prepare a download (its target is not a download).' },
    contentTypes: ['application/zip'],
  },
});

/**
 * Binds legacy jobs to a transport: the worker's scheduled email, Teams and deletion jobs and their
 * runs. A worker without a tenant is answered with 404 ("No Tenant was found in the Configuration.
 * Please configure one."). The same methods as `client.legacy.jobs`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function legacyJobsApi(transport: Transport) {
  return bindResource(transport, legacyJobsEndpoints);
}
