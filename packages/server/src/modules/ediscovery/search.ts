/**
 * eDiscovery search, in what the caller may read (access.ts): mail of the mailboxes a right opens,
 * Teams chats through their members' mailboxes, the organisation's Teams channels.
 */
import type { EdiscoveryHit, EdiscoveryResult, EdiscoverySearch } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { chatsOf, searchArchive } from '../../storage/archive.js';
import type { HoldScope } from '../../storage/legal-hold.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import { readableMailboxes } from './access.js';
import { parseQuery } from './query.js';

/**
 * What a search looks at, as `user` may read it now: its criteria in the mailboxes a right opens, the
 * chats of their accounts and the teams it names (all when none). A legal hold keeps this as it is.
 */
export async function searchScope(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  body: EdiscoverySearch,
): Promise<HoldScope> {
  const readable = await readableMailboxes(ctx, graph, tenant, user);
  const mailboxes = body.mailboxes ? readable.filter((m) => body.mailboxes?.includes(m)) : readable;
  const parsed = parseQuery(body.query);
  const kinds = body.kinds ?? ['mail', 'teams'];
  // A team chosen narrows Teams to its channels; chats belong to people, not teams.
  const chats = body.teams ? [] : await chatsOf(ctx.db, tenant.tenantId, mailboxes);
  return {
    kind: kinds.flatMap((k) => (k === 'teams' ? (['teams', 'chat'] as const) : (['mail'] as const))),
    mailSources: mailboxes,
    chatSources: chats,
    ...(body.teams ? { teamSources: body.teams } : {}),
    ...(parsed.text ? { text: parsed.text } : {}),
    ...(parsed.sender ? { sender: parsed.sender } : {}),
    ...(parsed.recipient ? { recipient: parsed.recipient } : {}),
    ...(parsed.subject ? { subject: parsed.subject } : {}),
    ...(parsed.hasAttachments ? { hasAttachments: true } : {}),
    ...(body.from ? { from: new Date(body.from).toISOString() } : {}),
    ...(body.to ? { to: new Date(body.to).toISOString() } : {}),
  };
}

/** One page of a search, in the mailboxes `user` may read, with the sources' names. */
export async function runSearch(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  body: EdiscoverySearch,
): Promise<EdiscoveryResult> {
  const { from, to, ...scope } = await searchScope(ctx, graph, tenant, user, body);
  const result = await searchArchive(ctx.db, tenant.tenantId, {
    ...scope,
    ...(from ? { from: new Date(from) } : {}),
    ...(to ? { to: new Date(to) } : {}),
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
    searchedMailboxes: scope.mailSources.length,
  };
}
