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

/**
 * The catalogue entries of the job monitor: `list` (`GET /api/{tenantId}/monitoring`) and `accounts`
 * (the accounts of one run). {@link monitoringApi} binds them.
 */
export const monitoringEndpoints = defineResource('apollo', 'monitoring', {
  list: {
    method: 'GET',
    path: '/api/{tenantId}/monitoring',
    summary: 'Running and recent job runs',
    query: MonitoringQuery,
    response: page(JobRun),
  },
  accounts: {
    method: 'GET',
    path: '/api/{tenantId}/monitoring/{reportId}/accounts',
    summary: 'The accounts of one run, with their items and errors',
    query: RunAccountsQuery,
    response: page(RunAccount),
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
