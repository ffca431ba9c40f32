/** Apollo jobs: backup, restore, archive, deletion and clean-up jobs of a tenant. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import {
  Application,
  ConflictPolicy,
  JobInclude,
  JobStatus,
  JobType,
  listQueryProperties,
  page,
  Recurrence,
  Retention,
} from '../common.js';
import { custodianProperties } from './ediscovery.js';

/** Where a restore puts what it restores: back where it was, into another account or site, or a download. */
export const RESTORE_TARGETS = ['original', 'other', 'download'] as const;

/** What a restore job restores, and where to. */
export const RestoreSpec = s.object({
  sourceJobId: s.string({ description: 'The backup job whose data is restored.' }),
  snapshot: s.dateTime('The snapshot date to restore from.'),
  sourceId: s.string({ description: 'The account, site or team the items come from.' }),
  nodeIds: s.array(s.string(), { minItems: 1, description: 'Files, folders, sites or channels chosen.' }),
  target: s.oneOfStrings(RESTORE_TARGETS),
  targetId: s.optional(s.string({ description: 'With target other: the account or site restored into.' })),
  conflictPolicy: ConflictPolicy,
});
export type RestoreSpec = s.Static<typeof RestoreSpec>;

/** Which file versions a clean-up job removes. */
export const CleanupRule = s.union([
  s.object({ kind: s.literal('keepNewest'), count: s.integer({ minimum: 1, maximum: 500 }) }),
  s.object({ kind: s.literal('olderThan'), date: s.dateTime() }),
]);
export type CleanupRule = s.Static<typeof CleanupRule>;

/** Schema of a job's last run that ended, as a jobs list shows it. */
export const JobLastRun = s.object({
  reportId: s.string({ description: 'The run; its report has the same id.' }),
  status: s.oneOfStrings(['finished', 'failed', 'stopped'], 'How the run ended.'),
  started: s.nullable(s.dateTime('When it started; null for a run stopped before it started.')),
  finished: s.dateTime('When it ended.'),
  durationSeconds: s.nullable(s.integer({ minimum: 0, description: 'How long it ran; null when it never started.' })),
  itemsFailed: s.integer({
    minimum: 0,
    description: 'Items that failed in it (a finished run with some has warnings).',
  }),
});
/** A job's last run that ended: how (finished, failed or stopped), when, how long it ran, its failed items. */
export type JobLastRun = s.Static<typeof JobLastRun>;

/** A job: what it covers, where it stores, when it runs, its last state and (in lists) its last run. */
export const Job = s.object({
  jobId: s.string(),
  name: s.string({ minLength: 1, maxLength: 120 }),
  type: JobType,
  application: Application,
  sources: s.array(s.string(), { description: 'Accounts, sites, teams, mailboxes or folders the job reads.' }),
  folders: s.optional(s.array(s.string(), { description: 'Mail folder paths such as Inbox/TestOrder.' })),
  chats: s.optional(
    s.array(s.string(), { description: 'Accounts whose Teams chats a Teams archive or deletion job covers.' }),
  ),
  paths: s.optional(
    s.array(s.string(), { description: 'Clean-up only: {driveId}:{path} of the files and folders it covers.' }),
  ),
  locationId: s.nullable(s.string({ description: 'Destination storage location.' })),
  recurrence: s.nullable(Recurrence),
  retention: s.nullable(Retention),
  restore: s.optional(RestoreSpec),
  cleanupRule: s.optional(CleanupRule),
  include: s.optional(JobInclude),
  status: JobStatus,
  enabled: s.boolean('Scheduled runs happen; false after stop until start.'),
  progress: s.integer({ minimum: 0, maximum: 100 }),
  started: s.nullable(s.dateTime()),
  finished: s.nullable(s.dateTime()),
  nextRun: s.nullable(s.dateTime()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
  lastRun: s.optional(JobLastRun),
});
export type Job = s.Static<typeof Job>;

/** Schema of the body of `POST /api/{tenantId}/jobs`. */
export const JobCreate = s.object({
  name: s.string({ minLength: 1, maxLength: 120 }),
  type: JobType,
  application: Application,
  sources: s.array(s.string({ minLength: 1 }), { minItems: 1, maxItems: 10000 }),
  folders: s.optional(s.array(s.string({ minLength: 1, maxLength: 400 }), { uniqueItems: true })),
  chats: s.optional(s.array(s.string({ minLength: 1 }), { uniqueItems: true, maxItems: 10000 })),
  paths: s.optional(s.array(s.string({ minLength: 1, maxLength: 2000 }), { uniqueItems: true, maxItems: 1000 })),
  locationId: s.optional(s.string()),
  recurrence: s.optional(Recurrence),
  retention: s.optional(Retention),
  restore: s.optional(RestoreSpec),
  cleanupRule: s.optional(CleanupRule),
  include: s.optional(JobInclude),
});
/**
 * A new job: its name, type and workload (backup: OneDrive, SharePoint or Teams; restore: those or
 * Exchange; Exchange archive; Teams archive; archive deletion: Exchange or Teams; version clean-up:
 * OneDrive or SharePoint) and its sources, each listed once. Backup and archive jobs write to
 * `locationId`, default the tenant's default location; a restore needs `restore`, an archive deletion a
 * `retention`, a clean-up a `cleanupRule` (and `paths` to cover chosen files and folders of one site or
 * OneDrive). An Exchange archive or SharePoint backup may name what it includes (`include`, default
 * everything). Refused with 400 (field errors) when these do not fit, and with 403 beyond a trial
 * licence's limits.
 */
export type JobCreate = s.Static<typeof JobCreate>;

/** Schema of the body of `PUT /api/{tenantId}/jobs/{jobId}`. */
export const JobUpdate = s.object({
  name: s.optional(s.string({ minLength: 1, maxLength: 120 })),
  sources: s.optional(s.array(s.string({ minLength: 1 }), { minItems: 1, maxItems: 10000 })),
  folders: s.optional(s.array(s.string({ minLength: 1, maxLength: 400 }), { uniqueItems: true })),
  chats: s.optional(s.array(s.string({ minLength: 1 }), { uniqueItems: true, maxItems: 10000 })),
  paths: s.optional(s.array(s.string({ minLength: 1, maxLength: 2000 }), { uniqueItems: true, maxItems: 1000 })),
  locationId: s.optional(s.string()),
  recurrence: s.optional(Recurrence),
  retention: s.optional(Retention),
  cleanupRule: s.optional(CleanupRule),
  include: s.optional(JobInclude),
});
/**
 * A change to a job: only the fields given change; the type, workload and what a restore restores stay.
 * The same rules and trial limits as {@link JobCreate} apply to the result.
 */
export type JobUpdate = s.Static<typeof JobUpdate>;

/** Schema of the query of `GET /api/{tenantId}/jobs`. */
export const JobListQuery = s.object({
  ...listQueryProperties,
  type: s.optional(JobType),
  application: s.optional(Application),
  status: s.optional(JobStatus),
});
/** Paging, sorting and search of a tenant's jobs, filtered by job type, workload and status. */
export type JobListQuery = s.Static<typeof JobListQuery>;

/** A start or stop request in flight; it takes effect a few moments later. */
export const JobTask = s.object({
  taskId: s.string(),
  jobId: s.string(),
  action: s.oneOfStrings(['start', 'stop']),
  status: s.oneOfStrings(['pending', 'running', 'succeeded', 'failed']),
  message: s.optional(s.string()),
});
export type JobTask = s.Static<typeof JobTask>;

/** What an archive deletion with this retention would remove now. */
export const DeletionPreviewRequest = s.object({
  application: s.oneOfStrings(['exchange', 'teams']),
  sources: s.array(s.string({ minLength: 1 }), { description: 'Mailboxes or teams; none for all.' }),
  chats: s.optional(s.array(s.string({ minLength: 1 }), { description: 'Teams only: accounts whose chats go too.' })),
  retention: Retention,
});
export type DeletionPreviewRequest = s.Static<typeof DeletionPreviewRequest>;

/** Schema of a custodian whose items a legal hold keeps from a deletion, in its preview. */
export const DeletionHeldCustodian = s.object({
  caseId: s.string(),
  caseName: s.string({ description: 'The case on legal hold.' }),
  ...custodianProperties,
  items: s.integer({
    minimum: 1,
    description: 'Items of this custodian the deletion would remove but the hold keeps.',
  }),
});
/**
 * A custodian of a case on legal hold (a mailbox, a team or an account's chats, by name) and how many
 * of the items a deletion would otherwise remove the hold keeps of it.
 */
export type DeletionHeldCustodian = s.Static<typeof DeletionHeldCustodian>;

/** Schema of the answer of `POST /api/{tenantId}/jobs/deletion-preview`. */
export const DeletionPreview = s.object({
  before: s.dateTime('Items sent before this instant go.'),
  items: s.integer({ minimum: 0 }),
  bytes: s.integer({ minimum: 0 }),
  sources: s.integer({ minimum: 0, description: 'Mailboxes or teams that lose items.' }),
  held: s.integer({
    minimum: 0,
    description: 'Items sent before `before` that stay: an eDiscovery case on legal hold keeps them.',
  }),
  heldCustodians: s.array(DeletionHeldCustodian, {
    description:
      'Per case on hold and custodian, the items of `held` it keeps (an item two cases or two custodians keep counts for each); only those that keep some.',
  }),
});
/**
 * What an archive deletion with the given retention would remove if it ran now: the items sent before
 * `before`, their size in bytes, and how many mailboxes or teams lose items; apart from them the items
 * as old that a legal hold keeps (`held`), which it would not remove, and which custodians of which
 * cases they are (`heldCustodians`, by name). Nothing is removed.
 */
export type DeletionPreview = s.Static<typeof DeletionPreview>;

/**
 * The catalogue entries of apollo jobs: list, create, read, change and remove a job, start and stop it
 * (asynchronous, with a task to follow), and the archive deletion preview, under
 * `/api/{tenantId}/jobs`. {@link jobsApi} binds them.
 */
export const jobsEndpoints = defineResource('apollo', 'jobs', {
  list: {
    method: 'GET',
    path: '/api/{tenantId}/jobs',
    scope: { tenant: 'path' },
    summary: "A tenant's jobs",
    query: JobListQuery,
    response: page(Job),
  },
  create: {
    method: 'POST',
    path: '/api/{tenantId}/jobs',
    scope: { tenant: 'path' },
    summary: 'Create a job',
    body: JobCreate,
    response: Job,
  },
  get: {
    method: 'GET',
    path: '/api/{tenantId}/jobs/{jobId}',
    scope: { tenant: 'path' },
    summary: 'One job',
    response: Job,
  },
  update: {
    method: 'PUT',
    path: '/api/{tenantId}/jobs/{jobId}',
    scope: { tenant: 'path' },
    summary: 'Change a job',
    body: JobUpdate,
    response: Job,
  },
  delete: {
    method: 'DELETE',
    path: '/api/{tenantId}/jobs/{jobId}',
    scope: { tenant: 'path' },
    summary: 'Remove a job',
    refusals: { 409: 'The job is running; stop it before removing it.' },
  },
  start: {
    method: 'POST',
    path: '/api/{tenantId}/jobs/{jobId}/start',
    scope: { tenant: 'path' },
    summary: 'Start a job now',
    response: JobTask,
    successStatus: 202,
  },
  stop: {
    method: 'POST',
    path: '/api/{tenantId}/jobs/{jobId}/stop',
    scope: { tenant: 'path' },
    summary: 'Stop a running job',
    response: JobTask,
    successStatus: 202,
  },
  deletionPreview: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/jobs/deletion-preview',
    scope: { tenant: 'path' },
    summary: 'How much an archive deletion with this retention would remove now (not in section 7)',
    body: DeletionPreviewRequest,
    response: DeletionPreview,
  },
  status: {
    method: 'GET',
    path: '/api/{tenantId}/jobs/{jobId}/status/{taskId}',
    scope: { tenant: 'path' },
    summary: 'Status of a start or stop task',
    response: JobTask,
  },
});

/**
 * Binds apollo jobs to a transport: a tenant's backup, restore, archive, deletion and clean-up jobs.
 * `start` and `stop` answer 202 with a {@link JobTask} whose `status` tells when the change took
 * effect. The same methods as `client.apollo.jobs`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function jobsApi(transport: Transport) {
  return bindResource(transport, jobsEndpoints);
}
