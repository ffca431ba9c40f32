/** Data management: the file manager's calls and the SharePoint data-management dashboard. */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { graphFailure } from '../../http/graph-errors.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { browse, cleanupPreview, fileVersions } from './files.js';
import { dataManagementDashboard, ensureAnalysis } from './storage.js';

/**
 * Microsoft 365's answer as the caller should see it: a missing item is 404, the rest 502 with its
 * cause, diagnosed with the clean-up's permissions.
 */
async function live<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw graphFailure(error, 'Folder not found', 'cleanup');
  }
}

export function dataManagementRoutes(ctx: AppContext) {
  const plane = dataPlaneOf(ctx);
  return routes({
    'apollo.dataManagement.browse': {
      async handler({ body }, { tenant }) {
        return live(async () => browse(await plane.graph(tenant, { interactive: true }), body));
      },
    },
    'apollo.dataManagement.versions': {
      async handler({ body }, { tenant }) {
        return live(async () => fileVersions(await plane.graph(tenant, { interactive: true }), body));
      },
    },
    'apollo.dataManagement.preview': {
      async handler({ body }, { tenant }) {
        return live(async () =>
          cleanupPreview(ctx.db, await plane.graph(tenant, { interactive: true }), tenant.tenantId, body),
        );
      },
    },
    'apollo.dashboards.sharepointDataManagement': {
      async handler(_args, { tenant }) {
        await live(() => ensureAnalysis(ctx, () => plane.graph(tenant), tenant));
        return dataManagementDashboard(ctx, tenant.tenantId);
      },
    },
  });
}
