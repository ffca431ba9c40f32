import { randomUUID } from 'node:crypto';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { conflict, notFound, validationProblem } from '../../http/errors.js';
import type { Actor } from '../jobs/service.js';
import type { WorkerRecord } from '../organisations/repository.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  countJobsUsingLocation,
  deleteLocation,
  findLocation,
  insertLocation,
  type LocationRecord,
  listLocations,
  listOrganisationLocations,
  locationNameTaken,
  updateLocation,
} from './repository.js';

/** The refusal's text when a location still stores a job's data. */
export const LOCATION_IN_USE = 'Cannot delete location as it is used for a job';

export interface LocationInput {
  name: string;
  siteAddress: string;
}

export function tenantLocations(ctx: AppContext, tenant: TenantRecord): Promise<LocationRecord[]> {
  return listLocations(ctx.db, tenant.tenantId);
}

/** The locations of all the worker's organisation's tenants. */
export function workerLocations(ctx: AppContext, worker: WorkerRecord): Promise<LocationRecord[]> {
  return listOrganisationLocations(ctx.db, worker.organisationId);
}

/** The locations of the worker's active (staging) tenant; none while it has none. */
export async function activeTenantLocations(ctx: AppContext, worker: WorkerRecord): Promise<LocationRecord[]> {
  if (!worker.stagingtenantId) return [];
  return listLocations(ctx.db, worker.stagingtenantId);
}

/** The tenant's location, or 404: a location is reached through its own tenant only. */
export async function requireLocation(db: Queryable, tenant: TenantRecord, locationId: string) {
  const location = await findLocation(db, tenant.tenantId, locationId);
  if (!location) throw notFound('Location not found');
  return location;
}

/** Names are stored trimmed, so they are checked trimmed: a blank name is no name. */
async function assertUniqueName(db: Queryable, tenantId: string, name: string, except?: string) {
  if (name.trim() === '') throw validationProblem({ 'body/name': ['must not be blank'] });
  if (await locationNameTaken(db, tenantId, name.trim(), except)) {
    throw conflict('A location with this name already exists.');
  }
}

export async function createLocation(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  input: LocationInput,
): Promise<LocationRecord> {
  await assertUniqueName(ctx.db, tenant.tenantId, input.name);
  const locationId = randomUUID();
  await ctx.db.transaction(async (tx) => {
    await insertLocation(
      tx,
      { locationId, tenantId: tenant.tenantId, name: input.name.trim(), siteAddress: input.siteAddress.trim() },
      ctx.now(),
    );
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'location.create',
        target: locationId,
        outcome: 'success',
        details: { name: input.name },
      },
      tx,
    );
  });
  return requireLocation(ctx.db, tenant, locationId);
}

export async function changeLocation(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  locationId: string,
  input: LocationInput,
): Promise<LocationRecord> {
  const location = await requireLocation(ctx.db, tenant, locationId);
  await assertUniqueName(ctx.db, tenant.tenantId, input.name, location.locationId);
  await ctx.db.transaction(async (tx) => {
    await updateLocation(tx, location.locationId, { name: input.name.trim(), siteAddress: input.siteAddress.trim() });
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'location.update',
        target: location.locationId,
        outcome: 'success',
      },
      tx,
    );
  });
  return requireLocation(ctx.db, tenant, location.locationId);
}

/** Refused with 409 (and a failure in the audit log) while a job uses the location. */
export async function removeLocation(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  locationId: string,
): Promise<void> {
  const location = await requireLocation(ctx.db, tenant, locationId);
  const deleted = await ctx.db.transaction(async (tx) => {
    // Checked inside the transaction, so a job created meanwhile cannot be left without its location.
    if ((await countJobsUsingLocation(tx, location.locationId)) > 0) return false;
    await deleteLocation(tx, location.locationId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'location.delete',
        target: location.locationId,
        outcome: 'success',
      },
      tx,
    );
    return true;
  });
  if (!deleted) {
    await ctx.audit({
      ...actedBy(actor.user, actor.ip),
      organisationId: tenant.organisationId,
      action: 'location.delete',
      target: location.locationId,
      outcome: 'failure',
      details: { reason: 'in use' },
    });
    throw conflict(LOCATION_IN_USE);
  }
}
