/**
 * The tenants of the organisations a user acts for: connecting one (one connected while the
 * organisation has no active tenant becomes its active one and its workers'), changing and removing
 * it (the active one hands over to another), its provisioning tasks, and the default domain of its
 * Microsoft 365 organisation.
 */
import type { TenantCreate, TenantUpdate } from '@compliance-portal/sdk';
import type { Organization } from '@microsoft/microsoft-graph-types';
import type { Actor } from '../../access/actor.js';
import { accessibleOrganisationIds, requireOrganisation } from '../../access/scope.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { conflict, notFound } from '../../errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { User } from '../identity/users.js';
import { configuredEndpoints } from './endpoints.js';
import { startTask, type TaskKind } from './provisioning.js';
import {
  activateForIdleWorkers,
  countRunningJobs,
  deleteTenant,
  findTask,
  findTenant,
  handOverActiveTenant,
  hasActiveTenant,
  insertTenant,
  listTenants,
  storeDefaultDomain,
  type TaskRow,
  type TenantRecord,
  updateTenant,
} from './repository.js';

export const TENANT_EXISTS = 'A tenant with this tenant ID is already connected.';
export const PROVISIONING_RUNS = 'A provisioning task for this tenant is already running.';
export const DELETE_WHILE_PROVISIONING = 'The tenant cannot be deleted while a provisioning task runs.';
export const DELETE_WHILE_JOBS_RUN = 'The tenant cannot be deleted while its jobs run; stop them first.';

const provisioningRuns = (tenant: TenantRecord) =>
  tenant.provisioning === 'provisioning' || tenant.provisioning === 'deprovisioning';

/** The tenants of every organisation the user may act for. */
export async function visibleTenants(ctx: AppContext, user: User): Promise<TenantRecord[]> {
  return listTenants(ctx.db, await accessibleOrganisationIds(ctx.db, user));
}

/** How a tenant connected by admin consent differs from one typed in: its identity platform and the consent. */
export interface ConsentedConnection {
  /** Graph's and the identity platform's origins; null for Microsoft's own. */
  graphBaseUrl: string | null;
  authorityUrl: string | null;
  /** Runs in the connection's transaction, after its audit entry (the consent's own entry). */
  within(tx: Queryable, tenant: TenantRecord): Promise<void>;
}

/**
 * Connects a tenant to an organisation the actor acts for; a tenant ID already connected is refused
 * with 409. A tenant connected while the organisation has no active one (its first, or after its
 * active one was removed with none left) is active, and becomes the active tenant of its workers that
 * have none: the organisation's state and its workers' never disagree.
 * A tenant connected by admin consent (`consented`) records that consent.
 */
export async function connectTenant(
  ctx: AppContext,
  actor: Actor,
  input: TenantCreate,
  consented?: ConsentedConnection,
): Promise<TenantRecord> {
  await requireOrganisation(ctx, actor.user, input.organisationId);
  if (await findTenant(ctx.db, input.tenantId)) throw conflict(TENANT_EXISTS);
  const connected = ctx.db.transaction(async (tx) => {
    const active = !(await hasActiveTenant(tx, input.organisationId));
    const created = await insertTenant(
      tx,
      {
        tenantId: input.tenantId,
        organisationId: input.organisationId,
        tenantName: input.tenantName,
        applicationId: input.applicationId,
        objectId: input.objectId,
        redirectUri: input.redirectUri,
        clientSecretSealed: ctx.secrets.seal(input.clientSecret),
        isActive: active,
        ...(consented
          ? { graphBaseUrl: consented.graphBaseUrl, authorityUrl: consented.authorityUrl }
          : configuredEndpoints(ctx.config.m365Cloud)),
        ...(consented ? { adminConsentBy: actor.user.email } : {}),
      },
      ctx.now(),
    );
    if (active) await activateForIdleWorkers(tx, input.organisationId, created.tenantId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: input.organisationId,
        action: 'tenant.create',
        target: created.tenantId,
        outcome: 'success',
        details: { tenantName: input.tenantName, ...(consented ? { via: 'adminConsent' } : {}) },
      },
      tx,
    );
    await consented?.within(tx, created);
    return created;
  });
  // The tenant id is the key (stored in lower case): a concurrent connection of the same id meets it.
  return connected.catch((error: unknown) => {
    throw isUniqueViolation(error, 'tenants_pkey') ? conflict(TENANT_EXISTS) : error;
  });
}

/** Changes only the fields given; a client secret given replaces the stored one (the audit says so, never which). */
export async function changeTenant(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
  input: TenantUpdate,
): Promise<TenantRecord> {
  return ctx.db.transaction(async (tx) => {
    const result = await updateTenant(
      tx,
      tenant.tenantId,
      {
        tenantName: input.tenantName,
        applicationId: input.applicationId?.toLowerCase(),
        objectId: input.objectId?.toLowerCase(),
        redirectUri: input.redirectUri,
        clientSecretSealed: input.clientSecret ? ctx.secrets.seal(input.clientSecret) : undefined,
      },
      ctx.now(),
    );
    const changed = Object.keys(input).filter((k) => k !== 'clientSecret');
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'tenant.update',
        target: tenant.tenantId,
        outcome: 'success',
        details: { changed, clientSecretReplaced: Boolean(input.clientSecret) },
      },
      tx,
    );
    return result;
  });
}

/**
 * Refused with 409 while a provisioning task or one of its jobs runs. The active tenant hands over to
 * another of the organisation's (see handOverActiveTenant), so its workers keep acting for a tenant
 * while one is left; the audit entry names which.
 */
export async function removeTenant(ctx: AppContext, actor: Actor, tenant: TenantRecord): Promise<void> {
  if (provisioningRuns(tenant)) throw conflict(DELETE_WHILE_PROVISIONING);
  if ((await countRunningJobs(ctx.db, tenant.tenantId)) > 0) throw conflict(DELETE_WHILE_JOBS_RUN);
  await ctx.db.transaction(async (tx) => {
    const activeTenant = await handOverActiveTenant(tx, tenant.organisationId, tenant.tenantId);
    await deleteTenant(tx, tenant.tenantId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'tenant.delete',
        target: tenant.tenantId,
        outcome: 'success',
        details: { activeTenant },
      },
      tx,
    );
  });
}

/** Starts a provisioning or deprovisioning task: one at a time per tenant, else 409. */
export async function startProvisioning(ctx: AppContext, actor: Actor, tenant: TenantRecord, kind: TaskKind) {
  if (provisioningRuns(tenant)) throw conflict(PROVISIONING_RUNS);
  return startTask(ctx, actor.user, tenant, kind, actor.ip);
}

/** The tenant's provisioning task, or 404. */
export async function requireTask(ctx: AppContext, tenant: TenantRecord, taskId: string): Promise<TaskRow> {
  const task = await findTask(ctx.db, tenant.tenantId, taskId);
  if (!task) throw notFound('Task not found');
  return task;
}

/** The domain an organization is known by: its default verified domain, else its initial one. */
function defaultDomainOf(organization: Organization | undefined): string | undefined {
  const domains = organization?.verifiedDomains ?? [];
  const domain = domains.find((d) => d.isDefault) ?? domains.find((d) => d.isInitial);
  return domain?.name?.trim().toLowerCase() || undefined;
}

/**
 * Reads the default domain of the tenant's Microsoft 365 organisation through `graph` and stores it
 * (the portal's header names the tenant by it). Nothing here may fail what asked for it (a connection
 * test, a consent): a refusal (Organization.Read.All not granted) or an answer without a domain is
 * logged and leaves the domain stored before, if any.
 */
export async function learnDefaultDomain(ctx: AppContext, tenant: TenantRecord, graph: GraphApi): Promise<void> {
  try {
    const domain = defaultDomainOf(await graph.organization());
    if (!domain) ctx.log.warn({ tenantId: tenant.tenantId }, "the tenant's organization names no default domain");
    else if (domain !== tenant.defaultDomain) await storeDefaultDomain(ctx.db, tenant.tenantId, domain);
  } catch (error) {
    ctx.log.warn({ err: error, tenantId: tenant.tenantId }, "the tenant's default domain could not be read");
  }
}
