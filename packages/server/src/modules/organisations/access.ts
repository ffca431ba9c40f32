import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { User } from '../identity/users.js';
import {
  allOrganisationIds,
  findWorker,
  isClientOf,
  organisationAndClientIds,
  type WorkerRecord,
} from './repository.js';

/**
 * The organisations a user may act for: a customer administrator its own; a partner its own and its
 * clients'; a platform operator all of them.
 */
export async function accessibleOrganisationIds(db: Queryable, user: User): Promise<string[]> {
  if (user.role === 'operator') return allOrganisationIds(db);
  if (user.role === 'partner') return organisationAndClientIds(db, user.organisationId);
  return [user.organisationId];
}

export async function canActFor(db: Queryable, user: User, organisationId: string): Promise<boolean> {
  if (user.organisationId === organisationId || user.role === 'operator') return true;
  if (user.role !== 'partner') return false;
  return isClientOf(db, organisationId, user.organisationId);
}

/** The organisation, or 404 when it does not exist or the user may not see it: never another's data. */
export async function requireOrganisation(ctx: AppContext, user: User, organisationId: string): Promise<void> {
  if (!(await canActFor(ctx.db, user, organisationId))) throw notFound('Organisation not found');
}

export async function requireWorker(
  ctx: AppContext,
  user: User,
  by: { workerIp?: string; workerId?: string },
): Promise<WorkerRecord> {
  const worker = await findWorker(ctx.db, by);
  if (!worker || !(await canActFor(ctx.db, user, worker.organisationId))) throw notFound('Worker not found');
  return worker;
}

export function requireRole(user: User, ...roles: User['role'][]) {
  if (!roles.includes(user.role)) throw forbidden('Access denied');
}
