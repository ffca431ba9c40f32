/** Apollo monitoring: running and recent job runs, and the accounts inside one run. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import {
  Application,
  JobRun,
  JobStatus,
  JobType,
  listQueryProperties,
  page,
  RunAccount,
  RunAccountsQuery,
} from '../common.js';

/** Schema of the query of `GET /api/{tenantId}/monitoring`. */
export const MonitoringQuery = s.object({
  ...listQueryProperties,
  status: s.optional(JobStatus),
  type: s.optional(JobType),
  application: s.optional(Application),
  jobId: s.optional(s.string()),
  from: s.optional(s.dateTime('Runs started at or after.')),
  to: s.optional(s.dateTime('Runs started before. Not before `from`: a range given backwards is refused with 400.')),
});
/**
 * Which job runs the monitor lists: paging, sorting and search, filtered by status, job type, workload,
 * one job, and when the run started (`from` inclusive, `to` exclusive).
 */
export type MonitoringQuery = s.Static<typeof MonitoringQuery>;

/** Schema of the answer of `POST /api/{tenantId}/monitoring/{reportId}/retry`. */
export const RunRetry = s.object({
  reportId: s.string({ description: 'The new run, queued.' }),
  jobId: s.string(),
  retryOf: s.string({ description: 'The run retried.' }),
  scope: s.oneOfStrings(
    ['failedItems', 'failedSources', 'wholeJob'],
    'What the new run covers: only the failed items, only the accounts, sites or mailboxes that had failures, or the whole job.',
  ),
  count: s.integer({ minimum: 0, description: 'Items or sources retried; 0 for the whole job.' }),
});
/**
 * A retry queued: the new run and what it covers. Only the failed items where the job can pick them
 * out (a restore into an account or site), the accounts, sites or mailboxes with failures (OneDrive
 * and SharePoint backups, the mail archive), else the whole job (a run that failed as a whole or was
 * stopped, a restore as a download, Teams, deletion and clean-up jobs).
 */
export type RunRetry = s.Static<typeof RunRetry>;

/**
 * The catalogue entries of the job monitor: `list` (`GET /api/{tenantId}/monitoring`), `accounts`
 * (the accounts of one run) and `retry` (a new run of a failed or stopped run's job).
 * {@link monitoringApi} binds them.
 */
export const monitoringEndpoints = defineResource('apollo', 'monitoring', {
  list: {
    method: 'GET',
    path: '/api/{tenantId}/monitoring',
    scope: { tenant: 'path' },
    summary: 'Running and recent job runs',
    query: MonitoringQuery,
    response: page(JobRun),
  },
  accounts: {
    method: 'GET',
    path: '/api/{tenantId}/monitoring/{reportId}/accounts',
    scope: { tenant: 'path' },
    summary: 'The accounts of one run, with their items and errors',
    query: RunAccountsQuery,
    response: page(RunAccount),
  },
  retry: {
    method: 'POST',
    path: '/api/{tenantId}/monitoring/{reportId}/retry',
    scope: { tenant: 'path' },
    summary: 'Retry a failed or stopped run (its failed items where the job can, else the whole job)',
    response: RunRetry,
    successStatus: 202,
    refusals: {
      409: 'The run neither failed, nor was stopped, nor has failed items; or its job has a run queued or running.',
    },
  },
});

/**
 * Binds the job monitor to a transport: running and recent job runs ({@link JobRun}) and the accounts,
 * sites, teams or mailboxes inside one run with their items and errors ({@link RunAccount}), both paged
 * lists with `.pages()` and `.items()`. The same methods as `client.apollo.monitoring`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function monitoringApi(transport: Transport) {
  return bindResource(transport, monitoringEndpoints);
}
