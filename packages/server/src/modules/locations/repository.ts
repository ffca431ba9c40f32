import type { Queryable } from '../../db/database.js';

export interface LocationRecord {
  locationId: string;
  tenantId: string;
  name: string;
  siteAddress: string;
  createdAt: Date;
  /** How many jobs write to this location; one or more keeps it from being deleted. */
  usedByJobs: number;
}

interface Row {
  location_id: string;
  tenant_id: string;
  name: string;
  site_address: string;
  created_at: Date;
  used_by_jobs: number;
}

const toRecord = (r: Row): LocationRecord => ({
  locationId: r.location_id,
  tenantId: r.tenant_id,
  name: r.name,
  siteAddress: r.site_address,
  createdAt: new Date(r.created_at),
  usedByJobs: Number(r.used_by_jobs),
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

export async function insertLocation(
  db: Queryable,
  location: { locationId: string; tenantId: string; name: string; siteAddress: string },
  now: Date,
): Promise<void> {
  await db.query(
    'insert into locations (location_id, tenant_id, name, site_address, created_at) values ($1, $2, $3, $4, $5)',
    [location.locationId, location.tenantId, location.name, location.siteAddress, now],
  );
}

export async function updateLocation(
  db: Queryable,
  locationId: string,
  changes: { name: string; siteAddress: string },
): Promise<void> {
  await db.query('update locations set name = $2, site_address = $3 where location_id = $1', [
    locationId,
    changes.name,
    changes.siteAddress,
  ]);
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

export async function countTenantLocations(db: Queryable, tenantId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from locations where tenant_id = $1', [
    tenantId,
  ]);
  return row?.n ?? 0;
}

export async function locationExists(db: Queryable, tenantId: string, locationId: string): Promise<boolean> {
  const rows = await db.query('select 1 from locations where location_id = $1 and tenant_id = $2', [
    locationId,
    tenantId,
  ]);
  return rows.length > 0;
}
