/**
 * Encrypts the blobs stored before encryption at rest (named by their SHA-256, in the clear): each
 * organisation's content is written again under its key (storage/encryption.ts), its rows pointed at
 * the new name, and the old blob deleted once no row refers to it. Blob by blob, each step safe to
 * repeat: a run that stops (or is stopped with `limit`) is finished by running it again. `verify`
 * reads every blob the rows refer to and says how many are encrypted, still in the clear, or
 * unreadable.
 */
import type { AppContext } from '../context.js';
import { keyedName } from '../storage/encryption.js';
import type { DataPlane } from './executors/plane.js';

interface Reference {
  organisation_id: string;
  location_id: string | null;
  hash: string;
}

/** The tables of a mailbox's archived calendars, contacts and tasks, whose rows name blobs. */
const MAILBOX_ITEM_TABLES = ['archived_events', 'archived_event_attachments', 'archived_contacts', 'archived_tasks'];

/** Every blob a row refers to, with its organisation and location. */
const references = (ctx: AppContext) =>
  ctx.db.query<Reference>(
    `select distinct t.organisation_id, a.location_id, a.blob_hash as hash
       from archive_items a join tenants t on t.tenant_id = a.tenant_id
     union
     select t.organisation_id, m.location_id, m.blob_hash
       from (select tenant_id, location_id, blob_hash from archived_events
             union select tenant_id, location_id, blob_hash from archived_event_attachments
             union select tenant_id, location_id, blob_hash from archived_contacts
             union select tenant_id, location_id, blob_hash from archived_tasks) m
       join tenants t on t.tenant_id = m.tenant_id
     union
     select distinct t.organisation_id, j.location_id, b.hash
       from backup_items b join jobs j on j.job_id = b.job_id join tenants t on t.tenant_id = j.tenant_id
      where b.hash is not null
     order by 1, 2, 3`,
  );

export interface EncryptionReport {
  /** Blobs written again under their organisation's key. */
  encrypted: number;
  /** Blobs that were encrypted already. */
  already: number;
  /** Blobs that could not be read, by name and reason (left as they are). */
  failed: { hash: string; reason: string }[];
}

export async function encryptStoredBlobs(
  ctx: AppContext,
  plane: Pick<DataPlane, 'at' | 'storeAt' | 'keys'>,
  options: { limit?: number } = {},
): Promise<EncryptionReport> {
  const { keys } = plane;
  const report: EncryptionReport = { encrypted: 0, already: 0, failed: [] };
  for (const ref of await references(ctx)) {
    if (options.limit !== undefined && report.encrypted >= options.limit) break;
    const key = await keys.ensure(ref.organisation_id);
    const store = await plane.storeAt(ref.location_id);
    let content: Uint8Array;
    try {
      content = await store.get(ref.hash);
    } catch (error) {
      report.failed.push({ hash: ref.hash, reason: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const name = keyedName(key, content);
    if (name === ref.hash) {
      report.already += 1;
      continue;
    }
    // Written under the organisation's key first; then its rows move to it; then the old one goes.
    const writer = (await plane.at(ref.location_id, ref.organisation_id)).blobs;
    const put = await writer.put(content);
    if (put.hash !== name) throw new Error(`The store named the encrypted blob ${put.hash}, not ${name}.`);
    await ctx.db.transaction(async (tx) => {
      await tx.query(
        `update archive_items set blob_hash = $1
          where blob_hash = $2 and location_id is not distinct from $3
            and tenant_id in (select tenant_id from tenants where organisation_id = $4)`,
        [name, ref.hash, ref.location_id, ref.organisation_id],
      );
      // A mailbox's calendars, contacts and tasks (migration 38) keep their blobs as mail does.
      for (const table of MAILBOX_ITEM_TABLES) {
        await tx.query(
          `update ${table} set blob_hash = $1
            where blob_hash = $2 and location_id is not distinct from $3
              and tenant_id in (select tenant_id from tenants where organisation_id = $4)`,
          [name, ref.hash, ref.location_id, ref.organisation_id],
        );
      }
      await tx.query(
        `update backup_items set hash = $1
          where hash = $2 and job_id in (
            select j.job_id from jobs j join tenants t on t.tenant_id = j.tenant_id
             where t.organisation_id = $4 and j.location_id is not distinct from $3)`,
        [name, ref.hash, ref.location_id, ref.organisation_id],
      );
    });
    const [used] = await ctx.db.query<{ n: number }>(
      `select (select count(*) from archive_items where blob_hash = $1) + (select count(*) from backup_items where hash = $1)
              + ${MAILBOX_ITEM_TABLES.map((t) => `(select count(*) from ${t} where blob_hash = $1)`).join(' + ')} as n`,
      [ref.hash],
    );
    if (Number(used?.n ?? 0) === 0) await store.delete(ref.hash);
    report.encrypted += 1;
  }
  return report;
}

export interface VerificationReport {
  /** Blobs read back and found named by their organisation's key. */
  encrypted: number;
  /** Blobs read back in the clear (SHA-256 names): not yet encrypted. */
  plain: number;
  failed: { hash: string; reason: string }[];
}

export async function verifyStoredBlobs(
  ctx: AppContext,
  plane: Pick<DataPlane, 'storeAt' | 'keys'>,
): Promise<VerificationReport> {
  const { keys } = plane;
  const report: VerificationReport = { encrypted: 0, plain: 0, failed: [] };
  for (const ref of await references(ctx)) {
    try {
      const content = await (await plane.storeAt(ref.location_id)).get(ref.hash);
      const key = await keys.find(ref.organisation_id);
      if (key && keyedName(key, content) === ref.hash) report.encrypted += 1;
      else report.plain += 1;
    } catch (error) {
      report.failed.push({ hash: ref.hash, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return report;
}
