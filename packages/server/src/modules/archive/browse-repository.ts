/**
 * The SQL of archive browsing: a mailbox's archived mail by folder with its filters and order, the
 * rows of one archived item, and a channel's or chat's threads (posts paged, their replies whole).
 */

import { pageWithTotal } from '../../archive-data/archive-repository.js';
import type { Queryable, SqlValue } from '../../db/database.js';

export interface MailFilter {
  mailboxId: string;
  folder?: string | undefined;
  search?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  attachments?: boolean | undefined;
  sort?: 'subject' | 'sender' | 'sentAt' | 'sizeBytes' | undefined;
  order?: 'asc' | 'desc' | undefined;
  page: number;
  pageSize: number;
}

export interface MailRow {
  id: string;
  container: string;
  subject: string;
  sender: string;
  recipients: string;
  sent_at: Date | null;
  size: string | number;
  has_attachments: boolean;
}

const MAIL_ORDER: Record<NonNullable<MailFilter['sort']>, string> = {
  subject: 'lower(subject)',
  sender: 'lower(sender)',
  sentAt: 'coalesce(sent_at, archived_at)',
  sizeBytes: 'size',
};

/** A LIKE pattern that finds `text` as it is (its %, _ and \ taken literally), case-insensitively. */
const contains = (text: string) => `%${text.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`;

/** One page of a mailbox's archived mail and how many match over all pages. */
export async function mailPage(
  db: Queryable,
  tenantId: string,
  filter: MailFilter,
): Promise<{ rows: MailRow[]; total: number }> {
  const params: SqlValue[] = [tenantId, filter.mailboxId];
  const where = [`tenant_id = $1`, `kind = 'mail'`, `source = $2`];
  const add = (sql: (n: string) => string, value: SqlValue) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.folder) add((n) => `container = ${n}`, filter.folder);
  if (filter.search?.trim())
    add((n) => `(lower(subject) like ${n} or lower(sender) like ${n})`, contains(filter.search.trim()));
  if (filter.from) add((n) => `coalesce(sent_at, archived_at) >= ${n}`, filter.from);
  if (filter.to) add((n) => `coalesce(sent_at, archived_at) < ${n}`, filter.to);
  if (filter.attachments !== undefined) add((n) => `has_attachments = ${n}`, filter.attachments);
  const direction = filter.order === 'asc' ? 'asc' : 'desc';
  const order = `${MAIL_ORDER[filter.sort ?? 'sentAt']} ${direction}, id ${direction}`;
  const rows = await db.query<MailRow & { total: number }>(
    `select id::text, container, subject, sender, recipients, sent_at, size, has_attachments,
            count(*) over ()::int as total
       from archive_items where ${where.join(' and ')}
      order by ${order} limit ${filter.pageSize} offset ${(filter.page - 1) * filter.pageSize}`,
    params,
  );
  return pageWithTotal(db, rows, where, params);
}

export interface ItemRow {
  id: string;
  kind: 'mail' | 'teams' | 'chat';
  source: string;
  container: string;
  subject: string;
  sender: string;
  recipients: string;
  sent_at: Date | null;
  size: string | number;
  blob_hash: string;
  location_id: string | null;
  source_name: string | null;
}

/** An archived item of the tenant with the name of its mailbox, team or chat (null when unknown). */
export async function itemRow(db: Queryable, tenantId: string, id: string): Promise<ItemRow | undefined> {
  const [row] = await db.query<ItemRow>(
    `select a.id::text, a.kind, a.source, a.container, a.subject, a.sender, a.recipients, a.sent_at, a.size,
            a.blob_hash, a.location_id,
            case when a.kind = 'chat' then (select c.name from archived_chats c where c.tenant_id = a.tenant_id and c.chat_id = a.source)
                 else (select d.display_name from discovered_sources d where d.tenant_id = a.tenant_id
                          and d.application = case when a.kind = 'mail' then 'exchange' else 'teams' end
                          and d.source_id = a.source limit 1) end as source_name
       from archive_items a where a.tenant_id = $1 and a.id = $2::bigint`,
    [tenantId, id],
  );
  return row;
}

export interface ThreadRow {
  id: string;
  external_id: string;
  reply_to: string | null;
  sender: string;
  sent_at: Date | null;
  subject: string;
  blob_hash: string;
  location_id: string | null;
}

/** Where a channel's or chat's messages are: a team's channel (kind teams) or a chat (kind chat, any name). */
export interface ThreadPlace {
  kind: 'teams' | 'chat';
  source: string;
  channel?: string | undefined;
}

/** The condition on rows (of alias `a`, when given) of the place, with $1 the tenant and $2 the source. */
const placeWhere = (place: ThreadPlace, a = '') =>
  place.kind === 'teams'
    ? {
        sql: `${a}tenant_id = $1 and ${a}kind = 'teams' and ${a}source = $2 and ${a}container = $3`,
        params: [place.channel ?? ''],
      }
    : { sql: `${a}tenant_id = $1 and ${a}kind = 'chat' and ${a}source = $2`, params: [] as string[] };

const THREAD_COLUMNS = 'id::text, external_id, reply_to, sender, sent_at, subject, blob_hash, location_id';

/** The messages of the place archived before their post was recorded (reply_to null). */
export async function unthreaded(db: Queryable, tenantId: string, place: ThreadPlace): Promise<ThreadRow[]> {
  const { sql, params } = placeWhere(place);
  return db.query<ThreadRow>(`select ${THREAD_COLUMNS} from archive_items where ${sql} and reply_to is null`, [
    tenantId,
    place.source,
    ...params,
  ]);
}

export async function setReplyTo(db: Queryable, tenantId: string, id: string, replyTo: string): Promise<void> {
  await db.query('update archive_items set reply_to = $3 where tenant_id = $1 and id = $2::bigint', [
    tenantId,
    id,
    replyTo,
  ]);
}

/**
 * One page of the place's threads, newest post first: the posts (a reply whose post is not archived
 * counts as a post) and every reply of those posts, oldest first.
 */
export async function threadPage(
  db: Queryable,
  tenantId: string,
  place: ThreadPlace,
  page: number,
  pageSize: number,
): Promise<{ posts: ThreadRow[]; replies: ThreadRow[]; total: number }> {
  const { sql, params } = placeWhere(place);
  const aliased = placeWhere(place, 'a.').sql;
  const args = [tenantId, place.source, ...params];
  const isPost = `(coalesce(reply_to, '') = '' or not exists (
      select 1 from archive_items p where p.tenant_id = a.tenant_id and p.kind = a.kind and p.source = a.source
         and p.external_id = a.reply_to))`;
  const posts = await db.query<ThreadRow & { total: number }>(
    `select ${THREAD_COLUMNS.split(', ')
      .map((c) => `a.${c}`)
      .join(', ')}, count(*) over ()::int as total
       from archive_items a where ${aliased} and ${isPost}
      order by a.sent_at desc nulls last, a.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
    args,
  );
  const total =
    posts[0]?.total ??
    Number(
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from archive_items a
            where ${aliased} and ${isPost}`,
          args,
        )
      )[0]?.n ?? 0,
    );
  const replies =
    posts.length === 0
      ? []
      : await db.query<ThreadRow>(
          `select ${THREAD_COLUMNS} from archive_items where ${sql} and reply_to = any($${args.length + 1}::text[])
            order by sent_at asc nulls first, id asc`,
          [...args, posts.map((p) => p.external_id)],
        );
  return { posts, replies, total: Number(total) };
}
