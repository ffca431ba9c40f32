/**
 * Who may act for what: the organisations a user may act for, and the tenant, worker or organisation a
 * request names, resolved once before its handler from the scope its catalogue entry declares. Another
 * organisation's id is answered with the same 404 as an unknown one, so that ids cannot be probed.
 */
import type { Scope, ScopeSource } from '@compliance-portal/sdk';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { findTenant, type TenantRecord, type TenantRow, toTenantRecord, type WorkerRecord } from '../db/records.js';
import { forbidden, notFound } from '../errors.js';
import type { Actor, User } from './actor.js';
import {
  allOrganisationIds,
  findWorker,
  findWorkerTenant,
  isClientOf,
  organisationAndClientIds,
  type WorkerTenantRow,
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

export function requireRole(user: User, ...roles: User['role'][]) {
  if (!roles.includes(user.role)) throw forbidden('Access denied');
}

/** The organisation, or 404 when it does not exist or the user may not see it: never another's data. */
export async function requireOrganisation(ctx: AppContext, user: User, organisationId: string): Promise<void> {
  if (!(await canActFor(ctx.db, user, organisationId))) throw notFound('Organisation not found');
}

/** The tenant, or 404 when it does not exist or belongs to an organisation the user may not act for. */
export async function requireTenant(ctx: AppContext, user: User, tenantId: string): Promise<TenantRecord> {
  const tenant = await findTenant(ctx.db, tenantId);
  if (!tenant || !(await canActFor(ctx.db, user, tenant.organisationId))) throw notFound('Tenant not found');
  return tenant;
}

/**
 * The active tenant of the worker at `workerIp` (the one the legacy worker screens work on), or 404.
 * With `indexIp`, a worker of another archive index address counts as unknown.
 */
async function workerTenant(ctx: AppContext, user: User, workerIp: string, indexIp?: string): Promise<TenantRecord> {
  const row = await findWorkerTenant(ctx.db, workerIp);
  if (!row || !(await canActFor(ctx.db, user, row.worker_organisation_id))) throw notFound('Worker not found');
  if (indexIp !== undefined && row.worker_index_ip !== indexIp) throw notFound('Worker not found');
  if (!row.worker_tenant_id) throw notFound('No Tenant was found in the Configuration. Please configure one.');
  if (!isTenantRow(row) || !(await canActFor(ctx.db, user, row.organisation_id))) throw notFound('Tenant not found');
  return toTenantRecord(row);
}

/** A tenant's row of the worker's left join: absent when the worker's tenant no longer exists. */
const isTenantRow = (row: WorkerTenantRow): row is WorkerTenantRow & TenantRow =>
  typeof row.tenant_id === 'string' && typeof row.organisation_id === 'string';

async function requireWorker(
  ctx: AppContext,
  user: User,
  by: { workerIp?: string; workerId?: string },
): Promise<WorkerRecord> {
  const worker = await findWorker(ctx.db, by);
  if (!worker || !(await canActFor(ctx.db, user, worker.organisationId))) throw notFound('Worker not found');
  return worker;
}

/**
 * What a handler receives of its endpoint's declared scope. The checks are not distributive: the
 * catalogue's scope types arrive as an intersection with the whole `Scope` union, and only the declared
 * member is common to all of its parts.
 */
export type ResolvedScope<S> = [S] extends ['caller']
  ? { actor: Actor }
  : [S] extends [{ readonly tenant: ScopeSource } | { readonly workerTenant: unknown }]
    ? { actor: Actor; tenant: TenantRecord }
    : [S] extends [{ readonly worker: unknown }]
      ? { actor: Actor; worker: WorkerRecord }
      : [S] extends [{ readonly organisation: ScopeSource }]
        ? { actor: Actor; organisationId: string }
        : {};

/** The parts of a validated request a scope may read its parameter from. */
interface ScopedRequest {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** Any endpoint's resolution, as the contract passes it on without knowing which endpoint it is. */
type AnyResolution = { actor: Actor } & Partial<{ tenant: TenantRecord; worker: WorkerRecord; organisationId: string }>;

/**
 * Resolves a request's declared scope for `actor`, after authentication and validation, with the 404s
 * (and their order) that the handlers' own checks gave: an unknown or foreign worker, then a worker
 * without a tenant, then a foreign tenant.
 */
export async function resolveScope(
  ctx: AppContext,
  scope: Scope,
  actor: Actor,
  request: ScopedRequest,
): Promise<AnyResolution> {
  const member = (place: ScopeSource, name: string): unknown => {
    const from = place === 'path' ? request.params : place === 'query' ? request.query : request.body;
    return from && typeof from === 'object' ? (from as Record<string, unknown>)[name] : undefined;
  };
  // Validation has made the parameter a required string of its place (the SDK's scope test keeps it so).
  const text = (place: ScopeSource, name: string) => String(member(place, name) ?? '');
  if (scope === 'caller') return { actor };
  if ('tenant' in scope) return { actor, tenant: await requireTenant(ctx, actor.user, text(scope.tenant, 'tenantId')) };
  if ('workerTenant' in scope) {
    const { in: place, name, index } = scope.workerTenant;
    const indexIp = index ? text(place, index) : undefined;
    return { actor, tenant: await workerTenant(ctx, actor.user, text(place, name), indexIp) };
  }
  if ('worker' in scope) {
    const value = text(scope.worker.in, scope.worker.name);
    const by = scope.worker.name === 'workerId' ? { workerId: value } : { workerIp: value };
    return { actor, worker: await requireWorker(ctx, actor.user, by) };
  }
  // An organisation the query may name; without one, the caller's own.
  const given = member(scope.organisation, 'organisationId');
  const organisationId = typeof given === 'string' ? given : actor.user.organisationId;
  await requireOrganisation(ctx, actor.user, organisationId);
  return { actor, organisationId };
}
