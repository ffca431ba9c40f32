/** Apollo discovery: accounts, sites, teams and groups of a tenant, and the trees of backed-up sources. */
import type { Application } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { routes } from '../../http/contract.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import {
  listDiscovered,
  listGroups,
  listGroupUsers,
  refreshDiscovery,
  requireTenantLocation,
  snapshotChildren,
  snapshotListCsv,
  snapshotRun,
} from './service.js';

export function discoveryRoutes(ctx: AppContext) {
  const plane = dataPlaneOf(ctx);

  return routes({
    'apollo.discovery.users': {
      async handler({ locationId, query }, { tenant }) {
        await requireTenantLocation(ctx, tenant, locationId);
        const application: Application = query?.application ?? 'onedrive';
        await refreshDiscovery(ctx, () => plane.graph(tenant, { interactive: true }), tenant, application);
        return listDiscovered(ctx.db, tenant.tenantId, application, query ?? {});
      },
    },
    'apollo.discovery.items': {
      async handler({ locationId, sourceId, nodeId, query }, { tenant }) {
        await requireTenantLocation(ctx, tenant, locationId);
        const at = query?.snapshot ? new Date(query.snapshot) : null;
        const run = await snapshotRun(ctx.db, tenant.tenantId, locationId, sourceId, at);
        if (!run) throw notFound('No backup of this source was found in this location.');
        return snapshotChildren(ctx.db, run, sourceId, nodeId, query ?? {});
      },
    },
    'apollo.discovery.listCsv': {
      async handler({ locationId, sourceId, listId, query }, { tenant, reply }) {
        await requireTenantLocation(ctx, tenant, locationId);
        const at = query?.snapshot ? new Date(query.snapshot) : null;
        const run = await snapshotRun(ctx.db, tenant.tenantId, locationId, sourceId, at);
        if (!run) throw notFound('No backup of this source was found in this location.');
        const { fileName, csv } = await snapshotListCsv(ctx.db, run, sourceId, listId);
        reply
          .type('text/csv; charset=utf-8')
          .header(
            'Content-Disposition',
            `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
          );
        return csv;
      },
    },
    'apollo.discovery.groups': {
      async handler({ locationId, query }, { tenant }) {
        await requireTenantLocation(ctx, tenant, locationId);
        return listGroups(() => plane.graph(tenant, { interactive: true }), query ?? {}, ctx.now().getTime());
      },
    },
    'apollo.discovery.groupUsers': {
      async handler({ locationId, groupId, query }, { tenant }) {
        await requireTenantLocation(ctx, tenant, locationId);
        return listGroupUsers(
          ctx.db,
          () => plane.graph(tenant, { interactive: true }),
          tenant.tenantId,
          groupId,
          query?.application ?? 'exchange',
          query ?? {},
        );
      },
    },
  });
}
