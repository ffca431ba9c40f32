import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import type { User } from '../identity/users.js';
import { canActFor, requireWorker } from '../organisations/access.js';
import { findTenant, type TenantRecord } from './repository.js';

/** The tenant, or 404 when it does not exist or belongs to an organisation the user may not act for. */
export async function requireTenant(ctx: AppContext, user: User, tenantId: string): Promise<TenantRecord> {
  const tenant = await findTenant(ctx.db, tenantId);
  if (!tenant || !(await canActFor(ctx.db, user, tenant.organisationId))) throw notFound('Tenant not found');
  return tenant;
}

/** The active tenant of the worker at `workerIp` (the one the legacy worker screens work on), or 404. */
export async function workerTenant(ctx: AppContext, user: User, workerIp: string): Promise<TenantRecord> {
  const worker = await requireWorker(ctx, user, { workerIp });
  if (!worker.stagingtenantId) throw notFound('No Tenant was found in the Configuration. Please configure one.');
  return requireTenant(ctx, user, worker.stagingtenantId);
}
