import type { Migration } from '../migrations.js';

/**
 * Indexes of the reads the portal makes on every page: a tenant's runs newest first (the monitor, the
 * reports, the dashboards' newest run) and its queued or running ones (the legacy running jobs), a tenant's jobs by type and workload (every dashboard figure
 * joins them), and a tenant looked up by its id in any letter case (each tenant-scoped request).
 * Without them each of these reads scans and sorts the whole table as the history grows.
 */
export const migration: Migration = {
  id: 17,
  name: 'read indexes',
  sql: `
create index job_runs_tenant_started on job_runs(tenant_id, started desc, seq desc);
create index job_runs_tenant_active on job_runs(tenant_id, seq) where status in ('queued', 'running');
create index jobs_tenant_type on jobs(tenant_id, type, application);
create index tenants_id_lower on tenants(lower(tenant_id));
`,
};
