import { randomBytes, randomUUID } from 'node:crypto';
import type { PartnerClientCreate, WorkerChecks } from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { accessibleOrganisationIds, requireRole } from '../../access/scope.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import type { Queryable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { badRequest, forbidden, notFound, refusal } from '../../errors.js';
import { issueInvitation, mailInvitation } from '../identity/invitations.js';
import type { User } from '../identity/users.js';
import { findUserByEmail, insertUser } from '../identity/users-repository.js';
import {
  ABBR_INDEXES,
  abbrTakenInFamily,
  allClientIds,
  clientIdsOf,
  countTenantLocations,
  createOrganisation,
  findOrganisation,
  findWorkerByOrganisation,
  listOrganisations,
  listPartners,
  type Organisation,
  type PartnerSummary,
  pingDatabase,
  type WorkerRecord,
  workerTenantState,
} from './repository.js';

/** An organisation with its worker: what the legacy API calls a client. */
export interface ClientRecord {
  organisation: Organisation;
  worker: WorkerRecord;
}

/** The organisation with its worker; every organisation has one, so a missing worker is a 404. */
async function withWorker(db: Queryable, organisation: Organisation): Promise<ClientRecord> {
  const worker = await findWorkerByOrganisation(db, organisation.id);
  if (!worker) throw notFound('Worker not found');
  return { organisation, worker };
}

/** The signed-in user's own organisation. */
export async function ownClient(ctx: AppContext, user: User): Promise<ClientRecord> {
  const organisation = await findOrganisation(ctx.db, user.organisationId);
  if (!organisation) throw notFound('Organisation not found');
  return withWorker(ctx.db, organisation);
}

/** The customer organisations (with workers) a user may work as. */
export async function customerClients(ctx: AppContext, user: User): Promise<ClientRecord[]> {
  const orgs = (await listOrganisations(ctx.db, await accessibleOrganisationIds(ctx.db, user))).filter(
    (o) => o.kind === 'customer',
  );
  return Promise.all(orgs.map((o) => withWorker(ctx.db, o)));
}

/** A partner's clients; for an operator, every partner's. */
export async function partnerClients(ctx: AppContext, user: User): Promise<ClientRecord[]> {
  requireRole(user, 'partner', 'operator');
  const ids = user.role === 'operator' ? await allClientIds(ctx.db) : await clientIdsOf(ctx.db, user.organisationId);
  const orgs = await listOrganisations(ctx.db, ids);
  return Promise.all(orgs.map((o) => withWorker(ctx.db, o)));
}

/** Every partner with its number of clients; for operators only. */
export async function partners(ctx: AppContext, user: User): Promise<PartnerSummary[]> {
  requireRole(user, 'operator');
  return listPartners(ctx.db);
}

/**
 * Sends a new user the invitation link, which lands on the portal's invitation page: they choose a
 * password and set up their authenticator. The account has a random password until then.
 */
export async function inviteUser(ctx: AppContext, userId: string, email: string, organisationName: string) {
  const code = await ctx.db.transaction((tx) => issueInvitation(ctx, tx, userId));
  await mailInvitation(ctx, email, organisationName, code);
}

/**
 * Stores an invited user with a random password (the invitation's link sets one); undefined when the
 * address is already an account's, of whichever organisation.
 */
export async function createInvitedUser(
  tx: Queryable,
  input: { email: string; displayName: string; role: User['role']; organisationId: string },
): Promise<string | undefined> {
  const id = randomUUID();
  const stored = await insertUser(tx, {
    id,
    email: input.email,
    displayName: input.displayName,
    passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
    role: input.role,
    organisationId: input.organisationId,
    emailConfirmed: true,
  });
  return stored ? id : undefined;
}

/**
 * A partner adds a customer organisation with its worker and its first administrator, who is invited
 * by email once the organisation is stored. Only partners do. The short name must be free among the
 * partner's own organisation and its clients (never compared with anyone else's); the administrator's
 * address must be no account's, and a taken one is refused alike whoever's account it is. The checks
 * are a fast path: the unique indexes decide, so concurrent adds store one client.
 */
export async function addPartnerClient(
  ctx: AppContext,
  actor: Actor,
  input: PartnerClientCreate,
): Promise<ClientRecord> {
  const { user } = actor;
  if (user.role !== 'partner') throw forbidden('Only partners add client organisations.');
  // The name is stored trimmed: it must still meet the contract's minimum length then.
  if (input.name.trim().length < 2) {
    throw badRequest('Invalid request', { 'body/name': ['must NOT have fewer than 2 characters'] });
  }
  if (await findUserByEmail(ctx.db, input.adminEmail)) throw refusal(409, 'emailTaken');
  if (await abbrTakenInFamily(ctx.db, user.organisationId, input.abbr)) throw refusal(409, 'shortNameTaken');
  const stored = ctx.db.transaction(async (tx) => {
    const created = await createOrganisation(tx, {
      name: input.name.trim(),
      kind: 'customer',
      license: input.license,
      partnerId: user.organisationId,
      abbr: input.abbr,
    });
    const id = await createInvitedUser(tx, {
      email: input.adminEmail,
      displayName: input.adminEmail,
      role: 'admin',
      organisationId: created.organisation.id,
    });
    // Thrown, so that the organisation stored just now is rolled back with it.
    if (!id) throw refusal(409, 'emailTaken');
    await ctx.audit(
      {
        ...actedBy(user, actor.ip),
        organisationId: created.organisation.id,
        action: 'partner.client.create',
        target: created.organisation.id,
        outcome: 'success',
        details: { name: input.name, license: input.license, adminEmail: input.adminEmail },
      },
      tx,
    );
    return { organisation: created.organisation, adminId: id };
  });
  const { organisation, adminId } = await stored.catch((error: unknown) => {
    throw isUniqueViolation(error, ABBR_INDEXES) ? refusal(409, 'shortNameTaken') : error;
  });
  await inviteUser(ctx, adminId, input.adminEmail, organisation.name);
  return withWorker(ctx.db, organisation);
}

/**
 * A worker's health: the database answers, its active tenant has a client secret and is provisioned,
 * and that tenant has a storage location.
 */
export async function workerChecks(ctx: AppContext, worker: WorkerRecord): Promise<WorkerChecks> {
  const checks: WorkerChecks['checks'] = [];
  const started = Date.now();
  await pingDatabase(ctx.db);
  checks.push({ name: 'database', ok: true, message: `${ctx.db.kind}, answered in ${Date.now() - started} ms` });
  const tenant = worker.stagingtenantId ? await workerTenantState(ctx.db, worker.stagingtenantId) : undefined;
  checks.push(
    tenant
      ? {
          name: 'tenant',
          ok: tenant.clientSecretSealed !== null,
          ...(tenant.clientSecretSealed ? {} : { message: 'The tenant has no client secret.' }),
        }
      : { name: 'tenant', ok: false, message: 'No tenant was found in the configuration, please configure one.' },
  );
  checks.push(
    tenant?.provisioning === 'provisioned'
      ? { name: 'provisioning', ok: true }
      : { name: 'provisioning', ok: false, message: `The tenant is ${tenant?.provisioning ?? 'missing'}.` },
  );
  const locations = worker.stagingtenantId ? await countTenantLocations(ctx.db, worker.stagingtenantId) : 0;
  checks.push(
    locations > 0
      ? { name: 'storage', ok: true }
      : { name: 'storage', ok: false, message: 'No storage location is configured.' },
  );
  return { workerIp: worker.workerIp, online: true, lastSeen: ctx.now().toISOString(), checks };
}
