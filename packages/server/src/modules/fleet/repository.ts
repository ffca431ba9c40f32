/**
 * The SQL of a partner's fleet: every figure of every client at once, each query grouped by tenant
 * (never one query per client), so 500 clients cost the same handful of round trips as five.
 *
 * The dashboards answer the same questions for one tenant (dashboards/service.ts, overview.ts); their
 * queries take one tenant id, so they are not called 500 times here: these are their set-based twins,
 * with the same definitions (a source covered by a job's `definition.sources`, found by discovery in
 * `discovered_sources`; stored bytes from the usage totals of migration 18).
 */
import type { FleetArea } from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';
import type { LicenseKind } from '../organisations/repository.js';

/** The area a job belongs to, or null (a restore, a deletion, a clean-up…); `j` is the job. */
export const AREA_OF_JOB = `case
  when j.type = 'backup' then case j.application
    when 'onedrive' then 'oneDrive' when 'sharepoint' then 'sharePoint' when 'teams' then 'teams' end
  when j.type = 'exchangeArchive' then 'mailArchive'
  when j.type = 'teamsArchive' then 'teamsArchive'
end`;

/**
 * The tenants asked for as a table (`fleet`), joined rather than matched with `= any($1)`: an array of
 * 500 ids is searched row by row, a joined table by a hash.
 */
const FLEET = 'unnest($1::text[]) as fleet(tenant_id)';

/** The moment a run counts at in a period: its start, or its queueing while it has not started. */
const RUN_AT = 'coalesce(r.started, r.created_at)';

/** The job types whose runs store what the client keeps (their `bytes` are the bytes they stored). */
const STORING_TYPES = ['backup', 'exchangeArchive', 'teamsArchive'];

/** The clients of one partner, or of every partner (`null`, for an operator). */
export type FleetScope = { partnerId: string } | null;

export interface FleetClientRow {
  clientId: string;
  name: string;
  abbr: string;
  license: LicenseKind;
  licenseValidUntil: Date | null;
  workerIp: string;
  /** The worker's active tenant, when it has one that is its organisation's. */
  tenantId: string | null;
  tenantDomain: string | null;
  hasLocation: boolean;
}

/** The clients with their worker, active tenant and whether that tenant has a storage location. */
export async function fleetClients(db: Queryable, scope: FleetScope): Promise<FleetClientRow[]> {
  const rows = await db.query<{
    id: string;
    name: string;
    abbr: string;
    license: LicenseKind;
    license_valid_until: Date | null;
    worker_ip: string;
    tenant_id: string | null;
    default_domain: string | null;
    has_location: boolean | null;
  }>(
    `select o.id, o.name, o.abbr, o.license, o.license_valid_until, w.worker_ip, t.tenant_id, t.default_domain,
            exists (select 1 from locations l where l.tenant_id = t.tenant_id) as has_location
       from organisations o join workers w on w.organisation_id = o.id
       left join tenants t on t.tenant_id = lower(w.stagingtenant_id) and t.organisation_id = o.id
      where ${scope ? 'o.partner_id = $1' : 'o.partner_id is not null'}`,
    scope ? [scope.partnerId] : [],
  );
  return rows.map((r) => ({
    clientId: r.id,
    name: r.name,
    abbr: r.abbr,
    license: r.license,
    licenseValidUntil: r.license_valid_until ? new Date(r.license_valid_until) : null,
    workerIp: r.worker_ip,
    tenantId: r.tenant_id,
    tenantDomain: r.default_domain,
    hasLocation: r.has_location === true,
  }));
}

export interface FleetRunRow {
  tenantId: string;
  /** Null for runs of jobs outside the five areas (restores, deletions, clean-ups). */
  area: FleetArea | null;
  failed24h: number;
  failed7d: number;
  warnings24h: number;
  warnings7d: number;
  /** Bytes the area's runs stored in the period. */
  storedBytes7d: number;
}

/**
 * The runs of the period per tenant and area: failed ones, finished ones with warnings (items not
 * processed), over the last 24 hours and the whole period, and the bytes the storing runs stored.
 */
export async function fleetRuns(
  db: Queryable,
  tenantIds: readonly string[],
  since7d: Date,
  since24h: Date,
): Promise<FleetRunRow[]> {
  const rows = await db.query<{
    tenant_id: string;
    area: FleetArea | null;
    failed24: number;
    failed7: number;
    warnings24: number;
    warnings7: number;
    stored: number | string;
  }>(
    `with per_job as (
       select r.job_id,
              count(*) filter (where r.status = 'failed' and ${RUN_AT} >= $3) as failed24,
              count(*) filter (where r.status = 'failed') as failed7,
              count(*) filter (where r.status = 'finished' and r.warnings > 0 and ${RUN_AT} >= $3) as warnings24,
              count(*) filter (where r.status = 'finished' and r.warnings > 0) as warnings7,
              sum(r.bytes) as stored
         from job_runs r join ${FLEET} using (tenant_id)
        where ${RUN_AT} >= $2
        group by r.job_id)
     select j.tenant_id, ${AREA_OF_JOB} as area,
            sum(p.failed24)::int as failed24, sum(p.failed7)::int as failed7,
            sum(p.warnings24)::int as warnings24, sum(p.warnings7)::int as warnings7,
            coalesce(sum(p.stored) filter (where j.type = any($4)), 0)::bigint as stored
       from per_job p join jobs j on j.job_id = p.job_id
      group by j.tenant_id, area`,
    [tenantIds, since7d, since24h, STORING_TYPES],
  );
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    area: r.area,
    failed24h: Number(r.failed24),
    failed7d: Number(r.failed7),
    warnings24h: Number(r.warnings24),
    warnings7d: Number(r.warnings7),
    storedBytes7d: Number(r.stored),
  }));
}

/** Runs queued or running per tenant. */
export async function fleetRunning(db: Queryable, tenantIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ tenant_id: string; n: number }>(
    `select r.tenant_id, count(*)::int as n from job_runs r join ${FLEET} using (tenant_id)
      where r.status in ('queued', 'running') group by r.tenant_id`,
    [tenantIds],
  );
  return new Map(rows.map((r) => [r.tenant_id, Number(r.n)]));
}

export interface FleetAreaJobsRow {
  tenantId: string;
  area: FleetArea;
  /** The end of the newest run of the area's jobs that finished without failed items. */
  lastSuccess: Date | null;
  /** Enabled jobs that ran (a run finished or failed) and never succeeded. */
  neverSucceeded: number;
  /** Enabled jobs whose newest success ended before `overdueBefore`. */
  overdue: number;
}

/**
 * Per tenant and area, from each job's newest successful run (one index probe per job, migration 35):
 * the area's newest success, and its enabled jobs that never succeeded though they ran, or whose
 * newest success is older than `overdueBefore`.
 */
export async function fleetAreaJobs(
  db: Queryable,
  tenantIds: readonly string[],
  overdueBefore: Date,
): Promise<FleetAreaJobsRow[]> {
  const rows = await db.query<{
    tenant_id: string;
    area: FleetArea;
    last_success: Date | null;
    never: number;
    overdue: number;
  }>(
    `with job as materialized (
       select j.tenant_id, ${AREA_OF_JOB} as area, j.enabled, s.finished as last_success,
              exists (select 1 from job_runs r where r.job_id = j.job_id and r.status in ('finished', 'failed')) as ran
         from jobs j join ${FLEET} using (tenant_id)
         left join lateral (
           select r.finished from job_runs r
            where r.job_id = j.job_id and r.status = 'finished' and r.items_failed = 0
            order by r.finished desc limit 1) s on true
        where j.type = any($3))
     select tenant_id, area, max(last_success) as last_success,
            count(*) filter (where enabled and ran and last_success is null)::int as never,
            count(*) filter (where enabled and last_success < $2)::int as overdue
       from job where area is not null group by tenant_id, area`,
    [tenantIds, overdueBefore, STORING_TYPES],
  );
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    area: r.area,
    lastSuccess: r.last_success ? new Date(r.last_success) : null,
    neverSucceeded: Number(r.never),
    overdue: Number(r.overdue),
  }));
}

/** What coverage counts: OneDrive accounts, SharePoint sites, Teams, mailboxes. */
export type CoverageKind = 'accounts' | 'sites' | 'teams' | 'mailboxes';

/** A coverage kind's protecting jobs (type, application) and its discovered sources' application. */
const COVERAGE_SQL = `case
  when j.type = 'backup' and j.application = 'onedrive' then 'accounts'
  when j.type = 'backup' and j.application = 'sharepoint' then 'sites'
  when j.type = 'backup' and j.application = 'teams' then 'teams'
  when j.type = 'exchangeArchive' and j.application = 'exchange' then 'mailboxes'
end`;
const FOUND_SQL = `case d.application
  when 'onedrive' then 'accounts' when 'sharepoint' then 'sites' when 'teams' then 'teams' when 'exchange' then 'mailboxes'
end`;

export interface FleetCoverageRow {
  tenantId: string;
  kind: CoverageKind;
  /** Distinct sources the enabled jobs of the kind cover. */
  protectedCount: number;
  /** Sources the tenant's last discovery found. */
  found: number;
}

/** Protected and found sources per tenant and kind. */
export async function fleetCoverage(db: Queryable, tenantIds: readonly string[]): Promise<FleetCoverageRow[]> {
  const rows = await db.query<{ tenant_id: string; kind: CoverageKind; covered: number; found: number }>(
    `with covered as (
       select tenant_id, kind, count(*)::int as n from (
         select distinct j.tenant_id, ${COVERAGE_SQL} as kind, s.source
           from jobs j join ${FLEET} using (tenant_id)
           cross join jsonb_array_elements_text(coalesce(j.definition->'sources', '[]'::jsonb)) s(source)
          where j.enabled and j.type in ('backup', 'exchangeArchive')) x
        group by 1, 2),
     found as (
       select d.tenant_id, ${FOUND_SQL} as kind, count(*)::int as n
         from discovered_sources d join ${FLEET} using (tenant_id) group by 1, 2)
     select coalesce(c.tenant_id, f.tenant_id) as tenant_id, coalesce(c.kind, f.kind) as kind,
            coalesce(c.n, 0) as covered, coalesce(f.n, 0) as found
       from covered c full join found f on f.tenant_id = c.tenant_id and f.kind = c.kind
      where coalesce(c.kind, f.kind) is not null`,
    [tenantIds],
  );
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    kind: r.kind,
    protectedCount: Number(r.covered),
    found: Number(r.found),
  }));
}

export interface FleetStorageRow {
  tenantId: string;
  /** Bytes of every stored backup version and archived item (the usage totals). */
  storedBytes: number;
  /** Bytes retention removed from the archive since `since`. */
  removedBytes: number;
}

/** Stored bytes per tenant (backup and archive usage totals) and the archive bytes removed since `since`. */
export async function fleetStorage(
  db: Queryable,
  tenantIds: readonly string[],
  since: Date,
): Promise<FleetStorageRow[]> {
  const rows = await db.query<{ tenant_id: string; stored: number | string; removed: number | string }>(
    `select tenant_id, sum(stored)::bigint as stored, sum(removed)::bigint as removed from (
       select j.tenant_id, u.bytes as stored, 0 as removed
         from jobs j join ${FLEET} using (tenant_id) join backup_usage u on u.job_id = j.job_id
       union all
       select a.tenant_id, a.bytes, 0 from archive_usage a join ${FLEET} using (tenant_id)
       union all
       select d.tenant_id, 0, d.bytes from archive_deletions d join ${FLEET} using (tenant_id) where d.deleted_at >= $2) x
      group by tenant_id`,
    [tenantIds, since],
  );
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    storedBytes: Number(r.stored),
    removedBytes: Number(r.removed),
  }));
}

export interface FleetConnectionRow {
  tenantId: string;
  ok: boolean;
  testedAt: Date;
}

/**
 * Each tenant's newest connection test. The test keeps its result only as its audit entry
 * (`tenant.connectionTest`, the tenant as target, the outcome), so that is where it is read.
 */
export async function fleetConnectionTests(db: Queryable, tenantIds: readonly string[]): Promise<FleetConnectionRow[]> {
  const rows = await db.query<{ target: string; outcome: string; at: Date }>(
    `select distinct on (a.target) a.target, a.outcome, a.at
       from audit_log a join ${FLEET} on fleet.tenant_id = a.target
      where a.action = 'tenant.connectionTest'
      order by a.target, a.seq desc`,
    [tenantIds],
  );
  return rows.map((r) => ({ tenantId: r.target, ok: r.outcome === 'success', testedAt: new Date(r.at) }));
}
