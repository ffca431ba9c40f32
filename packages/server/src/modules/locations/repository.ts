import type { Queryable } from '../../db/database.js';

export interface LocationRecord {
  locationId: string;
  tenantId: string;
  name: string;
  siteAddress: string;
  /** S3's access key ID. */
  accessKeyId: string | null;
  /** The account key or secret access key, sealed with PORTAL_SECRET_KEY. */
  secretSealed: string | null;
  createdAt: Date;
  /** How many jobs write to this location; one or more keeps it from being deleted. */
  usedByJobs: number;
  /** The last test of its object store; null: never tested (the server's own store is not). */
  probe: StoreProbeRecord | null;
}

/** A test of a location's object store: when, and for a failure its code and the service's words. */
interface StoreProbeRecord {
  at: Date;
  /** Null: the test object was written, read back and deleted. */
  code: string | null;
  reason: string | null;
}

interface Row {
  location_id: string;
  tenant_id: string;
  name: string;
  site_address: string;
  access_key_id: string | null;
  secret_sealed: string | null;
  created_at: Date;
  used_by_jobs: number;
  probed_at: Date | null;
  probe_code: string | null;
  probe_reason: string | null;
}

const toRecord = (r: Row): LocationRecord => ({
  locationId: r.location_id,
  tenantId: r.tenant_id,
  name: r.name,
  siteAddress: r.site_address,
  accessKeyId: r.access_key_id,
  secretSealed: r.secret_sealed,
  createdAt: new Date(r.created_at),
  usedByJobs: Number(r.used_by_jobs),
  probe: r.probed_at ? { at: new Date(r.probed_at), code: r.probe_code, reason: r.probe_reason } : null,
});

const selectLocations = `select l.*, (select count(*)::int from jobs j where j.location_id = l.location_id) as used_by_jobs
  from locations l`;

export async function listLocations(db: Queryable, tenantId: string): Promise<LocationRecord[]> {
  const rows = await db.query<Row>(`${selectLocations} where l.tenant_id = $1 order by l.name`, [tenantId]);
  return rows.map(toRecord);
}

/** The locations of every tenant of an organisation. */
export async function listOrganisationLocations(db: Queryable, organisationId: string): Promise<LocationRecord[]> {
  const rows = await db.query<Row>(
    `${selectLocations} where l.tenant_id in (select tenant_id from tenants where organisation_id = $1) order by l.name`,
    [organisationId],
  );
  return rows.map(toRecord);
}

export async function findLocation(
  db: Queryable,
  tenantId: string,
  locationId: string,
): Promise<LocationRecord | undefined> {
  const [row] = await db.query<Row>(`${selectLocations} where l.tenant_id = $1 and l.location_id = $2`, [
    tenantId,
    locationId,
  ]);
  return row ? toRecord(row) : undefined;
}

/** Whether another location of the tenant (not `except`) has this name, compared without case. */
export async function locationNameTaken(
  db: Queryable,
  tenantId: string,
  name: string,
  except?: string,
): Promise<boolean> {
  const rows = await db.query(
    'select 1 from locations where tenant_id = $1 and lower(name) = lower($2) and location_id <> $3',
    [tenantId, name, except ?? ''],
  );
  return rows.length > 0;
}

/**
 * What a location stores: its name, its site address, the credentials of its store and the test of
 * that store made when it was saved (null: not tested, the server's own store).
 */
export interface LocationFields {
  name: string;
  siteAddress: string;
  accessKeyId: string | null;
  secretSealed: string | null;
  probe: StoreProbeRecord | null;
}

export async function insertLocation(
  db: Queryable,
  location: { locationId: string; tenantId: string } & LocationFields,
  now: Date,
): Promise<void> {
  await db.query(
    `insert into locations (location_id, tenant_id, name, site_address, access_key_id, secret_sealed, created_at,
       probed_at, probe_code, probe_reason)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      location.locationId,
      location.tenantId,
      location.name,
      location.siteAddress,
      location.accessKeyId,
      location.secretSealed,
      now,
      location.probe?.at ?? null,
      location.probe?.code ?? null,
      location.probe?.reason ?? null,
    ],
  );
}

export async function updateLocation(db: Queryable, locationId: string, changes: LocationFields): Promise<void> {
  await db.query(
    `update locations set name = $2, site_address = $3, access_key_id = $4, secret_sealed = $5,
       probed_at = $6, probe_code = $7, probe_reason = $8 where location_id = $1`,
    [
      locationId,
      changes.name,
      changes.siteAddress,
      changes.accessKeyId,
      changes.secretSealed,
      changes.probe?.at ?? null,
      changes.probe?.code ?? null,
      changes.probe?.reason ?? null,
    ],
  );
}

/** Records a test of the location's store made outside a save. */
export async function recordProbe(db: Queryable, locationId: string, probe: StoreProbeRecord): Promise<void> {
  await db.query('update locations set probed_at = $2, probe_code = $3, probe_reason = $4 where location_id = $1', [
    locationId,
    probe.at,
    probe.code,
    probe.reason,
  ]);
}

/** Whether blobs were written to the location: a backup job's versions, or archived items. */
export async function locationHoldsData(db: Queryable, locationId: string): Promise<boolean> {
  const rows = await db.query(
    `select 1 where exists (select 1 from archive_items where location_id = $1)
        or exists (select 1 from backup_items b join jobs j on j.job_id = b.job_id where j.location_id = $1)`,
    [locationId],
  );
  return rows.length > 0;
}

export async function countJobsUsingLocation(db: Queryable, locationId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from jobs where location_id = $1', [
    locationId,
  ]);
  return row?.n ?? 0;
}

export async function deleteLocation(db: Queryable, locationId: string): Promise<void> {
  await db.query('delete from locations where location_id = $1', [locationId]);
}

export async function locationExists(db: Queryable, tenantId: string, locationId: string): Promise<boolean> {
  const rows = await db.query('select 1 from locations where location_id = $1 and tenant_id = $2', [
    locationId,
    tenantId,
  ]);
  return rows.length > 0;
}

/** The stored address of a location, whatever its tenant (undefined: no such location). */
export async function locationSiteAddress(db: Queryable, locationId: string): Promise<string | undefined> {
  const [row] = await db.query<{ site_address: string }>('select site_address from locations where location_id = $1', [
    locationId,
  ]);
  return row?.site_address;
}
