/** Dashboards: the backup area's figures per workload, the overview, and the legacy worker statistics. */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { overview } from './overview.js';
import { backupStatistics, basicFigures, detailFigures, lastSuccessfulBackup, sizeFigures } from './service.js';

export function dashboardRoutes(ctx: AppContext) {
  return routes({
    'apollo.dashboards.application': {
      async handler({ application, view }, { tenant }) {
        const figures = { basic: basicFigures, size: sizeFigures, details: detailFigures }[view];
        return figures(ctx.db, tenant.tenantId, application, ctx.now());
      },
    },
    'apollo.dashboards.overview': {
      async handler(_args, { tenant }) {
        return overview(ctx, tenant);
      },
    },
    'legacy.workers.lastSuccessfulJob': {
      async handler(_args, { tenant }) {
        return lastSuccessfulBackup(ctx.db, tenant.tenantId);
      },
    },
    'legacy.workers.statistics': {
      async handler(_args, { tenant }) {
        return backupStatistics(ctx.db, tenant.tenantId);
      },
    },
  });
}
