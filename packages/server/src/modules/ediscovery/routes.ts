/**
 * eDiscovery: search (search.ts), an item's text (preview.ts), cases with their custodians
 * (custodians.ts) and export (cases.ts), their legal hold (hold.ts) and what the caller may do.
 */
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { requireTenant } from '../tenants/access.js';
import type { TenantRecord } from '../tenants/repository.js';
import { createCase, deleteCase, exportCase, findCase, listCases } from './cases.js';
import { holdCase, releaseCase } from './hold.js';
import { previewItem } from './preview.js';
import { searchTenant } from './search.js';

export function ediscoveryRoutes(ctx: AppContext) {
  const plane = dataPlaneOf(ctx);
  const connect = (tenant: TenantRecord) => () => plane.graph(tenant, { interactive: true });

  return routes({
    'apollo.ediscovery.cases': {
      async handler({ tenantId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        return listCases(ctx, tenant.tenantId);
      },
    },
    'apollo.ediscovery.createCase': {
      async handler({ tenantId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return createCase(ctx, connect(tenant), tenant, { user, ip: rc.ip }, body);
      },
    },
    'apollo.ediscovery.getCase': {
      async handler({ tenantId, caseId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        return findCase(ctx, tenant.tenantId, caseId);
      },
    },
    'apollo.ediscovery.deleteCase': {
      async handler({ tenantId, caseId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        await deleteCase(ctx, tenant, { user, ip: rc.ip }, caseId);
        return undefined;
      },
    },
    'apollo.ediscovery.holdCase': {
      async handler({ tenantId, caseId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return holdCase(ctx, tenant, { user, ip: rc.ip }, caseId);
      },
    },
    'apollo.ediscovery.releaseCase': {
      async handler({ tenantId, caseId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return releaseCase(ctx, tenant, { user, ip: rc.ip }, caseId);
      },
    },
    'apollo.ediscovery.rights': {
      async handler({ tenantId }, rc) {
        const { user } = session(rc).auth;
        await requireTenant(ctx, user, tenantId);
        return { ediscoveryManager: user.ediscoveryManager };
      },
    },
    'apollo.ediscovery.exportCase': {
      async handler({ tenantId, caseId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        const found = await findCase(ctx, tenant.tenantId, caseId);
        const file = await exportCase(ctx, connect(tenant), plane.storeAt, tenant, { user, ip: rc.ip }, found);
        rc.reply
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
      async handler({ tenantId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return searchTenant(ctx, connect(tenant), tenant, user, body);
      },
    },
    'apollo.ediscovery.preview': {
      async handler({ tenantId, itemId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return previewItem(ctx, connect(tenant), plane.storeAt, tenant, { user, ip: rc.ip }, itemId);
      },
    },
  });
}
