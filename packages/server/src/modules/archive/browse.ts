/**
 * Browsing the archive outside eDiscovery: a mailbox's archived mail by folder, one archived item with
 * its headers and attachments, the Teams archive's teams, channels and readable chats, and a channel's
 * or chat's messages threaded. Who may read what is eDiscovery's rule (../ediscovery/access.ts).
 */
import type {
  ArchivedAttachment,
  ArchivedItem,
  ArchivedMail,
  ArchivedMailBrowse,
  Page,
  TeamsArchiveNode,
  TeamsPost,
  TeamsThread,
} from '@compliance-portal/sdk';
import type { ChatMessage, ChatMessageAttachment } from '@microsoft/microsoft-graph-types';
import type { Actor } from '../../access/actor.js';
import type { StoreAt } from '../../archive-data/archive.js';
import { chatsOf } from '../../archive-data/archive-repository.js';
import { readMail, stripHtml } from '../../archive-data/mime.js';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { mayReadItem, readableMailboxes, requireMailboxRead } from '../ediscovery/access.js';
import type { TenantRecord } from '../tenants/repository.js';
import {
  itemRow,
  mailPage,
  setReplyTo,
  type ThreadPlace,
  type ThreadRow,
  threadPage,
  unthreaded,
} from './browse-repository.js';
import { archiveStructure } from './teams.js';

type Connect = () => Promise<GraphApi>;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A page of a mailbox's archived mail, for who may read the mailbox (else 403, audited). */
export async function browseMail(
  ctx: AppContext,
  connect: Connect,
  tenant: TenantRecord,
  actor: Actor,
  request: ArchivedMailBrowse,
): Promise<Page<ArchivedMail>> {
  const from = request.from ? new Date(request.from) : undefined;
  const to = request.to ? new Date(request.to) : undefined;
  if (from && to && to < from) throw badRequest('The end of the period is before its start.');
  await requireMailboxRead(ctx, connect, tenant, actor, request.mailboxId, 'archive.browse');
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? 25;
  const { rows, total } = await mailPage(ctx.db, tenant.tenantId, {
    mailboxId: request.mailboxId,
    folder: request.folder,
    search: request.search,
    from,
    to,
    attachments: request.attachments,
    sort: request.sort,
    order: request.order,
    page,
    pageSize,
  });
  return {
    items: rows.map((r) => ({
      itemId: r.id,
      folder: r.container,
      subject: r.subject,
      sender: r.sender,
      recipients: r.recipients,
      sentAt: iso(r.sent_at),
      sizeBytes: Number(r.size),
      hasAttachments: r.has_attachments,
    })),
    total,
    page,
    pageSize,
  };
}

/** A Teams message's attachments as the archive knows them: inline content by its size, a file by its link. */
function teamsAttachments(attachments: readonly ChatMessageAttachment[] | null | undefined): ArchivedAttachment[] {
  return (attachments ?? []).map((a) => ({
    name: a.name || a.contentType || 'attachment',
    contentType: a.contentType ?? 'application/octet-stream',
    sizeBytes: a.content ? Buffer.byteLength(a.content, 'utf8') : null,
    // Only a web address is passed on: an archived message's link is shown as one.
    url: a.contentUrl && /^https:\/\//i.test(a.contentUrl) ? a.contentUrl : null,
  }));
}

const messageText = (m: ChatMessage) => {
  const content = m.body?.content ?? '';
  return m.body?.contentType === 'html' ? stripHtml(content) : content;
};

const parseMessage = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as ChatMessage;

/**
 * An archived item with its headers, attachments and text. A mail of a mailbox the actor may not read
 * is refused (403, audited); a chat none of whose members' mailboxes they read stays unknown (404).
 */
export async function readItem(
  ctx: AppContext,
  connect: Connect,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  itemId: string,
): Promise<ArchivedItem> {
  const row = await itemRow(ctx.db, tenant.tenantId, itemId);
  if (!row) throw notFound('Item not found');
  if (row.kind === 'mail') await requireMailboxRead(ctx, connect, tenant, actor, row.source, 'archive.preview');
  else if (!(await mayReadItem(ctx, connect, tenant, actor.user, row))) throw notFound('Item not found');
  const content = await (await storeAt(row.location_id)).get(row.blob_hash);
  const place = {
    itemId,
    kind: row.kind,
    source: row.source,
    sourceName: row.source_name ?? row.source,
    container: row.container,
    sizeBytes: Number(row.size),
  };
  if (row.kind === 'mail') {
    const mail = readMail(content);
    return {
      ...place,
      subject: mail.subject || row.subject,
      from: mail.from || row.sender,
      to: mail.to,
      cc: mail.cc,
      sentAt: iso(mail.date ?? row.sent_at),
      attachments: mail.attachments.map((a) => ({ ...a, url: null })),
      body: mail.body,
    };
  }
  const message = parseMessage(content);
  return {
    ...place,
    subject: row.subject,
    from: row.sender,
    to: row.recipients,
    cc: '',
    sentAt: iso(row.sent_at),
    attachments: teamsAttachments(message.attachments),
    body: messageText(message),
  };
}

/** The archived teams with their channels, then the archived chats the actor may read. */
export async function browseTeams(
  ctx: AppContext,
  connect: Connect,
  tenant: TenantRecord,
  actor: Actor,
): Promise<TeamsArchiveNode[]> {
  const nodes = await archiveStructure(ctx, tenant.tenantId);
  const readable = new Set(
    await chatsOf(ctx.db, tenant.tenantId, await readableMailboxes(ctx, connect, tenant, actor.user)),
  );
  return nodes.filter((n) => n.kind !== 'chat' || readable.has(n.nodeId));
}

/**
 * A page of a team's channel's or a chat's threads: posts newest first, each with its replies oldest
 * first. A chat the actor may not read, or a place with nothing archived, is 404. Messages archived
 * before their post was recorded are threaded here once, from the message the archive keeps.
 */
export async function browseThreads(
  ctx: AppContext,
  connect: Connect,
  storeAt: StoreAt,
  tenant: TenantRecord,
  actor: Actor,
  query: { source: string; channel?: string | undefined; page?: number | undefined; pageSize?: number | undefined },
): Promise<Page<TeamsThread>> {
  const place: ThreadPlace = query.channel
    ? { kind: 'teams', source: query.source, channel: query.channel }
    : { kind: 'chat', source: query.source };
  if (place.kind === 'chat' && !(await mayReadItem(ctx, connect, tenant, actor.user, place)))
    throw notFound('Team or chat not found');
  for (const row of await unthreaded(ctx.db, tenant.tenantId, place)) {
    const message = parseMessage(await (await storeAt(row.location_id)).get(row.blob_hash));
    await setReplyTo(ctx.db, tenant.tenantId, row.id, message.replyToId ?? '');
  }
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  const { posts, replies, total } = await threadPage(ctx.db, tenant.tenantId, place, page, pageSize);
  if (total === 0) throw notFound('Team or chat not found');
  const read = async (row: ThreadRow): Promise<TeamsPost> => {
    const message = parseMessage(await (await storeAt(row.location_id)).get(row.blob_hash));
    return {
      itemId: row.id,
      author: row.sender,
      created: iso(row.sent_at),
      subject: row.subject || null,
      body: messageText(message),
      attachments: teamsAttachments(message.attachments),
    };
  };
  const threads: TeamsThread[] = [];
  for (const post of posts) {
    const mine = replies.filter((r) => r.reply_to === post.external_id);
    threads.push({ post: await read(post), replies: await Promise.all(mine.map(read)) });
  }
  return { items: threads, total, page, pageSize };
}
