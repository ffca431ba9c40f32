/**
 * The SQL of the archive: archive_items (each item's metadata, the blob that holds it and its search
 * vector), archived_chats (a chat's type, topic and members) and archive_deletions (what retention
 * deleted, per source and day of archiving). What is archived and how a search or a retention reads
 * these rows is archive.ts.
 */
import type { Queryable } from '../db/database.js';
import { type ArchiveKind, type ArchiveQuery, archiveFilter, retentionScope } from './archive-filter.js';
import type { HitMarkers } from './highlight.js';
import { notHeld } from './legal-hold-repository.js';

/** Text indexed per item: enough for any real message body, bounded for the index. */
const MAX_INDEXED_CHARS = 200_000;
const PREVIEW_CHARS = 2000;

/** The search vector of a row whose subject, people and body are the parameters `$s`, `$p` and `$b`. */
const searchVector = (s: string, p: string, b: string) => `
  setweight(to_tsvector('english', ${s}), 'A') || setweight(to_tsvector('german', ${s}), 'A') ||
  setweight(to_tsvector('simple', ${p}), 'B') ||
  setweight(to_tsvector('english', ${b}), 'C') || setweight(to_tsvector('german', ${b}), 'C')`;

/** Rows of one insert (19 parameters a row; PostgreSQL takes at most 65,535). */
const INSERT_BATCH = 500;

/** An item ready to be recorded: its content is in the blob store, its text read for the index. */
export interface ArchiveRow {
  tenantId: string;
  kind: ArchiveKind;
  source: string;
  container: string;
  externalId: string;
  subject: string;
  sender: string;
  recipients: string;
  sentAt: Date | null;
  size: number;
  hasAttachments: boolean;
  blobHash: string;
  body: string;
  jobId: string | null;
  /** The storage location whose store holds the blob (null: the server's own store). */
  locationId: string | null;
  archivedAt: Date;
  /** A Teams message's post (its Graph id), '' for a post itself; absent for mail. */
  replyTo?: string | null;
}

const rowKey = (kind: string, source: string, externalId: string) => JSON.stringify([kind, source, externalId]);

/**
 * Records items, many rows to a statement; for each, true when it was new (an item already archived
 * is left as it is; one given twice is new the first time only).
 */
export async function insertArchiveRows(db: Queryable, items: readonly ArchiveRow[]): Promise<boolean[]> {
  const isNew: boolean[] = [];
  for (let start = 0; start < items.length; start += INSERT_BATCH) {
    const batch = items.slice(start, start + INSERT_BATCH);
    const params: unknown[] = [];
    const rows = batch.map((item) => {
      const body = item.body.slice(0, MAX_INDEXED_CHARS);
      const at = params.length;
      params.push(
        item.tenantId,
        item.kind,
        item.source,
        item.container,
        item.externalId,
        item.subject,
        item.sender,
        item.recipients,
        item.sentAt,
        item.size,
        item.hasAttachments,
        item.blobHash,
        body.slice(0, PREVIEW_CHARS),
        item.jobId,
        item.archivedAt,
        `${item.sender} ${item.recipients}`,
        body,
        item.locationId,
        item.replyTo ?? null,
      );
      const $ = (n: number) => `$${at + n}`;
      const columns = Array.from({ length: 15 }, (_, i) => $(i + 1));
      return `(${columns.join(', ')}, ${$(18)}, ${$(19)}, ${searchVector($(6), $(16), $(17))})`;
    });
    const inserted = await db.query<{ kind: string; source: string; external_id: string }>(
      `insert into archive_items (tenant_id, kind, source, container, external_id, subject, sender, recipients, sent_at,
                                  size, has_attachments, blob_hash, preview, job_id, archived_at, location_id, reply_to, search)
       values ${rows.join(',\n')}
       on conflict (tenant_id, kind, source, external_id) do nothing returning kind, source, external_id`,
      params,
    );
    const fresh = new Set(inserted.map((r) => rowKey(r.kind, r.source, r.external_id)));
    for (const item of batch) {
      const key = rowKey(item.kind, item.source, item.externalId);
      isNew.push(fresh.delete(key));
    }
  }
  return isNew;
}

/** An item archived already: its size and when it was archived. */
export interface ArchivedSize {
  size: number;
  archivedAt: Date;
}

/**
 * The sizes of the archived items of a tenant, kind and source among `externalIds`, by Graph id,
 * with when each was archived (whether by the run reading it again or by an earlier one).
 */
export async function archivedSizes(
  db: Queryable,
  key: { tenantId: string; kind: ArchiveKind; source: string },
  externalIds: readonly string[],
): Promise<Map<string, ArchivedSize>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db.query<{ external_id: string; size: number | string; archived_at: Date | string }>(
    `select external_id, size, archived_at from archive_items
      where tenant_id = $1 and kind = $2 and source = $3 and external_id = any($4::text[])`,
    [key.tenantId, key.kind, key.source, [...externalIds]],
  );
  return new Map(rows.map((r) => [r.external_id, { size: Number(r.size), archivedAt: new Date(r.archived_at) }]));
}

/** What is kept of an archived chat: its name as archive.ts makes it, and its members now. */
export interface ChatRow {
  tenantId: string;
  chatId: string;
  chatType: string;
  topic: string | null;
  name: string;
  memberIds: string[];
  memberNames: string[];
  updatedAt: Date;
}

/** Records an archived chat, or refreshes what is known of it. */
export async function upsertChat(db: Queryable, chat: ChatRow): Promise<void> {
  await db.query(
    `insert into archived_chats (tenant_id, chat_id, chat_type, topic, name, member_ids, member_names, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (tenant_id, chat_id) do update set chat_type = excluded.chat_type, topic = excluded.topic,
       name = excluded.name, member_ids = excluded.member_ids, member_names = excluded.member_names,
       updated_at = excluded.updated_at`,
    [
      chat.tenantId,
      chat.chatId,
      chat.chatType,
      chat.topic,
      chat.name,
      chat.memberIds,
      chat.memberNames,
      chat.updatedAt,
    ],
  );
}

/** The archived chats one of `accounts` takes part in. */
export async function chatsOf(db: Queryable, tenantId: string, accounts: readonly string[]): Promise<string[]> {
  if (accounts.length === 0) return [];
  const rows = await db.query<{ chat_id: string }>(
    'select chat_id from archived_chats where tenant_id = $1 and member_ids && $2::text[] order by chat_id',
    [tenantId, [...accounts]],
  );
  return rows.map((r) => r.chat_id);
}

/** An item a search found, as its row holds it, with its rank (0 without words searched). */
export interface HitRow {
  id: string;
  kind: ArchiveKind;
  source: string;
  container: string;
  subject: string;
  sender: string;
  recipients: string;
  sent_at: Date | null;
  size: number;
  has_attachments: boolean;
  preview: string;
  rank: number;
  total?: number;
}

/**
 * One page of the items of the tenant `query` filters, in its order (by rank, then newest first, when
 * it searches words and sorts by relevance; else by sending time), and how many match over all pages.
 */
export async function archiveHitPage(
  db: Queryable,
  tenantId: string,
  query: ArchiveQuery,
  page: number,
  pageSize: number,
): Promise<{ rows: HitRow[]; total: number }> {
  const { where, params, text, tsquery } = archiveFilter(tenantId, query);
  const direction = query.order === 'asc' ? 'asc' : 'desc';
  const orderBy = (of: string) =>
    text && (query.sort ?? 'relevance') === 'relevance'
      ? `${of}rank ${direction}, ${of}sent_at desc nulls last, ${of}id`
      : `${of}sent_at ${direction} nulls last, ${of}id`;
  const columns =
    'a.id::text, a.kind, a.source, a.container, a.subject, a.sender, a.recipients, a.sent_at, a.size, a.has_attachments, a.preview';
  let rows: HitRow[];
  if (text) {
    // A text search visits its hits once: ranked, counted and cut to the page in one pass over the
    // index's matches (only keys and ranks are sorted), then the page's rows are read by id.
    rows = await db.query<HitRow>(
      `with hits as (
         select id, sent_at, ts_rank(search, ${tsquery}) as rank, count(*) over () as total
           from archive_items where ${where.join(' and ')}
          order by ${orderBy('')} limit ${pageSize} offset ${(page - 1) * pageSize})
       select ${columns}, h.rank, h.total::int as total from hits h join archive_items a on a.id = h.id
        order by ${orderBy('h.')}`,
      params,
    );
  } else {
    rows = await db.query<HitRow>(
      `select ${columns}, 0 as rank from archive_items a where ${where.join(' and ')}
        order by ${orderBy('a.')} limit ${pageSize} offset ${(page - 1) * pageSize}`,
      params,
    );
  }
  return pageWithTotal(db, rows, where, params);
}

/**
 * The previews of these items around the words of `text`, the words between `markers` (ts_headline
 * copies the text as it is: the markers are what no archived text holds), by item id.
 */
export async function hitHeadlines(
  db: Queryable,
  text: string,
  ids: readonly string[],
  markers: HitMarkers,
): Promise<{ id: string; snippet: string }[]> {
  return db.query<{ id: string; snippet: string }>(
    `select id::text, ts_headline('english', preview, websearch_to_tsquery('english', $1), $3) as snippet
       from archive_items where id = any($2::bigint[])`,
    [text, [...ids], `StartSel=${markers.start}, StopSel=${markers.stop}, MaxWords=30, MinWords=10, MaxFragments=2`],
  );
}

/** What says where an archived item of the tenant is: its kind, subject, source and blob. */
export async function archivedItemRow(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<
  { kind: ArchiveKind; subject: string; blob_hash: string; source: string; location_id: string | null } | undefined
> {
  const [row] = await db.query<{
    kind: ArchiveKind;
    subject: string;
    blob_hash: string;
    source: string;
    location_id: string | null;
  }>('select kind, subject, blob_hash, source, location_id from archive_items where tenant_id = $1 and id = $2', [
    tenantId,
    id,
  ]);
  return row;
}

/** An archived item's sender, recipients and sending time, as its row holds them. */
export async function archivedItemEnvelope(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<{ sender: string; recipients: string; sentAt: Date | null } | undefined> {
  const [row] = await db.query<{ sender: string; recipients: string; sent_at: Date | null }>(
    'select sender, recipients, sent_at from archive_items where tenant_id = $1 and id = $2',
    [tenantId, id],
  );
  return row ? { sender: row.sender, recipients: row.recipients, sentAt: row.sent_at } : undefined;
}

/** An item retention deleted: its blob, where that is, its size, source and day of archiving. */
export interface RemovedItem {
  blob_hash: string;
  size: number;
  location_id: string | null;
  kind: ArchiveKind;
  source: string;
  archived_day: string;
}

/**
 * Deletes the tenant's items in the scope (see retentionScope) sent before `before`, up to the archive
 * id `through`, but those a legal hold keeps; answers what was deleted.
 */
export async function deleteUnheldBefore(
  db: Queryable,
  tenantId: string,
  options: {
    kind: 'mail' | 'teams';
    before: Date;
    sources: readonly string[];
    chats: readonly string[];
    through: string;
  },
): Promise<RemovedItem[]> {
  const scope = retentionScope(options.kind, options.sources, options.chats, 3);
  return db.query<RemovedItem>(
    `delete from archive_items
      where tenant_id = $1 and coalesce(sent_at, archived_at) < $2 and ${scope.sql}
        and id <= $${3 + scope.params.length}::bigint and ${notHeld()}
      returning blob_hash, size, location_id, kind, source,
                to_char(archived_at at time zone 'UTC', 'YYYY-MM-DD') as archived_day`,
    [tenantId, options.before, ...scope.params, options.through],
  );
}

/** What retention deleted of one source's items archived on one day. */
export interface DeletedOfDay {
  kind: ArchiveKind;
  source: string;
  day: string;
  items: number;
  bytes: number;
}

/** Adds what a run deleted, per source and day of archiving, to the deletions' record at `deletedAt`. */
export async function recordDeletions(
  db: Queryable,
  tenantId: string,
  runId: string,
  deletedAt: Date,
  rows: readonly DeletedOfDay[],
): Promise<void> {
  await db.query(
    `insert into archive_deletions (tenant_id, run_id, kind, source, archived_day, deleted_at, items, bytes)
     select $1::text, $2::text, d.kind, d.source, d.day::date, $3::timestamptz, d.items, d.bytes
       from unnest($4::text[], $5::text[], $6::text[], $7::int[], $8::bigint[]) as d(kind, source, day, items, bytes)
     on conflict (run_id, kind, source, archived_day) do update
       set items = archive_deletions.items + excluded.items, bytes = archive_deletions.bytes + excluded.bytes`,
    [
      tenantId,
      runId,
      deletedAt,
      rows.map((r) => r.kind),
      rows.map((r) => r.source),
      rows.map((r) => r.day),
      rows.map((r) => r.items),
      rows.map((r) => r.bytes),
    ],
  );
}

/** Those of these blobs an archived item or a backup item still refers to. */
export async function blobsInUse(db: Queryable, hashes: readonly string[]): Promise<Set<string>> {
  const rows = await db.query<{ blob_hash: string }>(
    `select distinct blob_hash from archive_items where blob_hash = any($1::text[])
     union select distinct hash from backup_items where hash = any($1::text[])
     union select blob_hash from archived_events where blob_hash = any($1::text[])
     union select blob_hash from archived_event_attachments where blob_hash = any($1::text[])
     union select blob_hash from archived_contacts where blob_hash = any($1::text[])
     union select blob_hash from archived_tasks where blob_hash = any($1::text[])`,
    [[...hashes]],
  );
  return new Set(rows.map((r) => r.blob_hash));
}

/** Counts and bytes per kind and source, for dashboards. */
export async function archiveStats(db: Queryable, tenantId: string) {
  const rows = await db.query<{ kind: ArchiveKind; source: string; items: number; bytes: number; newest: Date | null }>(
    `select kind, source, count(*)::int as items, coalesce(sum(size), 0)::bigint as bytes, max(sent_at) as newest
       from archive_items where tenant_id = $1 group by kind, source order by kind, source`,
    [tenantId],
  );
  return rows.map((r) => ({ ...r, items: Number(r.items), bytes: Number(r.bytes) }));
}

/**
 * A page of archive items with their total: the total rides on the page's rows (`count(*) over ()`);
 * without rows on the page (a browse, or a page past the last) the matches are counted apart.
 */
export async function pageWithTotal<R extends { total?: number }>(
  db: Queryable,
  rows: R[],
  where: readonly string[],
  params: readonly unknown[],
): Promise<{ rows: R[]; total: number }> {
  const first = rows[0]?.total;
  if (first !== undefined) return { rows, total: Number(first) };
  const [counted] = await db.query<{ n: number }>(
    `select count(*)::int as n from archive_items where ${where.join(' and ')}`,
    params,
  );
  return { rows, total: Number(counted?.n ?? 0) };
}
