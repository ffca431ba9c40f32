import type { Migration } from '../migrations.js';

/**
 * Fair turns between tenants (jobs/engine.ts, claim): a partner's hundreds of client tenants may all
 * be due at 01:00, and first-queued-first would let one tenant with twenty jobs fill every slot.
 * `served_at` is when the run last got a slot or gave it up (a yield): the tenant whose runs were
 * served longest ago goes first among tenants with as few running. `yields` counts the times the run
 * gave its slot to other tenants' waiting runs after a time slice, so its report can say so.
 *
 * The claim reads, per tenant that has a queued run: how many of its runs are running (and whether
 * one of them waits on Microsoft 365's throttling), and the latest `served_at` of its runs. The first
 * index keeps the running runs apart (a few hundred rows however long the history grows); the second
 * answers "latest served" with one index probe per tenant instead of reading its whole history.
 */
export const migration: Migration = {
  id: 37,
  name: 'fair claims',
  sql: `
alter table job_runs add column served_at timestamptz;
alter table job_runs add column yields integer not null default 0;
create index job_runs_running_tenant on job_runs(tenant_id) where status = 'running';
create index job_runs_tenant_served on job_runs(tenant_id, served_at);
`,
};
