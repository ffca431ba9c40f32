/**
 * The archive: each mail kept as its MIME (.eml) and each Teams message as its JSON in the blob
 * store, with metadata and a search vector (English and German stemming; subject weighs most, then
 * people, then the body) for eDiscovery. Archiving is idempotent per tenant, kind, source and item.
 */
import type { ChatMessage } from '@microsoft/microsoft-graph-types';
import type { Database, Queryable } from '../db/database.js';
import type { BlobStore } from '../storage/blob-store.js';
import { type ArchiveKind, type ArchiveQuery, searchedText } from './archive-filter.js';
import {
  type ArchiveRow,
  archivedItemRow,
  archiveHitPage,
  blobsInUse,
  type DeletedOfDay,
  deleteUnheldBefore,
  hitHeadlines,
  insertArchiveRows,
  recordDeletions,
  upsertChat,
} from './archive-repository.js';
import { escapeHtml, hitMarkers, markHits } from './highlight.js';
import { refreshHolds } from './legal-hold.js';
import { recordKeptItems } from './legal-hold-repository.js';
import { deleteMailboxItemsBefore } from './mailbox-items.js';
import { stripHtml, summariseMail } from './mime.js';

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
  await upsertChat(db, {
    tenantId: chat.tenantId,
    chatId: chat.chatId,
    chatType: chat.chatType,
    topic: chat.topic,
    name,
    memberIds: chat.members.map((m) => m.userId),
    memberNames: names,
    updatedAt: chat.now ?? new Date(),
  });
  return name;
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

/**
 * One page of the hits of `query`, with snippets; with `top`, instead of its page, its first `top`
 * hits (no bound of 500: what a caller merging these hits with others' needs to cut its own page).
 */
export async function searchArchive(db: Queryable, tenantId: string, query: ArchiveQuery, top?: number) {
  const text = searchedText(query);
  const page = top === undefined ? (query.page ?? 1) : 1;
  const pageSize = top ?? Math.min(500, query.pageSize ?? 25);
  const { rows, total } = await archiveHitPage(db, tenantId, query, page, pageSize);
  // Snippets only for the page shown: ts_headline is the costly part.
  const snippets = new Map<string, { html: string; text: string }>();
  if (text && rows.length > 0) {
    // ts_headline copies the text as it is (markup of a hostile mail included): it marks the hits
    // with markers no mail can hold, and the whole is escaped before the markers become <mark>.
    const markers = hitMarkers();
    const highlighted = await hitHeadlines(
      db,
      text,
      rows.map((r) => r.id),
      markers,
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
  return { items, total, page, pageSize };
}

export async function getArchivedItem(db: Queryable, storeAt: StoreAt, tenantId: string, id: string) {
  if (!/^\d+$/.test(id)) return undefined;
  const row = await archivedItemRow(db, tenantId, id);
  if (!row) return undefined;
  const content = await (await storeAt(row.location_id)).get(row.blob_hash);
  return { kind: row.kind, subject: row.subject, source: row.source, content };
}

/** The blob store of a storage location (null: the server's own), where its items' blobs are. */
export type StoreAt = (locationId: string | null) => Promise<BlobStore>;

/**
 * Retention: removes the tenant's items in the scope (see retentionScope) sent before `before` but
 * those a legal hold keeps, and the blobs no remaining item refers to, each from the store of the
 * location it was written to. A blob any other item refers to is kept (a held item's too), wherever
 * that item's blob is (a content hash says nothing of its store). With `runId`, the run's report
 * records the items kept (legal-hold-repository.ts); `held` counts them. What was deleted is recorded per
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
  // Items archived after the holds were brought up to date wait for the next run: a hold has not
  // looked at them yet.
  const through = await refreshHolds(db, tenantId);
  const removed = await deleteUnheldBefore(db, tenantId, {
    kind: options.kind,
    before: options.before,
    sources,
    chats,
    through,
  });
  // A mailbox's calendars, contacts and tasks go by the same rule as its mail, their blobs with it.
  const mailboxItems =
    options.kind === 'mail'
      ? await deleteMailboxItemsBefore(db, tenantId, { before: options.before, mailboxes: sources })
      : { versions: 0, blobs: [] };
  const removedBlobs = [
    ...removed.map((r) => ({ blobHash: r.blob_hash, locationId: r.location_id })),
    ...mailboxItems.blobs,
  ];
  const hashes = [...new Set(removedBlobs.map((r) => r.blobHash))];
  let bytes = 0;
  for (const r of removed) bytes += Number(r.size);
  const perSource = new Map<string, { kind: ArchiveKind; source: string; items: number; bytes: number }>();
  const perDay = new Map<string, DeletedOfDay>();
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
  if (perDay.size > 0)
    await recordDeletions(db, tenantId, options.runId ?? '', options.now ?? new Date(), [...perDay.values()]);
  if (hashes.length > 0) {
    const keep = await blobsInUse(db, hashes);
    const gone = new Set<string>();
    for (const r of removedBlobs) {
      const key = `${r.locationId ?? ''} ${r.blobHash}`;
      if (keep.has(r.blobHash) || gone.has(key)) continue;
      gone.add(key);
      await (await storeAt(r.locationId)).delete(r.blobHash);
    }
  }
  const held = options.runId
    ? await recordKeptItems(db, options.runId, tenantId, { kind: options.kind, before: options.before, sources, chats })
    : 0;
  return {
    items: removed.length,
    bytes,
    held,
    perSource: [...perSource.values()],
    mailboxItemVersions: mailboxItems.versions,
  };
}
