import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { requireOrganisation } from '../organisations/access.js';
import { requireTenant } from '../tenants/access.js';
import { runConnectionTest, runUserSync } from './connection.js';
import type { BackupConfigRecord } from './repository.js';
import { backupConfig, licenceOf, switchTenant, updateBackupConfig } from './service.js';

const view = (c: BackupConfigRecord) => ({
  tenantId: c.tenantId,
  defaultLocationId: c.defaultLocationId,
  pricePerGbMonth: c.pricePerGbMonth,
  currency: c.currency,
  teamsConfigured: c.teamsConfigured,
  exchangeConfigured: c.exchangeConfigured,
  maxConcurrency: c.maxConcurrency,
});

export function configurationRoutes(ctx: AppContext) {
  return routes({
    'apollo.configuration.backupConfig': {
      async handler({ query }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, query.tenantId);
        return view(await backupConfig(ctx, tenant));
      },
    },
    'apollo.configuration.updateBackupConfig': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, body.tenantId);
        return view(await updateBackupConfig(ctx, { user, ip: rc.ip }, tenant, body));
      },
    },
    'apollo.configuration.license': {
      async handler({ query }, rc) {
        const { user } = session(rc).auth;
        const organisationId = query?.organisationId ?? user.organisationId;
        await requireOrganisation(ctx, user, organisationId);
        return licenceOf(ctx, organisationId);
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
        return runUserSync(ctx, { user, ip: rc.ip }, tenant);
      },
    },
    'apollo.configuration.switchTenant': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, body.tenantId);
        await switchTenant(ctx, { user, ip: rc.ip }, tenant);
        return { tenantId: tenant.tenantId, tenantName: tenant.tenantName, isActive: true as const };
      },
    },
  });
}
