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

export const MonitoringQuery = s.object({
  ...listQueryProperties,
  status: s.optional(JobStatus),
  type: s.optional(JobType),
  application: s.optional(Application),
  jobId: s.optional(s.string()),
  from: s.optional(s.dateTime('Runs started at or after.')),
  to: s.optional(s.dateTime('Runs started before.')),
});
export type MonitoringQuery = s.Static<typeof MonitoringQuery>;

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

/*#__NO_SIDE_EFFECTS__*/
export function monitoringApi(transport: Transport) {
  return bindResource(transport, monitoringEndpoints);
}
