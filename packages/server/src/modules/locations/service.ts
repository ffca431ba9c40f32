import { randomUUID } from 'node:crypto';
import { errorTexts } from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { conflict, HttpError, notFound, refusal, validationProblem } from '../../errors.js';
import {
  checkCredentials,
  probeStore,
  type StoreAddress,
  StoreAddressError,
  StoreProbeError,
  savedStoreAddress,
  storeAddress,
  storeIdentity,
} from '../../storage/location-stores.js';
import type { WorkerRecord } from '../organisations/repository.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  countJobsUsingLocation,
  deleteLocation,
  findLocation,
  insertLocation,
  type LocationFields,
  type LocationRecord,
  listLocations,
  listOrganisationLocations,
  locationHoldsData,
  locationNameTaken,
  locationSiteAddress,
  recordProbe,
  updateLocation,
} from './repository.js';

/** The refusal's text when a location still stores a job's data. */
export const LOCATION_IN_USE = 'Cannot delete location as it is used for a job';

export interface LocationInput {
  name: string;
  siteAddress: string;
  accessKeyId?: string | undefined;
  secret?: string | undefined;
}

/** The store an address names, or 400 with the address's problem in words. */
function addressOf(siteAddress: string): StoreAddress {
  try {
    return storeAddress(siteAddress);
  } catch (error) {
    if (error instanceof StoreAddressError) throw validationProblem({ 'body/siteAddress': [error.message] });
    throw error;
  }
}

/**
 * What a location stores of `input`: for an object store its access key ID and secret (given, or kept
 * from `previous` when absent), the secret sealed; for the server's own store neither. The store is
 * tested first (a probe object written, read back and deleted): a failure is refused with 400 and a
 * code saying why, the service's own words beside it.
 */
async function storeFields(
  ctx: AppContext,
  input: LocationInput,
  previous?: LocationRecord,
): Promise<{ address: StoreAddress; fields: LocationFields }> {
  const address = addressOf(input.siteAddress);
  const name = input.name.trim();
  const siteAddress = input.siteAddress.trim();
  if (address.kind === 'server')
    return { address, fields: { name, siteAddress, accessKeyId: null, secretSealed: null, probe: null } };
  const accessKeyId = input.accessKeyId?.trim() || previous?.accessKeyId || null;
  let secret = input.secret ?? null;
  if (secret === null && previous?.secretSealed) {
    try {
      secret = ctx.secrets.open(previous.secretSealed);
    } catch {
      throw validationProblem({
        'body/secret': ['The stored secret cannot be read with the current PORTAL_SECRET_KEY; enter it again.'],
      });
    }
  }
  try {
    checkCredentials(address, { accessKeyId, secret });
  } catch (error) {
    if (error instanceof StoreAddressError) throw validationProblem({ 'body/secret': [error.message] });
    throw error;
  }
  try {
    await probeStore(address, { accessKeyId, secret });
  } catch (error) {
    if (!(error instanceof StoreProbeError)) throw error;
    const text =
      error.code === 'storeProbeFailed' ? errorTexts.storeProbeFailed(error.reason) : errorTexts[error.code]();
    throw new HttpError(400, text, {
      code: error.code,
      detail: error.reason,
      errors: { 'body/siteAddress': [`${text} (${error.reason})`] },
    });
  }
  return {
    address,
    fields: {
      name,
      siteAddress,
      accessKeyId,
      secretSealed: secret === null ? null : ctx.secrets.seal(secret),
      probe: { at: ctx.now(), code: null, reason: null },
    },
  };
}

/** The most of a storage service's words a probe keeps (the contract's bound). */
const REASON_LIMIT = 2000;

/**
 * Tests the location's object store again with its stored credentials and records the outcome; a
 * failure is recorded, not refused. The server's own store is not tested per location: nothing is
 * recorded for it. Audited as `location.probe` with the outcome.
 */
export async function testLocationStore(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  locationId: string,
): Promise<LocationRecord> {
  const location = await requireLocation(ctx.db, tenant, locationId);
  const address = savedStoreAddress(location.siteAddress);
  if (address.kind === 'server') return location;
  let failure: StoreProbeError | null = null;
  try {
    let secret: string | null = null;
    if (location.secretSealed) {
      try {
        secret = ctx.secrets.open(location.secretSealed);
      } catch {
        throw new StoreProbeError(
          'storeProbeFailed',
          'The stored secret cannot be read with the current PORTAL_SECRET_KEY; enter it again.',
        );
      }
    }
    const credentials = { accessKeyId: location.accessKeyId, secret };
    try {
      checkCredentials(address, credentials);
    } catch (error) {
      if (error instanceof StoreAddressError) throw new StoreProbeError('storeProbeFailed', error.message);
      throw error;
    }
    await probeStore(address, credentials);
  } catch (error) {
    if (!(error instanceof StoreProbeError)) throw error;
    failure = error;
  }
  const probe = {
    at: ctx.now(),
    code: failure?.code ?? null,
    reason: failure ? failure.reason.slice(0, REASON_LIMIT) : null,
  };
  await ctx.db.transaction(async (tx) => {
    await recordProbe(tx, location.locationId, probe);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'location.probe',
        target: location.locationId,
        outcome: failure ? 'failure' : 'success',
        ...(failure ? { details: { code: failure.code, reason: probe.reason } } : {}),
      },
      tx,
    );
  });
  return { ...location, probe };
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

/** The identity of the store a location's data is in (see storeIdentity); no location: the server's own. */
export async function locationStoreIdentity(db: Queryable, locationId: string | null): Promise<string> {
  const siteAddress = locationId ? await locationSiteAddress(db, locationId) : undefined;
  return storeIdentity(siteAddress !== undefined ? savedStoreAddress(siteAddress) : { kind: 'server' });
}

const NAME_TAKEN = 'A location with this name already exists.';

/**
 * Names are stored trimmed, so they are checked trimmed: a blank name is no name. The check is a fast
 * path; the unique index `locations_name` decides (see `nameTakenMeanwhile`).
 */
async function assertUniqueName(db: Queryable, tenantId: string, name: string, except?: string) {
  if (name.trim() === '') throw validationProblem({ 'body/name': ['must not be blank'] });
  if (await locationNameTaken(db, tenantId, name.trim(), except)) throw conflict(NAME_TAKEN);
}

/** A location stored or renamed concurrently under the same name took it first: the same refusal as the check's. */
const nameTakenMeanwhile = (error: unknown) => {
  throw isUniqueViolation(error, 'locations_name') ? conflict(NAME_TAKEN) : error;
};

export async function createLocation(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  input: LocationInput,
): Promise<LocationRecord> {
  await assertUniqueName(ctx.db, tenant.tenantId, input.name);
  const { fields } = await storeFields(ctx, input);
  const locationId = randomUUID();
  await ctx.db
    .transaction(async (tx) => {
      await insertLocation(tx, { locationId, tenantId: tenant.tenantId, ...fields }, ctx.now());
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
    })
    .catch(nameTakenMeanwhile);
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
  const { address, fields } = await storeFields(ctx, input, location);
  // The data already written stays where it is: an address may change only to one of the same store.
  const before = storeIdentity(savedStoreAddress(location.siteAddress));
  if (before !== storeIdentity(address) && (await locationHoldsData(ctx.db, location.locationId))) {
    throw refusal(409, 'locationHoldsData');
  }
  await ctx.db
    .transaction(async (tx) => {
      await updateLocation(tx, location.locationId, fields);
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
    })
    .catch(nameTakenMeanwhile);
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
    // Checked inside the transaction, so a job created meanwhile cannot be left without its location;
    // archived items outlive their job, and keep their location as long.
    if ((await countJobsUsingLocation(tx, location.locationId)) > 0) return false;
    if (await locationHoldsData(tx, location.locationId)) return false;
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
