import { randomUUID } from 'node:crypto';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { routes, session } from '../../http/contract.js';
import { conflict, notFound, validationProblem } from '../../http/errors.js';
import { requireWorker } from '../organisations/access.js';
import { requireTenant } from '../tenants/access.js';

/** Product-spec.md section 8. */
export const LOCATION_IN_USE = 'Cannot delete location as it is used for a job';

interface Row {
  location_id: string;
  tenant_id: string;
  name: string;
  site_address: string;
  created_at: Date;
  used_by_jobs: number;
}

const view = (r: Row) => ({
  locationId: r.location_id,
  name: r.name,
  siteAddress: r.site_address,
  usedByJobs: Number(r.used_by_jobs),
  createdAt: new Date(r.created_at).toISOString(),
});

const selectLocations = `select l.*, (select count(*)::int from jobs j where j.location_id = l.location_id) as used_by_jobs
  from locations l`;

async function listFor(db: Queryable, where: string, params: unknown[]) {
  return (await db.query<Row>(`${selectLocations} where ${where} order by l.name`, params)).map(view);
}

async function findLocation(db: Queryable, tenantId: string, locationId: string) {
  const [row] = await db.query<Row>(`${selectLocations} where l.tenant_id = $1 and l.location_id = $2`, [
    tenantId,
    locationId,
  ]);
  if (!row) throw notFound('Location not found');
  return row;
}

/** Names are stored trimmed, so they are checked trimmed: a blank name is no name. */
async function assertUniqueName(db: Queryable, tenantId: string, name: string, except?: string) {
  if (name.trim() === '') throw validationProblem({ 'body/name': ['must not be blank'] });
  const rows = await db.query(
    'select 1 from locations where tenant_id = $1 and lower(name) = lower($2) and location_id <> $3',
    [tenantId, name.trim(), except ?? ''],
  );
  if (rows.length > 0) throw conflict('A location with this name already exists.');
}

export function locationRoutes(ctx: AppContext) {
  return routes({
    'apollo.locations.list': {
      async handler({ tenantId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        return listFor(ctx.db, 'l.tenant_id = $1', [tenant.tenantId]);
      },
    },
    'apollo.locations.create': {
      async handler({ tenantId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        await assertUniqueName(ctx.db, tenant.tenantId, body.name);
        const id = randomUUID();
        await ctx.db.transaction(async (tx) => {
          await tx.query(
            'insert into locations (location_id, tenant_id, name, site_address, created_at) values ($1, $2, $3, $4, $5)',
            [id, tenant.tenantId, body.name.trim(), body.siteAddress.trim(), ctx.now()],
          );
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: tenant.organisationId,
              action: 'location.create',
              target: id,
              outcome: 'success',
              details: { name: body.name },
            },
            tx,
          );
        });
        return view(await findLocation(ctx.db, tenant.tenantId, id));
      },
    },
    'apollo.locations.get': {
      async handler({ tenantId, locationId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        return view(await findLocation(ctx.db, tenant.tenantId, locationId));
      },
    },
    'apollo.locations.update': {
      async handler({ tenantId, locationId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        const location = await findLocation(ctx.db, tenant.tenantId, locationId);
        await assertUniqueName(ctx.db, tenant.tenantId, body.name, location.location_id);
        await ctx.db.transaction(async (tx) => {
          await tx.query('update locations set name = $2, site_address = $3 where location_id = $1', [
            location.location_id,
            body.name.trim(),
            body.siteAddress.trim(),
          ]);
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: tenant.organisationId,
              action: 'location.update',
              target: location.location_id,
              outcome: 'success',
            },
            tx,
          );
        });
        return view(await findLocation(ctx.db, tenant.tenantId, location.location_id));
      },
    },
    'apollo.locations.delete': {
      async handler({ tenantId, locationId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        const location = await findLocation(ctx.db, tenant.tenantId, locationId);
        const deleted = await ctx.db.transaction(async (tx) => {
          // Checked inside the transaction, so a job created meanwhile cannot be left without its location.
          const [used] = await tx.query<{ n: number }>('select count(*)::int as n from jobs where location_id = $1', [
            location.location_id,
          ]);
          if ((used?.n ?? 0) > 0) return false;
          await tx.query('delete from locations where location_id = $1', [location.location_id]);
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: tenant.organisationId,
              action: 'location.delete',
              target: location.location_id,
              outcome: 'success',
            },
            tx,
          );
          return true;
        });
        if (!deleted) {
          await ctx.audit({
            ...actedBy(user, rc.ip),
            organisationId: tenant.organisationId,
            action: 'location.delete',
            target: location.location_id,
            outcome: 'failure',
            details: { reason: 'in use' },
          });
          throw conflict(LOCATION_IN_USE);
        }
        return undefined;
      },
    },
  });
}

export function legacyLocationRoutes(ctx: AppContext) {
  const activeTenantLocations = async (workerIp: string, rc: Parameters<typeof session>[0]) => {
    const worker = await requireWorker(ctx, session(rc).auth.user, { workerIp });
    if (!worker.stagingtenantId) return [];
    return listFor(ctx.db, 'l.tenant_id = $1', [worker.stagingtenantId]);
  };
  return routes({
    'legacy.locations.worker': {
      async handler({ workerIp }, rc) {
        const worker = await requireWorker(ctx, session(rc).auth.user, { workerIp });
        return listFor(ctx.db, 'l.tenant_id in (select tenant_id from tenants where organisation_id = $1)', [
          worker.organisationId,
        ]);
      },
    },
    'legacy.locations.backup': {
      handler: ({ workerIp }, rc) => activeTenantLocations(workerIp, rc),
    },
    'legacy.locations.archive': {
      handler: ({ workerIp }, rc) => activeTenantLocations(workerIp, rc),
    },
  });
}
