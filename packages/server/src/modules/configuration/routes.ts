import { TRIAL_LIMITS } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { routes, session } from '../../http/contract.js';
import { notFound } from '../../http/errors.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { requireOrganisation } from '../organisations/access.js';
import { findOrganisation } from '../organisations/repository.js';
import { requireTenant } from '../tenants/access.js';
import { runConnectionTest, syncUsers } from './connection.js';

interface ConfigRow {
  tenant_id: string;
  default_location_id: string | null;
  price_per_gb_month: number;
  currency: string;
  teams_configured: boolean;
  exchange_configured: boolean;
  max_concurrency: number;
}

const view = (r: ConfigRow) => ({
  tenantId: r.tenant_id,
  defaultLocationId: r.default_location_id,
  pricePerGbMonth: Number(r.price_per_gb_month),
  currency: r.currency,
  teamsConfigured: r.teams_configured,
  exchangeConfigured: r.exchange_configured,
  maxConcurrency: r.max_concurrency,
});

async function loadConfig(db: Queryable, tenantId: string): Promise<ConfigRow> {
  await db.query('insert into backup_config (tenant_id) values ($1) on conflict (tenant_id) do nothing', [tenantId]);
  const [row] = await db.query<ConfigRow>('select * from backup_config where tenant_id = $1', [tenantId]);
  if (!row) throw new Error('backup config missing after insert');
  return row;
}

const perApplication = async (db: Queryable, organisationId: string, type: string) => {
  const rows = await db.query<{ application: string; n: number }>(
    `select j.application, count(*)::int as n from jobs j join tenants t on t.tenant_id = j.tenant_id
     where t.organisation_id = $1 and j.type = $2 group by j.application`,
    [organisationId, type],
  );
  const count = (app: string) => Number(rows.find((r) => r.application === app)?.n ?? 0);
  return { onedrive: count('onedrive'), sharepoint: count('sharepoint'), teams: count('teams') };
};

export function configurationRoutes(ctx: AppContext) {
  return routes({
    'apollo.configuration.backupConfig': {
      async handler({ query }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, query.tenantId);
        return view(await loadConfig(ctx.db, tenant.tenantId));
      },
    },
    'apollo.configuration.updateBackupConfig': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, body.tenantId);
        if (body.defaultLocationId) {
          const found = await ctx.db.query('select 1 from locations where location_id = $1 and tenant_id = $2', [
            body.defaultLocationId,
            tenant.tenantId,
          ]);
          if (found.length === 0) throw notFound('Location not found');
        }
        const row = await ctx.db.transaction(async (tx) => {
          const current = await loadConfig(tx, tenant.tenantId);
          const next = {
            default_location_id:
              body.defaultLocationId === undefined ? current.default_location_id : body.defaultLocationId,
            price_per_gb_month: body.pricePerGbMonth ?? current.price_per_gb_month,
            currency: body.currency?.toUpperCase() ?? current.currency,
            teams_configured: body.teamsConfigured ?? current.teams_configured,
            exchange_configured: body.exchangeConfigured ?? current.exchange_configured,
            max_concurrency: body.maxConcurrency ?? current.max_concurrency,
          };
          const [updated] = await tx.query<ConfigRow>(
            `update backup_config set default_location_id = $2, price_per_gb_month = $3, currency = $4, teams_configured = $5,
               exchange_configured = $6, max_concurrency = $7 where tenant_id = $1 returning *`,
            [
              tenant.tenantId,
              next.default_location_id,
              next.price_per_gb_month,
              next.currency,
              next.teams_configured,
              next.exchange_configured,
              next.max_concurrency,
            ],
          );
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: tenant.organisationId,
              action: 'config.backup.update',
              target: tenant.tenantId,
              outcome: 'success',
              details: { changed: Object.keys(body).filter((k) => k !== 'tenantId') },
            },
            tx,
          );
          return updated;
        });
        if (!row) throw new Error('backup config update returned nothing');
        return view(row);
      },
    },
    'apollo.configuration.license': {
      async handler({ query }, rc) {
        const { user } = session(rc).auth;
        const organisationId = query?.organisationId ?? user.organisationId;
        await requireOrganisation(ctx, user, organisationId);
        const org = await findOrganisation(ctx.db, organisationId);
        if (!org) throw notFound('Organisation not found');
        return {
          organisationId: org.id,
          kind: org.license,
          validUntil: org.licenseValidUntil?.toISOString() ?? null,
          limits: org.license === 'trial' ? { ...TRIAL_LIMITS } : null,
          used: {
            backupJobs: await perApplication(ctx.db, org.id, 'backup'),
            restores: await perApplication(ctx.db, org.id, 'restore'),
          },
        };
      },
    },
    'apollo.configuration.testOnedriveConnection': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, body.tenantId);
        return runConnectionTest(ctx, { user, ip: rc.ip }, tenant);
      },
    },
    'apollo.configuration.syncUsers': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, body.tenantId);
        const result = await syncUsers(ctx, () => dataPlaneOf(ctx).graph(tenant, { interactive: true }), tenant);
        await ctx.audit({
          ...actedBy(user, rc.ip),
          organisationId: tenant.organisationId,
          action: 'users.sync',
          target: tenant.tenantId,
          outcome: 'success',
          details: { synchronized: result.synchronized, added: result.added, removed: result.removed },
        });
        return result;
      },
    },
    'apollo.configuration.switchTenant': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, body.tenantId);
        await ctx.db.transaction(async (tx) => {
          await tx.query('update tenants set is_active = (tenant_id = $2) where organisation_id = $1', [
            tenant.organisationId,
            tenant.tenantId,
          ]);
          await tx.query('update workers set stagingtenant_id = $2 where organisation_id = $1', [
            tenant.organisationId,
            tenant.tenantId,
          ]);
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: tenant.organisationId,
              action: 'tenant.switch',
              target: tenant.tenantId,
              outcome: 'success',
            },
            tx,
          );
        });
        return { tenantId: tenant.tenantId, tenantName: tenant.tenantName, isActive: true as const };
      },
    },
  });
}
