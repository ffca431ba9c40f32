/** eDiscovery: an archived item's text, for whom may read it. */
import type { EdiscoveryPreview } from '@compliance-portal/sdk';
import type { ChatMessage } from '@microsoft/microsoft-graph-types';
import type { Actor } from '../../access/actor.js';
import { getArchivedItem, type StoreAt } from '../../archive-data/archive.js';
import { archivedItemEnvelope } from '../../archive-data/archive-repository.js';
import { stripHtml, summariseMail } from '../../archive-data/mime.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { TenantRecord } from '../tenants/repository.js';
import { mayReadItem, requireMailboxRead } from './access.js';

/**
 * The item's subject, sender, recipients and text. A mail is refused as its download is (403, audited);
 * a chat no member's mailbox the actor may read opens stays unknown (404).
 */
export async function previewItem(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  itemId: string,
): Promise<EdiscoveryPreview> {
  const item = await getArchivedItem(ctx.db, storeAt, tenant.tenantId, itemId);
  if (!item) throw notFound('Item not found');
  if (item.kind === 'mail') await requireMailboxRead(ctx, connect, tenant, actor, item.source, 'ediscovery.preview');
  else if (!(await mayReadItem(ctx, connect, tenant, actor.user, item))) throw notFound('Item not found');
  const envelope = await archivedItemEnvelope(ctx.db, tenant.tenantId, itemId);
  let body: string;
  if (item.kind === 'mail') body = summariseMail(item.content).body;
  else {
    const message = JSON.parse(new TextDecoder().decode(item.content)) as ChatMessage;
    const content = message.body?.content ?? '';
    body = message.body?.contentType === 'html' ? stripHtml(content) : content;
  }
  return {
    itemId,
    kind: item.kind === 'chat' ? 'teams' : item.kind,
    subject: item.subject,
    sender: envelope?.sender ?? '',
    recipients: envelope?.recipients ?? '',
    sentAt: envelope?.sentAt ? new Date(envelope.sentAt).toISOString() : null,
    body,
  };
}
