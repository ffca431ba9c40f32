import type { Migration } from '../migrations.js';

/**
 * Indexes of a partner's fleet, which reads every client's figures at once (grouped by tenant):
 * - a job's newest successful run (finished without failed items) is one probe instead of a walk
 *   through its whole history, for each job of each client;
 * - a tenant's newest connection test, which is kept only as its audit entry, is one probe instead of
 *   a scan of the audit log;
 * - a partner's clients are found without reading every organisation.
 */
export const migration: Migration = {
  id: 35,
  name: 'fleet indexes',
  sql: `
create index job_runs_job_success on job_runs(job_id, finished desc) where status = 'finished' and items_failed = 0;
create index audit_connection_tests on audit_log(target, seq desc) where action = 'tenant.connectionTest';
create index organisations_partner on organisations(partner_id) where partner_id is not null;
`,
};
