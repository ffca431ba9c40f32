import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
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
      async handler(_args, { tenant }) {
        return view(await backupConfig(ctx, tenant));
      },
    },
    'apollo.configuration.updateBackupConfig': {
      async handler({ body }, { tenant, actor }) {
        return view(await updateBackupConfig(ctx, actor, tenant, body));
      },
    },
    'apollo.configuration.license': {
      async handler(_args, { organisationId }) {
        return licenceOf(ctx, organisationId);
      },
    },
    'apollo.configuration.testOnedriveConnection': {
      async handler(_args, { tenant, actor }) {
        return runConnectionTest(ctx, actor, tenant);
      },
    },
    'apollo.configuration.syncUsers': {
      async handler(_args, { tenant, actor }) {
        return runUserSync(ctx, actor, tenant);
      },
    },
    'apollo.configuration.switchTenant': {
      async handler(_args, { tenant, actor }) {
        await switchTenant(ctx, actor, tenant);
        return { tenantId: tenant.tenantId, tenantName: tenant.tenantName, isActive: true as const };
      },
    },
  });
}
