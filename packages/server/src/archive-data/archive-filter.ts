/**
 * Which archived items a search, a legal hold or a retention covers, as SQL over archive_items: one
 * module for the filters that archive-repository.ts (search, retention) and legal-hold-repository.ts
 * (holds) share.
 */
import type { SqlValue } from '../db/database.js';

/** A mail, a Teams channel message, or a Teams chat message (source: the chat's id). */
export type ArchiveKind = 'mail' | 'teams' | 'chat';

/**
 * The items a retention deletion of `kind` covers: mail of `sources` (all when none); for Teams, the
 * messages of the `sources` teams and of the chats the `chats` accounts are in (all Teams items when
 * both are empty). SQL over archive_items with the tenant in $1; the parameters follow from `first`.
 */
export function retentionScope(
  kind: 'mail' | 'teams',
  sources: readonly string[],
  chats: readonly string[],
  first: number,
): { sql: string; params: SqlValue[] } {
  if (kind === 'mail')
    return {
      sql: `kind = 'mail' and (cardinality($${first}::text[]) = 0 or source = any($${first}::text[]))`,
      params: [[...sources]],
    };
  if (sources.length === 0 && chats.length === 0) return { sql: `kind in ('teams', 'chat')`, params: [] };
  return {
    sql: `((kind = 'teams' and source = any($${first}::text[])) or (kind = 'chat' and source in
            (select chat_id from archived_chats c where c.tenant_id = $1 and c.member_ids && $${first + 1}::text[])))`,
    params: [[...sources], [...chats]],
  };
}

export interface ArchiveQuery {
  /** Free text in web-search syntax: words, "phrases", -exclusions, or. */
  text?: string;
  kind?: ArchiveKind | readonly ArchiveKind[];
  source?: string;
  /** Only these sources (mailboxes or teams); an empty list finds nothing. */
  sources?: readonly string[];
  /** Mail only from these sources (the eDiscovery visibility rule); other kinds are not limited by it. */
  mailSources?: readonly string[];
  /** Teams messages only from these teams; other kinds are not limited by it. */
  teamSources?: readonly string[];
  /** Chat messages only from these chats; other kinds are not limited by it. */
  chatSources?: readonly string[];
  /**
   * Chat messages only from the chats one of these accounts is a member of (as archived_chats has its
   * members now); other kinds are not limited by it.
   */
  chatMembers?: readonly string[];
  container?: string;
  sender?: string;
  recipient?: string;
  subject?: string;
  from?: Date;
  to?: Date;
  hasAttachments?: boolean;
  /**
   * Only items archived after the item of this id (ids grow as items are archived): what a legal hold
   * has not looked at yet.
   */
  afterId?: string;
  sort?: 'relevance' | 'date';
  order?: 'asc' | 'desc';
  page?: number;
  pageSize?: number;
}

/** The words `query` searches for, as its filter reads them (none: undefined). */
export const searchedText = (query: ArchiveQuery): string | undefined => query.text?.trim() || undefined;

/**
 * The filter of `query` (its paging and order aside) as conditions on archive_items' own columns, the
 * tenant in $1; `tsquery` is the text searched, for ranking. Searches and legal holds (which find their
 * items' ids in SQL, without reading them) filter alike.
 */
export function archiveFilter(tenantId: string, query: ArchiveQuery) {
  const params: SqlValue[] = [tenantId];
  const where = ['tenant_id = $1'];
  const add = (clause: string, value: SqlValue) => {
    params.push(value);
    where.push(clause.replaceAll('?', `$${params.length}`));
  };
  const text = searchedText(query);
  let tsquery = `''::tsquery`;
  if (text) {
    params.push(text);
    const n = params.length;
    tsquery = `(websearch_to_tsquery('english', $${n}) || websearch_to_tsquery('german', $${n}))`;
    where.push(`search @@ ${tsquery}`);
  }
  if (typeof query.kind === 'string') add('kind = ?', query.kind);
  else if (query.kind) add('kind = any(?)', [...query.kind]);
  if (query.source) add('source = ?', query.source);
  if (query.container) add("(container = ? or container like ? || '/%')", query.container);
  if (query.sources) add('source = any(?)', [...query.sources]);
  if (query.mailSources) add(`(kind <> 'mail' or source = any(?))`, [...query.mailSources]);
  if (query.teamSources) add(`(kind <> 'teams' or source = any(?))`, [...query.teamSources]);
  if (query.chatSources) add(`(kind <> 'chat' or source = any(?))`, [...query.chatSources]);
  if (query.chatMembers)
    add(
      `(kind <> 'chat' or source in (select chat_id from archived_chats c where c.tenant_id = $1 and c.member_ids && ?::text[]))`,
      [...query.chatMembers],
    );
  if (query.sender) add(`sender ilike '%' || ? || '%'`, query.sender);
  if (query.recipient) add(`recipients ilike '%' || ? || '%'`, query.recipient);
  if (query.subject) add(`subject ilike '%' || ? || '%'`, query.subject);
  if (query.from) add('sent_at >= ?', query.from);
  if (query.to) add('sent_at < ?', query.to);
  if (query.hasAttachments !== undefined) add('has_attachments = ?', query.hasAttachments);
  if (query.afterId !== undefined) add('id > ?::bigint', query.afterId);
  return { where, params, text, tsquery };
}
