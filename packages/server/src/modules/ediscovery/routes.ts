/**
 * eDiscovery: search (search.ts), an item's text (preview.ts), cases with their custodians
 * (custodians.ts) and export (cases.ts), their legal hold (hold.ts) and what the caller may do.
 */
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import type { TenantRecord } from '../tenants/repository.js';
import { createCase, deleteCase, exportCase, findCase, listCases } from './cases.js';
import { eventFile, previewEvent } from './events.js';
import { holdCase, releaseCase } from './hold.js';
import { previewItem } from './preview.js';
import { searchTenant } from './search.js';

export function ediscoveryRoutes(ctx: AppContext) {
  const plane = dataPlaneOf(ctx);
  const connect = (tenant: TenantRecord) => () => plane.graph(tenant, { interactive: true });

  return routes({
    'apollo.ediscovery.cases': {
      async handler(_args, { tenant }) {
        return listCases(ctx, tenant.tenantId);
      },
    },
    'apollo.ediscovery.createCase': {
      async handler({ body }, { tenant, actor }) {
        return createCase(ctx, connect(tenant), tenant, actor, body);
      },
    },
    'apollo.ediscovery.getCase': {
      async handler({ caseId }, { tenant }) {
        return findCase(ctx, tenant.tenantId, caseId);
      },
    },
    'apollo.ediscovery.deleteCase': {
      async handler({ caseId }, { tenant, actor }) {
        await deleteCase(ctx, tenant, actor, caseId);
        return undefined;
      },
    },
    'apollo.ediscovery.holdCase': {
      async handler({ caseId }, { tenant, actor }) {
        return holdCase(ctx, tenant, actor, caseId);
      },
    },
    'apollo.ediscovery.releaseCase': {
      async handler({ caseId }, { tenant, actor }) {
        return releaseCase(ctx, tenant, actor, caseId);
      },
    },
    'apollo.ediscovery.rights': {
      async handler(_args, { actor }) {
        return { ediscoveryManager: actor.user.ediscoveryManager };
      },
    },
    'apollo.ediscovery.exportCase': {
      async handler({ caseId }, { tenant, actor, reply }) {
        const found = await findCase(ctx, tenant.tenantId, caseId);
        const file = await exportCase(ctx, connect(tenant), plane.storeAt, tenant, actor, found);
        reply
          .type('application/zip')
          .header(
            'Content-Disposition',
            `attachment; filename="${file.fileName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          )
          .header('Content-Length', file.size);
        return file.stream;
      },
    },
    'apollo.ediscovery.search': {
      async handler({ body }, { tenant, actor }) {
        return searchTenant(ctx, connect(tenant), tenant, actor.user, body);
      },
    },
    'apollo.ediscovery.eventPreview': {
      async handler({ mailboxId, eventId }, { tenant, actor }) {
        return previewEvent(ctx, connect(tenant), plane.storeAt, tenant, actor, mailboxId, eventId);
      },
    },
    'apollo.ediscovery.eventFile': {
      async handler({ mailboxId, eventId }, { tenant, actor, reply }) {
        const file = await eventFile(ctx, connect(tenant), plane.storeAt, tenant, actor, mailboxId, eventId);
        reply
          .type('text/calendar; charset=utf-8')
          .header(
            'Content-Disposition',
            `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          );
        return file.content;
      },
    },
    'apollo.ediscovery.preview': {
      async handler({ itemId }, { tenant, actor }) {
        return previewItem(ctx, connect(tenant), plane.storeAt, tenant, actor, itemId);
      },
    },
  });
}
