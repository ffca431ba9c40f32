import type { Queryable } from '../../db/database.js';
import { discoveredName } from '../../db/records.js';

/** The backup job that archived one of these mails of the mailbox (the restore reads its archive). */
export async function archivingJobOfMails(
  db: Queryable,
  tenantId: string,
  mailboxId: string,
  ids: readonly string[],
): Promise<string | undefined> {
  const [row] = await db.query<{ job_id: string }>(
    `select job_id from archive_items where tenant_id = $1 and kind = 'mail' and source = $2
        and id = any($3::bigint[]) and job_id is not null limit 1`,
    [tenantId, mailboxId, [...ids]],
  );
  return row?.job_id;
}

/** The folders of the tenant's archived mail, in order. */
export async function archivedMailFolders(db: Queryable, tenantId: string): Promise<string[]> {
  const rows = await db.query<{ container: string }>(
    `select distinct container from archive_items where tenant_id = $1 and kind = 'mail' order by container`,
    [tenantId],
  );
  return rows.map((r) => r.container);
}

/** How many teams and mailboxes discovery found in the tenant. */
export async function countDiscoveredTeamsAndMailboxes(
  db: Queryable,
  tenantId: string,
): Promise<{ teams: number; mailboxes: number }> {
  const [row] = await db.query<{ teams: number; mailboxes: number }>(
    `select count(*) filter (where application = 'teams')::int as teams,
            count(*) filter (where application = 'exchange')::int as mailboxes
       from discovered_sources where tenant_id = $1`,
    [tenantId],
  );
  return { teams: Number(row?.teams ?? 0), mailboxes: Number(row?.mailboxes ?? 0) };
}

/** A mailbox's name as discovery found it, or undefined when discovery has not seen it. */
export async function mailboxName(db: Queryable, tenantId: string, mailboxId: string): Promise<string | undefined> {
  return discoveredName(db, tenantId, 'exchange', mailboxId);
}

/** An archived mail's folder, subject and blob, as a download reads it. */
export interface ArchivedMailRow {
  id: string;
  container: string;
  subject: string;
  blob_hash: string;
  location_id: string | null;
}

/**
 * The archived mails of a mailbox among `ids` (every one when null), by folder, sending time and id.
 */
export async function archivedMails(
  db: Queryable,
  tenantId: string,
  mailboxId: string,
  ids: readonly string[] | null,
): Promise<ArchivedMailRow[]> {
  return db.query<ArchivedMailRow>(
    `select id::text, container, subject, blob_hash, location_id from archive_items
      where tenant_id = $1 and kind = 'mail' and source = $2 and ($3::bigint[] is null or id = any($3::bigint[]))
      order by container, sent_at, id`,
    [tenantId, mailboxId, ids ? [...ids] : null],
  );
}
