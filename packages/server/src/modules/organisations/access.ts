import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { User } from '../identity/users.js';
import { findWorker, type WorkerRecord } from './repository.js';

/**
 * The organisations a user may act for: a customer administrator its own; a partner its own and its
 * clients'; a platform operator all of them.
 */
export async function accessibleOrganisationIds(db: Queryable, user: User): Promise<string[]> {
  if (user.role === 'operator') {
    return (await db.query<{ id: string }>('select id from organisations')).map((r) => r.id);
  }
  if (user.role === 'partner') {
    return (
      await db.query<{ id: string }>('select id from organisations where id = $1 or partner_id = $1', [
        user.organisationId,
      ])
    ).map((r) => r.id);
  }
  return [user.organisationId];
}

export async function canActFor(db: Queryable, user: User, organisationId: string): Promise<boolean> {
  if (user.organisationId === organisationId || user.role === 'operator') return true;
  if (user.role !== 'partner') return false;
  const rows = await db.query('select 1 from organisations where id = $1 and partner_id = $2', [
    organisationId,
    user.organisationId,
  ]);
  return rows.length === 1;
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
