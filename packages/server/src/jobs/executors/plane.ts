import type { ChatMessage } from '@microsoft/microsoft-graph-types';
import type { StoreAt } from '../../archive-data/archive.js';
import type { ArchivedSize, ArchiveRow } from '../../archive-data/archive-repository.js';
import type { TenantRecord } from '../../db/records.js';
import type { GraphApi } from '../../m365/graph-api.js';
import type { OrganisationKeys } from '../../storage/encryption.js';
import type { FileStore } from '../../storage/object-blob-store.js';

/** The blob store as the executors use it (content-addressed, deduplicated). */
export interface Blobs {
  put(bytes: Uint8Array): Promise<{ hash: string; size: number; storedSize: number; isNew: boolean }>;
  get(hash: string): Promise<Uint8Array>;
}

interface ArchivedMail {
  tenantId: string;
  jobId: string;
  /** The mailbox (user id or address). */
  source: string;
  /** The folder path, such as Inbox/TestOrder. */
  folder: string;
  /** The Graph message id. */
  externalId: string;
  mime: Uint8Array;
}

interface ArchivedTeamsMessage {
  tenantId: string;
  jobId: string;
  /** 'chat' for a chat's message; a channel's by default. */
  kind?: 'teams' | 'chat';
  /** The team id, or the chat id. */
  source: string;
  /** The channel name, or the chat's name. */
  channel: string;
  externalId: string;
  message: ChatMessage;
}

/** The archive as the executors use it: idempotent per item, and deletion by age. */
interface Archive {
  /**
   * Stores a mail's MIME in the blob store and reads what the archive indexes of it; it is archived
   * once `saveMails` recorded it (many at a time).
   */
  prepareMail(item: ArchivedMail): Promise<ArchiveRow>;
  /** Records prepared mail; for each, true when it was new. */
  saveMails(items: readonly ArchiveRow[]): Promise<boolean[]>;
  /** Which of these Graph ids of the mailbox's mail are archived already (each with its MIME's size). */
  archivedMails(tenantId: string, source: string, externalIds: readonly string[]): Promise<Map<string, ArchivedSize>>;
  teamsMessage(item: ArchivedTeamsMessage): Promise<boolean>;
  /** Keeps a chat's type, topic and members; gives the chat's name. */
  chat(chat: {
    tenantId: string;
    chatId: string;
    chatType: string;
    topic: string | null;
    members: { userId: string; displayName: string }[];
  }): Promise<string>;
  /**
   * Deletes the tenant's archived items older than `before`: mail of `sources`, or messages of the
   * `sources` teams and of the chats the `chats` accounts are in (all of the kind when both are empty),
   * but those a legal hold keeps, which the run `runId` records (`held`: how many). With mail, the
   * mailboxes' archived calendars, contacts and tasks: each version no longer current before then.
   */
  deleteBefore(
    tenantId: string,
    kind: 'mail' | 'teams',
    before: Date,
    sources: readonly string[],
    chats: readonly string[],
    runId: string,
  ): Promise<{
    items: number;
    bytes: number;
    held: number;
    /** What each mailbox, team or chat lost. */
    perSource: { source: string; items: number; bytes: number }[];
    /** With mail: the versions of the mailboxes' calendars, contacts and tasks that went with it. */
    mailboxItemVersions: number;
  }>;
}

/**
 * What executors reach the outside world through: a tenant's Graph, a blob store and the archive
 * writing into it. The process's plane stores in the server's own store; `at` gives the plane of a
 * storage location (its own store: an Azure container, an S3 bucket, or the server's).
 */
export interface DataPlane {
  /**
   * The tenant's Graph client. `interactive`: for a request someone waits on (discovery), with few,
   * short retries instead of a job's patient ones.
   */
  graph(tenant: TenantRecord, options?: { maxConcurrency?: number; interactive?: boolean }): Promise<GraphApi>;
  blobs: Blobs;
  /** Writes into `blobs`, and records each item as stored in this plane's location. */
  archive: Archive;
  /**
   * The plane of a storage location (null: the server's own store), writing blobs encrypted under
   * the organisation's key when one is named; its Graph clients are shared.
   */
  at(locationId: string | null, organisationId?: string): Promise<DataPlane>;
  /** The blob store of a storage location (null: the server's own), where that location's items are. */
  storeAt: StoreAt;
  /** The files (restore downloads) of a storage location's store (null: the server's own). */
  filesAt(locationId: string | null): Promise<FileStore>;
  /** The organisations' data keys (storage/encryption.ts). */
  keys: OrganisationKeys;
}
