/** The apollo archive-browsing paths: a mailbox's mail by folder, one item, Teams threads (browse.ts). */
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { requireTenant } from '../tenants/access.js';
import type { TenantRecord } from '../tenants/repository.js';
import { browseMail, browseTeams, browseThreads, readItem } from './browse.js';

export function archiveBrowseRoutes(ctx: AppContext) {
  const plane = dataPlaneOf(ctx);
  const connect = (tenant: TenantRecord) => () => plane.graph(tenant, { interactive: true });

  return routes({
    'apollo.archive.browseMail': {
      async handler({ tenantId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return browseMail(ctx, connect(tenant), tenant, { user, ip: rc.ip }, body);
      },
    },
    'apollo.archive.item': {
      async handler({ tenantId, itemId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return readItem(ctx, connect(tenant), plane.storeAt, tenant, { user, ip: rc.ip }, itemId);
      },
    },
    'apollo.archive.teams': {
      async handler({ tenantId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return browseTeams(ctx, connect(tenant), tenant, { user, ip: rc.ip });
      },
    },
    'apollo.archive.teamsThreads': {
      async handler({ tenantId, query }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return browseThreads(ctx, connect(tenant), plane.storeAt, tenant, { user, ip: rc.ip }, query);
      },
    },
  });
}
