import type { AppContext } from '../../context.js';
import { type TenantRow, toTenantRecord } from '../../db/records.js';
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

/**
 * The active tenant of the worker at `workerIp` (the one the legacy worker screens work on), or 404.
 * The worker and its tenant come in one query: every legacy worker screen asks this first.
 */
export async function workerTenant(ctx: AppContext, user: User, workerIp: string): Promise<TenantRecord> {
  const [row] = await ctx.db.query<
    Partial<TenantRow> & { worker_organisation_id: string; worker_tenant_id: string | null }
  >(
    `select w.organisation_id as worker_organisation_id, w.stagingtenant_id as worker_tenant_id, t.*
       from workers w left join tenants t on lower(t.tenant_id) = lower(w.stagingtenant_id)
      where w.worker_ip = $1`,
    [workerIp],
  );
  if (!row || !(await canActFor(ctx.db, user, row.worker_organisation_id))) throw notFound('Worker not found');
  if (!row.worker_tenant_id) throw notFound('No Tenant was found in the Configuration. Please configure one.');
  if (!isTenantRow(row) || !(await canActFor(ctx.db, user, row.organisation_id))) throw notFound('Tenant not found');
  return toTenantRecord(row);
}

/** A tenant's row of the left join above: absent when the worker's tenant no longer exists. */
const isTenantRow = (row: Partial<TenantRow>): row is TenantRow =>
  typeof row.tenant_id === 'string' && typeof row.organisation_id === 'string';
