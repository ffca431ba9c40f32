/**
 * eDiscovery search. Mail is searched only in the mailboxes the caller may read: the caller's own
 * (the mailbox with the caller's address) and those a proxy right gives the caller, directly or
 * through a group the caller belongs to. Teams chats follow their members: a chat is searched when
 * one of its members' mailboxes is. Teams channel messages of the organisation's teams are open to the
 * people who act for it.
 */
import type { EdiscoveryHit, EdiscoveryResult, EdiscoverySearch } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { chatsOf, searchArchive } from '../../storage/archive.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import { parseQuery } from './query.js';

/** The mailboxes whose archive `user` may read in `tenant`. */
export async function readableMailboxes(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
): Promise<string[]> {
  const email = user.email.toLowerCase();
  const own = await ctx.db.query<{ source_id: string }>(
    `select source_id from discovered_sources where tenant_id = $1 and application = 'exchange' and lower(email) = $2`,
    [tenant.tenantId, email],
  );
  const rights = await ctx.db.query<{
    mailbox_id: string;
    principal_id: string;
    principal_kind: string;
    principal_email: string;
  }>('select mailbox_id, principal_id, principal_kind, principal_email from proxy_rights where tenant_id = $1', [
    tenant.tenantId,
  ]);
  const readable = new Set(own.map((o) => o.source_id));
  for (const r of rights)
    if (r.principal_kind === 'account' && r.principal_email.toLowerCase() === email) readable.add(r.mailbox_id);
  const groups = [
    ...new Set(rights.filter((r) => r.principal_kind === 'distributionGroup').map((r) => r.principal_id)),
  ];
  if (groups.length > 0) {
    try {
      const graph = await connect();
      for (const groupId of groups) {
        for await (const member of graph.groupMembers(groupId)) {
          const address = (member.mail ?? member.userPrincipalName ?? '').toLowerCase();
          if (address !== email) continue;
          for (const r of rights) if (r.principal_id === groupId) readable.add(r.mailbox_id);
          break;
        }
      }
    } catch (error) {
      // Without Microsoft 365 no group membership can be confirmed: those rights do not apply now.
      ctx.log.warn({ err: error, tenantId: tenant.tenantId }, 'group membership for proxy rights unavailable');
    }
  }
  return [...readable].sort();
}

/** One page of a search, in the mailboxes `user` may read, with the sources' names. */
export async function runSearch(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  body: EdiscoverySearch,
): Promise<EdiscoveryResult> {
  const readable = await readableMailboxes(ctx, graph, tenant, user);
  const mailboxes = body.mailboxes ? readable.filter((m) => body.mailboxes?.includes(m)) : readable;
  const parsed = parseQuery(body.query);
  const kinds = body.kinds ?? ['mail', 'teams'];
  // A team chosen narrows Teams to its channels; chats belong to people, not teams.
  const chats = body.teams ? [] : await chatsOf(ctx.db, tenant.tenantId, mailboxes);
  const result = await searchArchive(ctx.db, tenant.tenantId, {
    kind: kinds.flatMap((k) => (k === 'teams' ? (['teams', 'chat'] as const) : (['mail'] as const))),
    mailSources: mailboxes,
    chatSources: chats,
    ...(body.teams ? { teamSources: body.teams } : {}),
    ...(parsed.text ? { text: parsed.text } : {}),
    ...(parsed.sender ? { sender: parsed.sender } : {}),
    ...(parsed.recipient ? { recipient: parsed.recipient } : {}),
    ...(parsed.subject ? { subject: parsed.subject } : {}),
    ...(parsed.hasAttachments ? { hasAttachments: true } : {}),
    ...(body.from ? { from: new Date(body.from) } : {}),
    ...(body.to ? { to: new Date(body.to) } : {}),
    sort: body.sort ?? 'relevance',
    order: body.order ?? 'desc',
    page: body.page ?? 1,
    pageSize: body.pageSize ?? 25,
  });
  const sources = [...new Set(result.items.map((i) => i.source))];
  const names = new Map(
    (
      await ctx.db.query<{ source_id: string; display_name: string }>(
        `select source_id, display_name from discovered_sources where tenant_id = $1 and source_id = any($2)
         union all select chat_id, name from archived_chats where tenant_id = $1 and chat_id = any($2)`,
        [tenant.tenantId, sources],
      )
    ).map((r) => [r.source_id, r.display_name]),
  );
  const items: EdiscoveryHit[] = result.items.map((hit) => ({
    itemId: hit.id,
    kind: hit.kind === 'chat' ? 'teams' : hit.kind,
    ...(hit.kind === 'chat' ? { chat: true } : {}),
    source: hit.source,
    sourceName: names.get(hit.source) ?? hit.source,
    container: hit.kind === 'chat' ? '' : hit.container,
    subject: hit.subject,
    sender: hit.sender,
    recipients: hit.recipients,
    sentAt: hit.sentAt,
    sizeBytes: hit.size,
    hasAttachments: hit.hasAttachments,
    snippet: hit.snippet,
  }));
  return {
    items,
    total: result.total,
    page: result.page,
    pageSize: result.pageSize,
    searchedMailboxes: mailboxes.length,
  };
}

/** May `user` see the archived item of `kind` from `source`? Mail and chats by the mailboxes rule. */
export async function mayReadItem(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  item: { kind: 'mail' | 'teams' | 'chat'; source: string },
): Promise<boolean> {
  if (item.kind === 'teams') return true;
  const mailboxes = await readableMailboxes(ctx, connect, tenant, user);
  if (item.kind === 'mail') return mailboxes.includes(item.source);
  return (await chatsOf(ctx.db, tenant.tenantId, mailboxes)).includes(item.source);
}
