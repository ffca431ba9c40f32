/**
 * The SQL of a mailbox's archived calendars, contacts and tasks (migration 38): archived_events with
 * archived_event_attachments, archived_contacts and archived_tasks, each row one version of an item.
 * What is kept of an item and when a version is new is mailbox-items.ts.
 */
import type { Queryable } from '../db/database.js';

/** The three kinds of mailbox item archived beside mail. */
export type MailboxItemKind = 'event' | 'contact' | 'task';

/** What a version row holds whatever its kind. */
interface VersionRowBase {
  tenantId: string;
  mailbox: string;
  externalId: string;
  version: number;
  blobHash: string;
  size: number;
  locationId: string | null;
  jobId: string | null;
  archivedAt: Date;
}

export interface EventVersionRow extends VersionRowBase {
  calendarId: string;
  calendarName: string;
  eventType: string;
  seriesMasterId: string | null;
  subject: string;
  startsAt: Date | null;
  endsAt: Date | null;
  /** The organiser as "name <address>". */
  organizer: string;
  /** The attendees as "name <address>", separated by ", ". */
  attendees: string;
  location: string;
  hasAttachments: boolean;
}

export interface ContactVersionRow extends VersionRowBase {
  folderId: string;
  folderPath: string;
  displayName: string;
  email: string;
}

export interface TaskVersionRow extends VersionRowBase {
  listId: string;
  listName: string;
  title: string;
  status: string;
  dueAt: Date | null;
}

export interface EventAttachmentRow {
  tenantId: string;
  mailbox: string;
  eventId: string;
  version: number;
  attachmentId: string;
  name: string;
  contentType: string;
  isInline: boolean;
  size: number;
  blobHash: string;
  locationId: string | null;
}

const TABLES: Record<MailboxItemKind, string> = {
  event: 'archived_events',
  contact: 'archived_contacts',
  task: 'archived_tasks',
};

/** The latest version of an archived item: its number, its blob and whether it was deleted. */
export interface LatestVersion {
  version: number;
  blobHash: string;
  locationId: string | null;
  deleted: boolean;
}

/** The latest versions of the mailbox's items of a kind among `externalIds` (all of them without). */
export async function latestVersions(
  db: Queryable,
  kind: MailboxItemKind,
  key: { tenantId: string; mailbox: string },
  externalIds?: readonly string[],
): Promise<Map<string, LatestVersion>> {
  if (externalIds?.length === 0) return new Map();
  const rows = await db.query<{
    external_id: string;
    version: number;
    blob_hash: string;
    location_id: string | null;
    deleted_at: Date | null;
  }>(
    `select distinct on (external_id) external_id, version, blob_hash, location_id, deleted_at from ${TABLES[kind]}
      where tenant_id = $1 and mailbox = $2 ${externalIds ? 'and external_id = any($3::text[])' : ''}
      order by external_id, version desc`,
    externalIds ? [key.tenantId, key.mailbox, [...externalIds]] : [key.tenantId, key.mailbox],
  );
  return new Map(
    rows.map((r) => [
      r.external_id,
      { version: Number(r.version), blobHash: r.blob_hash, locationId: r.location_id, deleted: r.deleted_at !== null },
    ]),
  );
}

const base = (r: VersionRowBase) => [
  r.tenantId,
  r.mailbox,
  r.externalId,
  r.version,
  r.blobHash,
  r.size,
  r.locationId,
  r.jobId,
  r.archivedAt,
];
const BASE_COLUMNS = 'tenant_id, mailbox, external_id, version, blob_hash, size, location_id, job_id, archived_at';

/**
 * Records a version; false when that version of the item is recorded already (a run read again after
 * an interruption: the row written the first time stands).
 */
export async function insertEventVersion(db: Queryable, row: EventVersionRow): Promise<boolean> {
  const inserted = await db.query(
    `insert into archived_events (${BASE_COLUMNS}, calendar_id, calendar_name, event_type, series_master_id, subject,
                                  starts_at, ends_at, organizer, attendees, location, has_attachments)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
     on conflict do nothing returning 1`,
    [
      ...base(row),
      row.calendarId,
      row.calendarName,
      row.eventType,
      row.seriesMasterId,
      row.subject,
      row.startsAt,
      row.endsAt,
      row.organizer,
      row.attendees,
      row.location,
      row.hasAttachments,
    ],
  );
  return inserted.length > 0;
}

export async function insertContactVersion(db: Queryable, row: ContactVersionRow): Promise<boolean> {
  const inserted = await db.query(
    `insert into archived_contacts (${BASE_COLUMNS}, folder_id, folder_path, display_name, email)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     on conflict do nothing returning 1`,
    [...base(row), row.folderId, row.folderPath, row.displayName, row.email],
  );
  return inserted.length > 0;
}

export async function insertTaskVersion(db: Queryable, row: TaskVersionRow): Promise<boolean> {
  const inserted = await db.query(
    `insert into archived_tasks (${BASE_COLUMNS}, list_id, list_name, title, status, due_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     on conflict do nothing returning 1`,
    [...base(row), row.listId, row.listName, row.title, row.status, row.dueAt],
  );
  return inserted.length > 0;
}

export async function insertEventAttachments(db: Queryable, rows: readonly EventAttachmentRow[]): Promise<void> {
  for (const r of rows) {
    await db.query(
      `insert into archived_event_attachments (tenant_id, mailbox, event_id, version, attachment_id, name, content_type,
                                               is_inline, size, blob_hash, location_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict do nothing`,
      [
        r.tenantId,
        r.mailbox,
        r.eventId,
        r.version,
        r.attachmentId,
        r.name,
        r.contentType,
        r.isInline,
        r.size,
        r.blobHash,
        r.locationId,
      ],
    );
  }
}

/**
 * Marks the latest version of each of these items deleted at `at` (those not marked already); answers
 * the ids marked.
 */
export async function markDeleted(
  db: Queryable,
  kind: MailboxItemKind,
  key: { tenantId: string; mailbox: string },
  externalIds: readonly string[],
  at: Date,
): Promise<string[]> {
  if (externalIds.length === 0) return [];
  const table = TABLES[kind];
  const rows = await db.query<{ external_id: string }>(
    `update ${table} t set deleted_at = $4
      where t.tenant_id = $1 and t.mailbox = $2 and t.external_id = any($3::text[]) and t.deleted_at is null
        and t.version = (select max(v.version) from ${table} v
                          where v.tenant_id = t.tenant_id and v.mailbox = t.mailbox and v.external_id = t.external_id)
      returning t.external_id`,
    [key.tenantId, key.mailbox, [...externalIds], at],
  );
  return rows.map((r) => r.external_id);
}

/**
 * The series masters of the mailbox (their latest versions, not deleted) none of whose occurrences or
 * exceptions is archived and not deleted any more: a series deleted in Outlook, which Graph's
 * calendar view delta reports occurrence by occurrence.
 */
export async function seriesWithoutInstances(
  db: Queryable,
  key: { tenantId: string; mailbox: string },
  masterIds: readonly string[],
): Promise<string[]> {
  if (masterIds.length === 0) return [];
  const rows = await db.query<{ external_id: string }>(
    `select m.external_id from archived_events m
      where m.tenant_id = $1 and m.mailbox = $2 and m.external_id = any($3::text[]) and m.event_type = 'seriesMaster'
        and m.deleted_at is null
        and not exists (
          select 1 from archived_events i
           where i.tenant_id = m.tenant_id and i.mailbox = m.mailbox and i.series_master_id = m.external_id
             and i.deleted_at is null
             and i.version = (select max(v.version) from archived_events v
                               where v.tenant_id = i.tenant_id and v.mailbox = i.mailbox and v.external_id = i.external_id))`,
    [key.tenantId, key.mailbox, [...masterIds]],
  );
  return rows.map((r) => r.external_id);
}

/** The series master each of these archived instances belongs to (instances of no series left out). */
export async function seriesOf(
  db: Queryable,
  key: { tenantId: string; mailbox: string },
  externalIds: readonly string[],
): Promise<string[]> {
  if (externalIds.length === 0) return [];
  const rows = await db.query<{ series_master_id: string }>(
    `select distinct series_master_id from archived_events
      where tenant_id = $1 and mailbox = $2 and external_id = any($3::text[]) and series_master_id is not null`,
    [key.tenantId, key.mailbox, [...externalIds]],
  );
  return rows.map((r) => r.series_master_id);
}

/**
 * What a run archived of its mailboxes' calendars, contacts and tasks: new or changed versions of
 * each kind, the file attachments kept with them, the deletions marked and the failures.
 */
export interface MailboxItemCounts {
  events: number;
  contacts: number;
  tasks: number;
  attachments: number;
  deleted: number;
  /** Items, calendar views, folders or lists that could not be read or kept. */
  failed: number;
}

export async function recordRunCounts(db: Queryable, runId: string, counts: MailboxItemCounts): Promise<void> {
  await db.query('update job_runs set mailbox_items = $2 where run_id = $1', [runId, JSON.stringify(counts)]);
}

/** What a run recorded of its mailboxes' calendars, contacts and tasks (none for a run that read none). */
export async function runCounts(db: Queryable, runId: string): Promise<MailboxItemCounts | undefined> {
  const [row] = await db.query<{ mailbox_items: MailboxItemCounts | string | null }>(
    'select mailbox_items from job_runs where run_id = $1',
    [runId],
  );
  const value = row?.mailbox_items;
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? (JSON.parse(value) as MailboxItemCounts) : value;
}

/** One archived version as a reader sees it: where its blob is and whether it was deleted. */
export interface ArchivedVersion {
  externalId: string;
  version: number;
  container: string;
  blobHash: string;
  locationId: string | null;
  archivedAt: Date;
  deletedAt: Date | null;
}

/** Every version of the mailbox's items of a kind, oldest first per item. */
export async function archivedVersions(
  db: Queryable,
  kind: MailboxItemKind,
  key: { tenantId: string; mailbox: string },
): Promise<ArchivedVersion[]> {
  const container = { event: 'calendar_name', contact: 'folder_path', task: 'list_name' }[kind];
  const rows = await db.query<{
    external_id: string;
    version: number;
    container: string;
    blob_hash: string;
    location_id: string | null;
    archived_at: Date | string;
    deleted_at: Date | string | null;
  }>(
    `select external_id, version, ${container} as container, blob_hash, location_id, archived_at, deleted_at
       from ${TABLES[kind]} where tenant_id = $1 and mailbox = $2 order by external_id, version`,
    [key.tenantId, key.mailbox],
  );
  return rows.map((r) => ({
    externalId: r.external_id,
    version: Number(r.version),
    container: r.container,
    blobHash: r.blob_hash,
    locationId: r.location_id,
    archivedAt: new Date(r.archived_at),
    deletedAt: r.deleted_at === null ? null : new Date(r.deleted_at),
  }));
}

/** The attachments of one version of an archived event. */
export async function eventAttachmentsOf(
  db: Queryable,
  key: { tenantId: string; mailbox: string },
  eventId: string,
  version: number,
): Promise<EventAttachmentRow[]> {
  const rows = await db.query<{
    attachment_id: string;
    name: string;
    content_type: string;
    is_inline: boolean;
    size: number | string;
    blob_hash: string;
    location_id: string | null;
  }>(
    `select attachment_id, name, content_type, is_inline, size, blob_hash, location_id from archived_event_attachments
      where tenant_id = $1 and mailbox = $2 and event_id = $3 and version = $4 order by attachment_id`,
    [key.tenantId, key.mailbox, eventId, version],
  );
  return rows.map((r) => ({
    tenantId: key.tenantId,
    mailbox: key.mailbox,
    eventId,
    version,
    attachmentId: r.attachment_id,
    name: r.name,
    contentType: r.content_type,
    isInline: r.is_inline,
    size: Number(r.size),
    blobHash: r.blob_hash,
    locationId: r.location_id,
  }));
}

/** An archived item as a restore takes it: one version, the container it was in, what it is. */
export interface ChosenVersion {
  externalId: string;
  version: number;
  blobHash: string;
  locationId: string | null;
  /** The calendar, contact folder or To Do list: its id and name (a contact folder's path). */
  containerId: string;
  containerName: string;
  /** Deleted at the chosen date. */
  deleted: boolean;
  /** Events only: Graph's event type and the series an occurrence or exception belongs to. */
  eventType: string | null;
  seriesMasterId: string | null;
}

const CONTAINER: Record<MailboxItemKind, { id: string; name: string }> = {
  event: { id: 'calendar_id', name: 'calendar_name' },
  contact: { id: 'folder_id', name: 'folder_path' },
  task: { id: 'list_id', name: 'list_name' },
};

/**
 * Each item's version as of `at` (the latest archived by then; the latest of all without a date):
 * the items named by `ids` whatever became of them, and every item of the `containers` that was not
 * deleted at that date. An item is of the container its version of that date was in.
 */
export async function versionsAt(
  db: Queryable,
  kind: MailboxItemKind,
  key: { tenantId: string; mailbox: string },
  at: Date | null,
  chosen: { ids: readonly string[]; containers: readonly string[] },
): Promise<ChosenVersion[]> {
  if (chosen.ids.length === 0 && chosen.containers.length === 0) return [];
  const { id, name } = CONTAINER[kind];
  const eventColumns =
    kind === 'event' ? 'event_type, series_master_id' : 'null as event_type, null as series_master_id';
  const rows = await db.query<{
    external_id: string;
    version: number;
    blob_hash: string;
    location_id: string | null;
    container_id: string;
    container_name: string;
    deleted: boolean;
    event_type: string | null;
    series_master_id: string | null;
  }>(
    `select * from (
       select distinct on (external_id) external_id, version, blob_hash, location_id, ${id} as container_id,
              ${name} as container_name, (deleted_at is not null and ($3::timestamptz is null or deleted_at <= $3)) as deleted,
              ${eventColumns}
         from ${TABLES[kind]}
        where tenant_id = $1 and mailbox = $2 and ($3::timestamptz is null or archived_at <= $3)
        order by external_id, version desc) v
      where v.external_id = any($4::text[]) or (v.container_id = any($5::text[]) and not v.deleted)
      order by v.container_name, v.external_id`,
    [key.tenantId, key.mailbox, at, [...chosen.ids], [...chosen.containers]],
  );
  return rows.map((r) => ({
    externalId: r.external_id,
    version: Number(r.version),
    blobHash: r.blob_hash,
    locationId: r.location_id,
    containerId: r.container_id,
    containerName: r.container_name,
    deleted: r.deleted,
    eventType: r.event_type,
    seriesMasterId: r.series_master_id,
  }));
}

/** A blob a removed version (or one of its event attachments) referred to, and where it is. */
export interface RemovedBlob {
  blobHash: string;
  locationId: string | null;
}

/**
 * Retention of the tenant's archived calendars, contacts and tasks: removes each version that stopped
 * being the item's current one before `before` (a newer version was archived, or the item was deleted,
 * before then), of the `mailboxes` (all without), but never of the `kept` ones; an event's attachments
 * go with their version. The current version of an item still there stays, whatever its age, as a
 * backup keeps the latest state. Answers how many versions went and the blobs they referred to.
 */
export async function deleteSupersededBefore(
  db: Queryable,
  kind: MailboxItemKind,
  tenantId: string,
  options: { before: Date; mailboxes: readonly string[]; kept: readonly string[] },
): Promise<{ versions: number; blobs: RemovedBlob[] }> {
  const table = TABLES[kind];
  const rows = await db.query<{
    mailbox: string;
    external_id: string;
    version: number;
    blob_hash: string;
    location_id: string | null;
  }>(
    `delete from ${table} t
      where t.tenant_id = $1 and (cardinality($2::text[]) = 0 or t.mailbox = any($2::text[]))
        and not (t.mailbox = any($3::text[]))
        and coalesce((select min(n.archived_at) from ${table} n
                       where n.tenant_id = t.tenant_id and n.mailbox = t.mailbox and n.external_id = t.external_id
                         and n.version > t.version), t.deleted_at) < $4
      returning t.mailbox, t.external_id, t.version, t.blob_hash, t.location_id`,
    [tenantId, [...options.mailboxes], [...options.kept], options.before],
  );
  const blobs: RemovedBlob[] = rows.map((r) => ({ blobHash: r.blob_hash, locationId: r.location_id }));
  if (kind === 'event' && rows.length > 0) {
    const attachments = await db.query<{ blob_hash: string; location_id: string | null }>(
      `delete from archived_event_attachments a
        using unnest($2::text[], $3::text[], $4::int[]) as v(mailbox, event_id, version)
        where a.tenant_id = $1 and a.mailbox = v.mailbox and a.event_id = v.event_id and a.version = v.version
        returning a.blob_hash, a.location_id`,
      [tenantId, rows.map((r) => r.mailbox), rows.map((r) => r.external_id), rows.map((r) => Number(r.version))],
    );
    blobs.push(...attachments.map((a) => ({ blobHash: a.blob_hash, locationId: a.location_id })));
  }
  return { versions: rows.length, blobs };
}
