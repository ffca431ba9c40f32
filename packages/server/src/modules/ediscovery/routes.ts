/** eDiscovery: search (search.ts), an item's text, and cases with their export (cases.ts). */
import type { EdiscoveryPreview } from '@compliance-portal/sdk';
import type { ChatMessage } from '@microsoft/microsoft-graph-types';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { notFound } from '../../http/errors.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { getArchivedItem } from '../../storage/archive.js';
import { stripHtml, summariseMail } from '../../storage/mime.js';
import { requireTenant } from '../tenants/access.js';
import type { TenantRecord } from '../tenants/repository.js';
import { mayReadItem, requireMailboxRead } from './access.js';
import { createCase, deleteCase, exportCase, findCase, listCases } from './cases.js';
import { runSearch } from './search.js';

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
    'apollo.ediscovery.exportCase': {
      async handler({ tenantId, caseId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        const found = await findCase(ctx, tenant.tenantId, caseId);
        const file = await exportCase(ctx, connect(tenant), plane.blobs, tenant, { user, ip: rc.ip }, found);
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
        return runSearch(ctx, connect(tenant), tenant, user, body);
      },
    },
    'apollo.ediscovery.preview': {
      async handler({ tenantId, itemId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        const item = await getArchivedItem(ctx.db, plane.blobs, tenant.tenantId, itemId);
        if (!item) throw notFound('Item not found');
        // A mail is refused as its download is; a chat no member's mailbox opens stays unknown.
        if (item.kind === 'mail')
          await requireMailboxRead(
            ctx,
            connect(tenant),
            tenant,
            { user, ip: rc.ip },
            item.source,
            'ediscovery.preview',
          );
        else if (!(await mayReadItem(ctx, connect(tenant), tenant, user, item))) throw notFound('Item not found');
        const [row] = await ctx.db.query<{ sender: string; recipients: string; sent_at: Date | null }>(
          'select sender, recipients, sent_at from archive_items where tenant_id = $1 and id = $2',
          [tenant.tenantId, itemId],
        );
        let body: string;
        if (item.kind === 'mail') body = summariseMail(item.content).body;
        else {
          const message = JSON.parse(new TextDecoder().decode(item.content)) as ChatMessage;
          const content = message.body?.content ?? '';
          body = message.body?.contentType === 'html' ? stripHtml(content) : content;
        }
        const preview: EdiscoveryPreview = {
          itemId: itemId,
          kind: item.kind === 'chat' ? 'teams' : item.kind,
          subject: item.subject,
          sender: row?.sender ?? '',
          recipients: row?.recipients ?? '',
          sentAt: row?.sent_at ? new Date(row.sent_at).toISOString() : null,
          body,
        };
        return preview;
      },
    },
  });
}
