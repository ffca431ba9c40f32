/**
 * The first-run guide's steps, each ticked from what the API says: a tenant connected, its newest
 * connection test worked with no permission missing, a storage location, a backup job, a mail archive
 * job.
 */
import type { AuditEntry, StorageLocation, Tenant } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useWorker } from '../../session/use-worker';
import { useApi } from '../../shared/tenant';
import { connectionTestsQuery, jobCountQuery, tenantLocationsQuery, tenantsQuery } from './api/queries';

const STEP_IDS = ['tenant', 'connection', 'locations', 'backup', 'mail'] as const;
export type StepId = (typeof STEP_IDS)[number];

/**
 * The screen where each step is done: the tenants (connected and tested there) and the locations are
 * tabs of the configuration, named in its address.
 */
export const STEP_LINKS = {
  tenant: { to: '/configuration' },
  connection: { to: '/configuration' },
  locations: { to: '/configuration', search: { tab: 'locations' } },
  backup: { to: '/backup-and-restore/backup-jobs' },
  mail: { to: '/archive/jobs' },
} as const satisfies Record<StepId, { to: string; search?: { tab: string } }>;

/** The newest connection test of a tenant, as the audit log keeps it. */
interface ConnectionTest {
  ok: boolean;
  at: string;
  message?: string;
  /** The application permissions the test found missing. */
  missing: string[];
}

export interface SetupFacts {
  /** The tenant the organisation works in (the worker's, else the active one), null without one. */
  tenant: Tenant | null;
  connection: ConnectionTest | null;
  locations: number;
  /** How many locations keep their data in each kind of store (a location from before: the portal's own). */
  locationStores: Record<LocationStore, number>;
  backupJobs: number;
  mailArchiveJobs: number;
}

type LocationStore = NonNullable<StorageLocation['store']>;

/** How many of the locations keep their data in each kind of store. */
function countStores(locations: readonly StorageLocation[]): Record<LocationStore, number> {
  const counts: Record<LocationStore, number> = { server: 0, azureBlob: 0, s3: 0 };
  for (const l of locations) counts[l.store ?? 'server'] += 1;
  return counts;
}

export interface GuideStep {
  id: StepId;
  done: boolean;
}

/** The newest `tenant.connectionTest` entry of this tenant among entries listed newest first. */
function lastConnectionTest(entries: readonly AuditEntry[], tenantId: string): ConnectionTest | null {
  const entry = entries.find((e) => e.target === tenantId);
  if (!entry) return null;
  const { message, missingPermissions } = entry.details;
  return {
    ok: entry.outcome === 'success',
    at: entry.at,
    ...(typeof message === 'string' ? { message } : {}),
    missing: Array.isArray(missingPermissions) ? missingPermissions.filter((p) => typeof p === 'string') : [],
  };
}

export function setupSteps(facts: SetupFacts): GuideStep[] {
  const done: Record<StepId, boolean> = {
    tenant: facts.tenant !== null,
    connection: !!facts.connection?.ok && facts.connection.missing.length === 0,
    locations: facts.locations > 0,
    backup: facts.backupJobs > 0,
    mail: facts.mailArchiveJobs > 0,
  };
  return STEP_IDS.map((id) => ({ id, done: done[id] }));
}

/** The worker's tenant among the organisation's, else the one it works in, else the first. */
export function currentTenant(tenants: readonly Tenant[], organisationId: string, workerTenantId: string) {
  const own = tenants.filter((t) => t.organisationId === organisationId);
  return own.find((t) => t.tenantId === workerTenantId) ?? own.find((t) => t.isActive) ?? own[0] ?? null;
}

/**
 * The facts once every answer is in; undefined while one is missing (loading, failed or offline), with
 * `failed` when one failed.
 */
export function useSetupFacts(): { facts: SetupFacts | undefined; failed: boolean } {
  const api = useApi();
  const worker = useWorker();
  const organisationId = worker?.clientId ?? '';
  const tenants = useQuery(tenantsQuery(api));
  const tenant = tenants.data
    ? currentTenant(tenants.data, organisationId, worker?.tenant_id ?? worker?.stagingtenant_id ?? '')
    : null;
  const tenantId = tenant?.tenantId ?? '';
  const tests = useQuery(connectionTestsQuery(api, organisationId, !!tenantId));
  const locations = useQuery(tenantLocationsQuery(api, tenantId));
  const backupJobs = useQuery(jobCountQuery(api, tenantId, 'backup'));
  const mailArchiveJobs = useQuery(jobCountQuery(api, tenantId, 'exchangeArchive'));
  const failed = [tenants, tests, locations, backupJobs, mailArchiveJobs].some((q) => q.isError);
  if (!tenants.data) return { facts: undefined, failed };
  if (!tenant)
    return {
      facts: {
        tenant: null,
        connection: null,
        locations: 0,
        locationStores: countStores([]),
        backupJobs: 0,
        mailArchiveJobs: 0,
      },
      failed,
    };
  if (!tests.data || !locations.data || backupJobs.data === undefined || mailArchiveJobs.data === undefined)
    return { facts: undefined, failed };
  return {
    facts: {
      tenant,
      connection: lastConnectionTest(tests.data, tenant.tenantId),
      locations: locations.data.length,
      locationStores: countStores(locations.data),
      backupJobs: backupJobs.data,
      mailArchiveJobs: mailArchiveJobs.data,
    },
    failed,
  };
}
