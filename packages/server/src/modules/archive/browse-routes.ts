/**
 * The apollo archive-browsing paths: a mailbox's mail by folder, one item, Teams threads (browse.ts),
 * and a mailbox's calendar events, contacts and tasks with their versions and files (mailbox-browse.ts).
 */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import type { TenantRecord } from '../tenants/repository.js';
import { browseMail, browseTeams, browseThreads, readItem } from './browse.js';
import { browseMailboxItems, mailboxItemFile, readMailboxItem } from './mailbox-browse.js';

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
    'apollo.archive.browseMailboxItems': {
      async handler({ body }, { tenant, actor }) {
        return browseMailboxItems(ctx, connect(tenant), plane.storeAt, tenant, actor, body);
      },
    },
    'apollo.archive.mailboxItem': {
      async handler({ body }, { tenant, actor }) {
        return readMailboxItem(ctx, connect(tenant), plane.storeAt, tenant, actor, body);
      },
    },
    'apollo.archive.mailboxItemFile': {
      async handler({ body }, { tenant, actor, reply }) {
        const file = await mailboxItemFile(ctx, connect(tenant), plane.storeAt, tenant, actor, body);
        reply
          .type(`${file.contentType}; charset=utf-8`)
          .header(
            'Content-Disposition',
            `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          )
          .header('Content-Length', file.bytes.length);
        return file.bytes;
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
