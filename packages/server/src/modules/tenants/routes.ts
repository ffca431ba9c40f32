import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { type RequestContext, routes, session } from '../../http/contract.js';
import { conflict, notFound } from '../../http/errors.js';
import { accessibleOrganisationIds, requireOrganisation } from '../organisations/access.js';
import { requireTenant } from './access.js';
import { findTask, startTask, taskView } from './provisioning.js';
import { findTenant, insertTenant, listTenants, tenantView, updateTenant } from './repository.js';

export function tenantRoutes(ctx: AppContext) {
  /** One provisioning task at a time per tenant. */
  const startProvisioning = async (tenantId: string, kind: 'provision' | 'deprovision', rc: RequestContext) => {
    const { user } = session(rc).auth;
    const tenant = await requireTenant(ctx, user, tenantId);
    if (tenant.provisioning === 'provisioning' || tenant.provisioning === 'deprovisioning') {
      throw conflict('A provisioning task for this tenant is already running.');
    }
    return startTask(ctx, user, tenant, kind, rc.ip);
  };

  return routes({
    'apollo.tenants.list': {
      async handler(_args, rc) {
        const { user } = session(rc).auth;
        return (await listTenants(ctx.db, await accessibleOrganisationIds(ctx.db, user))).map(tenantView);
      },
    },

    'apollo.tenants.create': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        await requireOrganisation(ctx, user, body.organisationId);
        if (await findTenant(ctx.db, body.tenantId))
          throw conflict('A tenant with this tenant ID is already connected.');
        const tenant = await ctx.db.transaction(async (tx) => {
          const [others] = await tx.query<{ n: number }>(
            'select count(*)::int as n from tenants where organisation_id = $1',
            [body.organisationId],
          );
          const first = (others?.n ?? 0) === 0;
          const created = await insertTenant(
            tx,
            {
              tenantId: body.tenantId,
              organisationId: body.organisationId,
              tenantName: body.tenantName,
              applicationId: body.applicationId,
              objectId: body.objectId,
              redirectUri: body.redirectUri,
              clientSecretSealed: ctx.secrets.seal(body.clientSecret),
              isActive: first,
              graphBaseUrl: null,
              authorityUrl: null,
            },
            ctx.now(),
          );
          if (first) {
            await tx.query(
              'update workers set stagingtenant_id = $2 where organisation_id = $1 and stagingtenant_id is null',
              [body.organisationId, created.tenantId],
            );
          }
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: body.organisationId,
              action: 'tenant.create',
              target: created.tenantId,
              outcome: 'success',
              details: { tenantName: body.tenantName },
            },
            tx,
          );
          return created;
        });
        return tenantView(tenant);
      },
    },

    'apollo.tenants.get': {
      async handler({ tenantId }, rc) {
        return tenantView(await requireTenant(ctx, session(rc).auth.user, tenantId));
      },
    },

    'apollo.tenants.update': {
      async handler({ tenantId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        const updated = await ctx.db.transaction(async (tx) => {
          const result = await updateTenant(
            tx,
            tenant.tenantId,
            {
              tenantName: body.tenantName,
              applicationId: body.applicationId?.toLowerCase(),
              objectId: body.objectId?.toLowerCase(),
              redirectUri: body.redirectUri,
              clientSecretSealed: body.clientSecret ? ctx.secrets.seal(body.clientSecret) : undefined,
            },
            ctx.now(),
          );
          const changed = Object.keys(body).filter((k) => k !== 'clientSecret');
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: tenant.organisationId,
              action: 'tenant.update',
              target: tenant.tenantId,
              outcome: 'success',
              details: { changed, clientSecretReplaced: Boolean(body.clientSecret) },
            },
            tx,
          );
          return result;
        });
        return tenantView(updated);
      },
    },

    'apollo.tenants.delete': {
      async handler({ tenantId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        if (tenant.provisioning === 'provisioning' || tenant.provisioning === 'deprovisioning') {
          throw conflict('The tenant cannot be deleted while a provisioning task runs.');
        }
        const [running] = await ctx.db.query<{ n: number }>(
          `select count(*)::int as n from jobs where tenant_id = $1 and status = 'running'`,
          [tenant.tenantId],
        );
        if ((running?.n ?? 0) > 0) throw conflict('The tenant cannot be deleted while its jobs run; stop them first.');
        await ctx.db.transaction(async (tx) => {
          await tx.query('update workers set stagingtenant_id = null where stagingtenant_id = $1', [tenant.tenantId]);
          await tx.query('delete from tenants where tenant_id = $1', [tenant.tenantId]);
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: tenant.organisationId,
              action: 'tenant.delete',
              target: tenant.tenantId,
              outcome: 'success',
            },
            tx,
          );
        });
        return undefined;
      },
    },

    'apollo.tenants.provision': {
      handler: ({ tenantId }, rc) => startProvisioning(tenantId, 'provision', rc),
    },

    'apollo.tenants.deprovision': {
      handler: ({ tenantId }, rc) => startProvisioning(tenantId, 'deprovision', rc),
    },

    'apollo.tenants.task': {
      async handler({ tenantId, taskId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        const task = await findTask(ctx, tenant.tenantId, taskId);
        if (!task) throw notFound('Task not found');
        return taskView(task);
      },
    },
  });
}
