/**
 * The archive: each mail kept as its MIME (.eml) and each Teams message as its JSON in the blob
 * store, with metadata and a search vector (English and German stemming; subject weighs most, then
 * people, then the body) for eDiscovery. Archiving is idempotent per tenant, kind, source and item.
 */
import type { ChatMessage } from '@microsoft/microsoft-graph-types';
import type { Database, Queryable } from '../db/database.js';
import type { BlobStore } from '../storage/blob-store.js';
import { type ArchiveQuery, archiveFilter, retentionScope } from './archive-filter.js';
import { escapeHtml, hitMarkers, markHits } from './highlight.js';
import { notHeld, recordKeptItems, refreshHolds } from './legal-hold.js';
import { stripHtml, summariseMail } from './mime.js';

/** A mail, a Teams channel message, or a Teams chat message (source: the chat's id). */
export type ArchiveKind = 'mail' | 'teams' | 'chat';

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

export interface ArchiveMailInput {
  tenantId: string;
  jobId: string | null;
  /** The storage location `blobs` writes to (null or absent: the server's own store). */
  locationId?: string | null;
  /** The mailbox (user id or address). */
  source: string;
  /** The folder path, such as Inbox/TestOrder. */
  folder: string;
  externalId: string;
  mime: Uint8Array;
  now?: Date;
}

export async function archiveMail(db: Queryable, blobs: BlobStore, input: ArchiveMailInput): Promise<boolean> {
  const [isNew = false] = await insertArchiveRows(db, [await prepareMail(blobs, input)]);
  return isNew;
}

/** Stores the mail's MIME in the blob store and reads what the archive keeps and indexes of it. */
export async function prepareMail(blobs: Pick<BlobStore, 'put'>, input: ArchiveMailInput): Promise<ArchiveRow> {
  const blob = await blobs.put(input.mime);
  const mail = summariseMail(input.mime);
  return {
    tenantId: input.tenantId,
    kind: 'mail',
    source: input.source,
    container: input.folder,
    externalId: input.externalId,
    subject: mail.subject,
    sender: mail.from,
    recipients: mail.to,
    sentAt: mail.date,
    size: input.mime.length,
    hasAttachments: mail.hasAttachments,
    blobHash: blob.hash,
    body: mail.body,
    jobId: input.jobId,
    locationId: input.locationId ?? null,
    archivedAt: input.now ?? new Date(),
  };
}

export interface ArchiveTeamsInput {
  tenantId: string;
  jobId: string | null;
  /** The storage location `blobs` writes to (null or absent: the server's own store). */
  locationId?: string | null;
  /** 'chat' for a chat's message; a channel's by default. */
  kind?: 'teams' | 'chat';
  /** The team id, or the chat id. */
  source: string;
  /** The channel name, or the chat's name. */
  channel: string;
  externalId: string;
  message: ChatMessage;
  now?: Date;
}

export async function archiveTeamsMessage(db: Queryable, blobs: BlobStore, input: ArchiveTeamsInput) {
  const json = new TextEncoder().encode(JSON.stringify(input.message));
  const blob = await blobs.put(json);
  const m = input.message;
  const content = m.body?.content ?? '';
  const body = m.body?.contentType === 'html' ? stripHtml(content) : content;
  const sent = m.createdDateTime ? new Date(m.createdDateTime) : null;
  const [isNew = false] = await insertArchiveRows(db, [
    {
      tenantId: input.tenantId,
      kind: input.kind ?? 'teams',
      source: input.source,
      container: input.channel,
      externalId: input.externalId,
      subject: m.subject ?? '',
      sender: m.from?.user?.displayName ?? m.from?.application?.displayName ?? '',
      recipients: (m.mentions ?? []).map((x) => x.mentionText ?? '').join(', '),
      sentAt: sent && !Number.isNaN(sent.getTime()) ? sent : null,
      size: json.length,
      hasAttachments: (m.attachments ?? []).length > 0,
      blobHash: blob.hash,
      body,
      jobId: input.jobId,
      locationId: input.locationId ?? null,
      archivedAt: input.now ?? new Date(),
      replyTo: m.replyToId ?? '',
    },
  ]);
  return isNew;
}

export interface ArchivedChat {
  tenantId: string;
  chatId: string;
  chatType: string;
  topic: string | null;
  members: { userId: string; displayName: string }[];
  now?: Date;
}

/** A chat's name: its topic, or its members' names. */
function chatName(topic: string | null | undefined, memberNames: readonly string[]): string {
  return topic?.trim() || memberNames.filter(Boolean).join(', ') || 'Chat';
}

/** Keeps (or refreshes) what is known of an archived chat: type, topic, members. */
export async function saveChat(db: Queryable, chat: ArchivedChat): Promise<string> {
  const names = chat.members.map((m) => m.displayName);
  const name = chatName(chat.topic, names);
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
      name,
      chat.members.map((m) => m.userId),
      names,
      chat.now ?? new Date(),
    ],
  );
  return name;
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

interface ArchiveHit {
  id: string;
  kind: ArchiveKind;
  source: string;
  container: string;
  subject: string;
  sender: string;
  recipients: string;
  sentAt: string | null;
  size: number;
  hasAttachments: boolean;
  /**
   * The body around the matched words as HTML-escaped text, the words wrapped in <mark>…</mark> (its
   * only markup); without words searched, the body's start, escaped alike.
   */
  snippet: string;
  /** The same text as it is: no markup, nothing escaped. */
  snippetText: string;
  rank: number;
}

export async function searchArchive(db: Queryable, tenantId: string, query: ArchiveQuery) {
  const { where, params, text, tsquery } = archiveFilter(tenantId, query);
  const page = query.page ?? 1;
  const pageSize = Math.min(500, query.pageSize ?? 25);
  const direction = query.order === 'asc' ? 'asc' : 'desc';
  const orderBy = (of: string) =>
    text && (query.sort ?? 'relevance') === 'relevance'
      ? `${of}rank ${direction}, ${of}sent_at desc nulls last, ${of}id`
      : `${of}sent_at ${direction} nulls last, ${of}id`;
  type Row = {
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
  };
  const columns =
    'a.id::text, a.kind, a.source, a.container, a.subject, a.sender, a.recipients, a.sent_at, a.size, a.has_attachments, a.preview';
  let rows: Row[];
  if (text) {
    // A text search visits its hits once: ranked, counted and cut to the page in one pass over the
    // index's matches (only keys and ranks are sorted), then the page's rows are read by id.
    rows = await db.query<Row>(
      `with hits as (
         select id, sent_at, ts_rank(search, ${tsquery}) as rank, count(*) over () as total
           from archive_items where ${where.join(' and ')}
          order by ${orderBy('')} limit ${pageSize} offset ${(page - 1) * pageSize})
       select ${columns}, h.rank, h.total::int as total from hits h join archive_items a on a.id = h.id
        order by ${orderBy('h.')}`,
      params,
    );
  } else {
    rows = await db.query<Row>(
      `select ${columns}, 0 as rank from archive_items a where ${where.join(' and ')}
        order by ${orderBy('a.')} limit ${pageSize} offset ${(page - 1) * pageSize}`,
      params,
    );
  }
  // Without hits on the page (a browse, or a page past the last) the matches are counted apart.
  const total =
    rows[0]?.total ??
    Number(
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from archive_items where ${where.join(' and ')}`,
          params,
        )
      )[0]?.n ?? 0,
    );
  // Snippets only for the page shown: ts_headline is the costly part.
  const snippets = new Map<string, { html: string; text: string }>();
  if (text && rows.length > 0) {
    // ts_headline copies the text as it is (markup of a hostile mail included): it marks the hits
    // with markers no mail can hold, and the whole is escaped before the markers become <mark>.
    const markers = hitMarkers();
    const highlighted = await db.query<{ id: string; snippet: string }>(
      `select id::text, ts_headline('english', preview, websearch_to_tsquery('english', $1), $3) as snippet
         from archive_items where id = any($2::bigint[])`,
      [
        text,
        rows.map((r) => r.id),
        `StartSel=${markers.start}, StopSel=${markers.stop}, MaxWords=30, MinWords=10, MaxFragments=2`,
      ],
    );
    for (const h of highlighted)
      snippets.set(h.id, {
        html: markHits(h.snippet, markers),
        text: h.snippet.replaceAll(markers.start, '').replaceAll(markers.stop, ''),
      });
  }
  const items: ArchiveHit[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    source: r.source,
    container: r.container,
    subject: r.subject,
    sender: r.sender,
    recipients: r.recipients,
    sentAt: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    size: Number(r.size),
    hasAttachments: r.has_attachments,
    snippet: snippets.get(r.id)?.html ?? escapeHtml(r.preview.slice(0, 240)),
    snippetText: snippets.get(r.id)?.text ?? r.preview.slice(0, 240),
    rank: Number(r.rank),
  }));
  return { items, total: Number(total), page, pageSize };
}

export async function getArchivedItem(db: Queryable, storeAt: StoreAt, tenantId: string, id: string) {
  if (!/^\d+$/.test(id)) return undefined;
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
  if (!row) return undefined;
  const content = await (await storeAt(row.location_id)).get(row.blob_hash);
  return { kind: row.kind, subject: row.subject, source: row.source, content };
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

/** The blob store of a storage location (null: the server's own), where its items' blobs are. */
export type StoreAt = (locationId: string | null) => Promise<BlobStore>;

/**
 * Retention: removes the tenant's items in the scope (see retentionScope) sent before `before` but
 * those a legal hold keeps, and the blobs no remaining item refers to, each from the store of the
 * location it was written to. A blob any other item refers to is kept (a held item's too), wherever
 * that item's blob is (a content hash says nothing of its store). With `runId`, the run's report
 * records the items kept (legal-hold.ts); `held` counts them. What was deleted is recorded per
 * source and day of archiving (migration 32), at `now`, so the archive's per-day figures show the
 * deletion on its day and keep what each earlier day archived; `perSource` is what each mailbox,
 * team or chat lost.
 */
export async function deleteArchivedBefore(
  db: Database,
  blobs: BlobStore | StoreAt,
  tenantId: string,
  options: {
    kind: 'mail' | 'teams';
    before: Date;
    sources?: readonly string[];
    chats?: readonly string[];
    runId?: string;
    now?: Date;
  },
) {
  const storeAt: StoreAt = typeof blobs === 'function' ? blobs : async () => blobs;
  const sources = options.sources ?? [];
  const chats = options.chats ?? [];
  const scope = retentionScope(options.kind, sources, chats, 3);
  // Items archived after the holds were brought up to date wait for the next run: a hold has not
  // looked at them yet.
  const through = await refreshHolds(db, tenantId);
  const removed = await db.query<{
    blob_hash: string;
    size: number;
    location_id: string | null;
    kind: ArchiveKind;
    source: string;
    archived_day: string;
  }>(
    `delete from archive_items
      where tenant_id = $1 and coalesce(sent_at, archived_at) < $2 and ${scope.sql}
        and id <= $${3 + scope.params.length}::bigint and ${notHeld()}
      returning blob_hash, size, location_id, kind, source,
                to_char(archived_at at time zone 'UTC', 'YYYY-MM-DD') as archived_day`,
    [tenantId, options.before, ...scope.params, through],
  );
  const hashes = [...new Set(removed.map((r) => r.blob_hash))];
  let bytes = 0;
  for (const r of removed) bytes += Number(r.size);
  const perSource = new Map<string, { kind: ArchiveKind; source: string; items: number; bytes: number }>();
  const perDay = new Map<string, { kind: ArchiveKind; source: string; day: string; items: number; bytes: number }>();
  for (const r of removed) {
    const source = perSource.get(r.source) ?? { kind: r.kind, source: r.source, items: 0, bytes: 0 };
    source.items += 1;
    source.bytes += Number(r.size);
    perSource.set(r.source, source);
    const key = JSON.stringify([r.kind, r.source, r.archived_day]);
    const day = perDay.get(key) ?? { kind: r.kind, source: r.source, day: r.archived_day, items: 0, bytes: 0 };
    day.items += 1;
    day.bytes += Number(r.size);
    perDay.set(key, day);
  }
  if (perDay.size > 0) {
    const rows = [...perDay.values()];
    await db.query(
      `insert into archive_deletions (tenant_id, run_id, kind, source, archived_day, deleted_at, items, bytes)
       select $1::text, $2::text, d.kind, d.source, d.day::date, $3::timestamptz, d.items, d.bytes
         from unnest($4::text[], $5::text[], $6::text[], $7::int[], $8::bigint[]) as d(kind, source, day, items, bytes)
       on conflict (run_id, kind, source, archived_day) do update
         set items = archive_deletions.items + excluded.items, bytes = archive_deletions.bytes + excluded.bytes`,
      [
        tenantId,
        options.runId ?? '',
        options.now ?? new Date(),
        rows.map((r) => r.kind),
        rows.map((r) => r.source),
        rows.map((r) => r.day),
        rows.map((r) => r.items),
        rows.map((r) => r.bytes),
      ],
    );
  }
  if (hashes.length > 0) {
    const stillUsed = await db.query<{ blob_hash: string }>(
      `select distinct blob_hash from archive_items where blob_hash = any($1::text[])
       union select distinct hash from backup_items where hash = any($1::text[])`,
      [hashes],
    );
    const keep = new Set(stillUsed.map((r) => r.blob_hash));
    const gone = new Set<string>();
    for (const r of removed) {
      const key = `${r.location_id ?? ''} ${r.blob_hash}`;
      if (keep.has(r.blob_hash) || gone.has(key)) continue;
      gone.add(key);
      await (await storeAt(r.location_id)).delete(r.blob_hash);
    }
  }
  const held = options.runId
    ? await recordKeptItems(db, options.runId, tenantId, { kind: options.kind, before: options.before, sources, chats })
    : 0;
  return { items: removed.length, bytes, held, perSource: [...perSource.values()] };
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
