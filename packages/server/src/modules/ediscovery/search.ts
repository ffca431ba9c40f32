/**
 * eDiscovery search, in what the caller may read (access.ts): mail and, when asked, calendar events of
 * the mailboxes a right opens, Teams chats through their members' mailboxes, the organisation's Teams
 * channels. Events are searched beside the archive's items and merged with them in the search's order.
 */
import type { EdiscoveryHit, EdiscoveryResult, EdiscoverySearch } from '@compliance-portal/sdk';
import { searchArchive } from '../../archive-data/archive.js';
import type { ArchiveKind } from '../../archive-data/archive-filter.js';
import { chatsOf } from '../../archive-data/archive-repository.js';
import { escapeHtml, hitMarkers, markHits } from '../../archive-data/highlight.js';
import type { AppContext } from '../../context.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { User } from '../identity/users.js';
import type { TenantRecord } from '../tenants/repository.js';
import { readableMailboxes } from './access.js';
import { requireTenantIds } from './custodians.js';
import { type EventHitRow, searchEventRows } from './events-repository.js';
import { type ParsedQuery, parseQuery } from './query.js';
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
    events: kinds.includes('events'),
    parsed,
    kind: kinds.flatMap((k): ArchiveKind[] => (k === 'teams' ? ['teams', 'chat'] : k === 'mail' ? ['mail'] : [])),
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

/** A hit with what the search's order compares: its rank for the words searched and its date. */
interface Ranked {
  hit: EdiscoveryHit;
  rank: number;
  at: number | null;
}

/** The order of the archive's search (archive-repository.ts) over hits of both sources. */
function compareHits(sort: 'relevance' | 'date', order: 'asc' | 'desc', byRank: boolean) {
  const sign = order === 'asc' ? 1 : -1;
  const byDate = (a: Ranked, b: Ranked, s: number) =>
    a.at === b.at ? 0 : a.at === null ? 1 : b.at === null ? -1 : s * (a.at - b.at);
  return (a: Ranked, b: Ranked) =>
    sort === 'relevance' && byRank ? sign * (a.rank - b.rank) || byDate(a, b, -1) : byDate(a, b, sign);
}

/** An event as a hit: its organiser as the sender, its attendees as the recipients, its start as the date. */
function eventHit(row: EventHitRow, names: Map<string, string>, markers: { start: string; stop: string }): Ranked {
  const startsAt = row.starts_at === null ? null : new Date(row.starts_at);
  const snippet = row.headline
    ? markHits(row.headline, markers)
    : escapeHtml([row.location, row.attendees].filter(Boolean).join(' · ').slice(0, 240));
  return {
    rank: Number(row.rank),
    at: startsAt?.getTime() ?? null,
    hit: {
      itemId: row.external_id,
      kind: 'event',
      source: row.mailbox,
      sourceName: names.get(row.mailbox) ?? row.mailbox,
      container: row.calendar_name,
      subject: row.subject,
      sender: row.organizer,
      recipients: row.attendees,
      sentAt: startsAt?.toISOString() ?? null,
      endsAt: row.ends_at === null ? null : new Date(row.ends_at).toISOString(),
      sizeBytes: Number(row.size),
      hasAttachments: row.has_attachments,
      snippet,
    },
  };
}

/** The events the search finds in the mailboxes searched, those of `window` in its order, and how many in all. */
async function eventHits(
  ctx: AppContext,
  tenantId: string,
  mailboxes: readonly string[],
  parsed: ParsedQuery,
  body: EdiscoverySearch,
  window: { offset: number; limit: number },
) {
  const markers = hitMarkers();
  const { rows, total } = await searchEventRows(
    ctx.db,
    tenantId,
    {
      mailboxes,
      ...(parsed.text ? { text: parsed.text } : {}),
      ...(parsed.sender ? { organizer: parsed.sender } : {}),
      ...(parsed.recipient ? { attendee: parsed.recipient } : {}),
      ...(parsed.subject ? { subject: parsed.subject } : {}),
      ...(parsed.hasAttachments ? { hasAttachments: true } : {}),
      ...(body.from ? { from: new Date(body.from) } : {}),
      ...(body.to ? { to: new Date(body.to) } : {}),
      sort: body.sort ?? 'relevance',
      order: body.order ?? 'desc',
    },
    window,
    markers,
  );
  const names = await sourceNames(ctx.db, tenantId, [...new Set(rows.map((r) => r.mailbox))]);
  return { hits: rows.map((r) => eventHit(r, names, markers)), total };
}

/**
 * One page of a search, in the mailboxes `user` may read, with the sources' names. With events and
 * the archive's kinds both searched, each gives its first hits up to the page's end and the page is
 * cut from them merged in the search's order.
 */
export async function runSearch(
  ctx: AppContext,
  graph: () => Promise<GraphApi>,
  tenant: TenantRecord,
  user: User,
  body: EdiscoverySearch,
): Promise<EdiscoveryResult> {
  const { events, parsed, ...scope } = await searchScope(ctx, graph, tenant, user, body);
  const sort = body.sort ?? 'relevance';
  const order = body.order ?? 'desc';
  const page = body.page ?? 1;
  const pageSize = body.pageSize ?? 25;
  const merged = events && scope.kind.length > 0;
  const top = merged ? page * pageSize : undefined;
  const result =
    scope.kind.length > 0
      ? await searchArchive(ctx.db, tenant.tenantId, { ...scope, sort, order, page, pageSize }, top)
      : { items: [], total: 0 };
  const sources = [...new Set(result.items.map((i) => i.source))];
  const names = await sourceNames(ctx.db, tenant.tenantId, sources);
  const archived: Ranked[] = result.items.map((hit) => ({
    rank: hit.rank,
    at: hit.sentAt === null ? null : Date.parse(hit.sentAt),
    hit: {
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
    },
  }));
  let items = archived.map((r) => r.hit);
  let total = result.total;
  if (events) {
    const window = merged ? { offset: 0, limit: page * pageSize } : { offset: (page - 1) * pageSize, limit: pageSize };
    const found = await eventHits(ctx, tenant.tenantId, scope.mailSources, parsed, body, window);
    total += found.total;
    items = merged
      ? [...archived, ...found.hits]
          .sort(compareHits(sort, order, Boolean(parsed.text)))
          .slice((page - 1) * pageSize, page * pageSize)
          .map((r) => r.hit)
      : found.hits.map((r) => r.hit);
  }
  return { items, total, page, pageSize, searchedMailboxes: scope.mailSources.length };
}
