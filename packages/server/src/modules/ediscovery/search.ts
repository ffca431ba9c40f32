/**
 * eDiscovery search, in what the caller may read (access.ts): mail of the mailboxes a right opens,
 * Teams chats through their members' mailboxes, the organisation's Teams channels.
 */
import type { EdiscoveryHit, EdiscoveryResult, EdiscoverySearch } from '@compliance-portal/sdk';
import { searchArchive } from '../../archive-data/archive.js';
import type { ArchiveKind } from '../../archive-data/archive-filter.js';
import { chatsOf } from '../../archive-data/archive-repository.js';
import type { AppContext } from '../../context.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import { readableMailboxes } from './access.js';
import { requireTenantIds } from './custodians.js';
import { parseQuery } from './query.js';
import { sourceNames } from './repository.js';

/**
 * What a search looks at, as `user` may read it now: its criteria in the mailboxes a right opens (those
 * it names among them), the teams it names (all when none), and the chats of the accounts it names, or
 * else of the mailboxes searched (none when it names teams), that one of those mailboxes' accounts is in.
 */
async function searchScope(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  body: EdiscoverySearch,
) {
  const readable = await readableMailboxes(ctx, graph, tenant, user);
  const mailboxes = body.mailboxes ? readable.filter((m) => body.mailboxes?.includes(m)) : readable;
  const parsed = parseQuery(body.query);
  const kinds = body.kinds ?? ['mail', 'teams'];
  let chats: string[];
  if (body.chats) {
    // A chat of the accounts named, and readable: one of its members' mailboxes is open to the reader.
    const open = new Set(await chatsOf(ctx.db, tenant.tenantId, readable));
    chats = (await chatsOf(ctx.db, tenant.tenantId, body.chats)).filter((c) => open.has(c));
  } else {
    // A team chosen narrows Teams to its channels; chats belong to people, not teams.
    chats = body.teams ? [] : await chatsOf(ctx.db, tenant.tenantId, mailboxes);
  }
  return {
    kind: kinds.flatMap((k): ArchiveKind[] => (k === 'teams' ? ['teams', 'chat'] : ['mail'])),
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
  };
}

/** A search as the API asks it: every mailbox, team and account it names the tenant's (else 404). */
export async function searchTenant(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  body: EdiscoverySearch,
): Promise<EdiscoveryResult> {
  await requireTenantIds(ctx, graph, tenant, body);
  return runSearch(ctx, graph, tenant, user, body);
}

/** One page of a search, in the mailboxes `user` may read, with the sources' names. */
export async function runSearch(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  body: EdiscoverySearch,
): Promise<EdiscoveryResult> {
  const scope = await searchScope(ctx, graph, tenant, user, body);
  const result = await searchArchive(ctx.db, tenant.tenantId, {
    ...scope,
    sort: body.sort ?? 'relevance',
    order: body.order ?? 'desc',
    page: body.page ?? 1,
    pageSize: body.pageSize ?? 25,
  });
  const sources = [...new Set(result.items.map((i) => i.source))];
  const names = await sourceNames(ctx.db, tenant.tenantId, sources);
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
