/** Dashboards: the backup area's figures per workload, the overview, and the legacy worker statistics. */
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { requireTenant, workerTenant } from '../tenants/access.js';
import { overview } from './overview.js';
import { backupStatistics, basicFigures, detailFigures, lastSuccessfulBackup, sizeFigures } from './service.js';

export function dashboardRoutes(ctx: AppContext) {
  return routes({
    'apollo.dashboards.application': {
      async handler({ tenantId, application, view }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        const figures = { basic: basicFigures, size: sizeFigures, details: detailFigures }[view];
        return figures(ctx.db, tenant.tenantId, application, ctx.now());
      },
    },
    'apollo.dashboards.overview': {
      async handler({ tenantId }, rc) {
        return overview(ctx, await requireTenant(ctx, session(rc).auth.user, tenantId));
      },
    },
    'legacy.workers.lastSuccessfulJob': {
      async handler({ workerIp }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, workerIp);
        return lastSuccessfulBackup(ctx.db, tenant.tenantId);
      },
    },
    'legacy.workers.statistics': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        return backupStatistics(ctx.db, tenant.tenantId);
      },
    },
  });
}
