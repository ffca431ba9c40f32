/** The apollo archive-browsing paths: a mailbox's mail by folder, one item, Teams threads (browse.ts). */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import type { TenantRecord } from '../tenants/repository.js';
import { browseMail, browseTeams, browseThreads, readItem } from './browse.js';

export function archiveBrowseRoutes(ctx: AppContext) {
  const plane = dataPlaneOf(ctx);
  const connect = (tenant: TenantRecord) => () => plane.graph(tenant, { interactive: true });

  return routes({
    'apollo.archive.browseMail': {
      async handler({ body }, { tenant, actor }) {
        return browseMail(ctx, connect(tenant), tenant, actor, body);
      },
    },
    'apollo.archive.item': {
      async handler({ itemId }, { tenant, actor }) {
        return readItem(ctx, connect(tenant), plane.storeAt, tenant, actor, itemId);
      },
    },
    'apollo.archive.teams': {
      async handler(_args, { tenant, actor }) {
        return browseTeams(ctx, connect(tenant), tenant, actor);
      },
    },
    'apollo.archive.teamsThreads': {
      async handler({ query }, { tenant, actor }) {
        return browseThreads(ctx, connect(tenant), plane.storeAt, tenant, actor, query);
      },
    },
  });
}
