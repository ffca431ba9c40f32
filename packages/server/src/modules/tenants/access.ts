import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import type { User } from '../identity/users.js';
import { canActFor } from '../organisations/access.js';
import { findTenant, type TenantRecord } from './repository.js';

/** The tenant, or 404 when it does not exist or belongs to an organisation the user may not act for. */
export async function requireTenant(ctx: AppContext, user: User, tenantId: string): Promise<TenantRecord> {
  const tenant = await findTenant(ctx.db, tenantId);
  if (!tenant || !(await canActFor(ctx.db, user, tenant.organisationId))) throw notFound('Tenant not found');
  return tenant;
}
