import type { Application } from '@compliance-portal/sdk';
import { scopeKeys, sharedKeys } from '../../../shared/api/keys';

/**
 * The keys of the backup area. Its dashboards sit under the tenant's `dashboard`, the backups a restore
 * starts from and the restores under its `jobs`, the snapshots under its `monitoring` (so that a job's
 * change reaches them), and the browsing of a snapshot under `snapshot` (read live only).
 */
export const backupKeys = {
  /** Everything read for the tenant: what a saved job may change. */
  tenant: (tenantId: string) => scopeKeys.tenant(tenantId),
  jobs: (tenantId: string) => sharedKeys.jobs(tenantId),
  dashboard: (tenantId: string, application: Application, view: 'basic' | 'size' | 'details') =>
    [...sharedKeys.dashboards(tenantId), application, view] as const,
  /** Every backup job, for the restore's first choice. */
  backups: (tenantId: string) => sharedKeys.jobList(tenantId, { type: 'backup', pageSize: 500 }),
  /** How many restores of an application there are (a trial's limit). */
  restores: (tenantId: string, application: Application | undefined) =>
    sharedKeys.jobList(tenantId, { type: 'restore', application }),
  /** One job, asked about while it runs (a restore's progress). */
  job: (tenantId: string, jobId: string | undefined) => [...sharedKeys.jobs(tenantId), jobId] as const,
  /** The finished runs of a backup: the dates a restore can go back to. */
  snapshots: (tenantId: string, jobId: string) => sharedKeys.runList(tenantId, { jobId, status: 'finished' }),
  /** A page of one folder of a snapshot. */
  snapshotFolder: (
    tenantId: string,
    jobId: string,
    sourceId: string,
    snapshot: string,
    nodeId: string,
    query: object,
  ) => [...scopeKeys.tenant(tenantId), 'snapshot', jobId, sourceId, snapshot, nodeId, query] as const,
};
