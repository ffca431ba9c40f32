/** The SQL of deleting an organisation for good (deletion.ts): what it has, and its rows' removal. */
import type { Queryable } from '../../db/database.js';

export async function findOrganisationToDelete(
  db: Queryable,
  organisationId: string,
): Promise<{ id: string; name: string } | undefined> {
  const [organisation] = await db.query<{ id: string; name: string }>(
    'select id, name from organisations where id = $1',
    [organisationId],
  );
  return organisation;
}

/** Whether the organisation is a partner with clients. */
export async function hasClients(db: Queryable, organisationId: string): Promise<boolean> {
  const clients = await db.query('select 1 from organisations where partner_id = $1', [organisationId]);
  return clients.length > 0;
}

export async function tenantIdsOf(db: Queryable, organisationId: string): Promise<string[]> {
  const rows = await db.query<{ tenant_id: string }>('select tenant_id from tenants where organisation_id = $1', [
    organisationId,
  ]);
  return rows.map((r) => r.tenant_id);
}

/** A blob the tenants' archive or backups refer to, and the location whose store holds it. */
export interface ReferencedBlob {
  locationId: string | null;
  hash: string;
}

export async function blobsReferencedBy(db: Queryable, tenantIds: string[]): Promise<ReferencedBlob[]> {
  const rows = await db.query<{ location_id: string | null; hash: string }>(
    `select distinct location_id, blob_hash as hash from archive_items where tenant_id = any($1::text[])
     union select location_id, blob_hash from archived_events where tenant_id = any($1::text[])
     union select location_id, blob_hash from archived_event_attachments where tenant_id = any($1::text[])
     union select location_id, blob_hash from archived_contacts where tenant_id = any($1::text[])
     union select location_id, blob_hash from archived_tasks where tenant_id = any($1::text[])
     union
     select distinct j.location_id, b.hash from backup_items b join jobs j on j.job_id = b.job_id
      where j.tenant_id = any($1::text[]) and b.hash is not null`,
    [tenantIds],
  );
  return rows.map((r) => ({ locationId: r.location_id, hash: r.hash }));
}

export async function documentIdsOf(db: Queryable, organisationId: string): Promise<string[]> {
  const rows = await db.query<{ document_id: string }>('select document_id from documents where organisation_id = $1', [
    organisationId,
  ]);
  return rows.map((r) => r.document_id);
}

/** Destroys the organisation's data key: from then on nothing sealed under it can be read. */
export async function destroyDataKey(db: Queryable, organisationId: string): Promise<void> {
  await db.query('delete from organisation_keys where organisation_id = $1', [organisationId]);
}

/**
 * Deletes the organisation's rows, its tenants' with them; answers how many archived items and backed-up
 * versions went.
 */
export async function deleteOrganisationRows(
  tx: Queryable,
  organisationId: string,
  tenantIds: string[],
): Promise<number> {
  const [archived] = await tx.query<{ n: number }>(
    `with gone as (delete from archive_items where tenant_id = any($1::text[]) returning 1)
     select count(*)::int as n from gone`,
    [tenantIds],
  );
  const [versions] = await tx.query<{ n: number }>(
    `select count(*)::int as n from backup_items b join jobs j on j.job_id = b.job_id where j.tenant_id = any($1::text[])`,
    [tenantIds],
  );
  await tx.query('delete from archived_chats where tenant_id = any($1::text[])', [tenantIds]);
  for (const table of ['archived_events', 'archived_event_attachments', 'archived_contacts', 'archived_tasks']) {
    await tx.query(`delete from ${table} where tenant_id = any($1::text[])`, [tenantIds]);
  }
  await tx.query('delete from archive_usage where tenant_id = any($1::text[])', [tenantIds]);
  await tx.query('delete from archive_deletions where tenant_id = any($1::text[])', [tenantIds]);
  await tx.query('delete from job_runs where tenant_id = any($1::text[])', [tenantIds]);
  await tx.query('update workers set stagingtenant_id = null where organisation_id = $1', [organisationId]);
  // Jobs, their versions, locations, cases, rights and usage go with the tenants (on delete cascade).
  await tx.query('delete from tenants where organisation_id = $1', [organisationId]);
  await tx.query('delete from workers where organisation_id = $1', [organisationId]);
  await tx.query('delete from support_requests where organisation_id = $1', [organisationId]);
  await tx.query('delete from users where organisation_id = $1', [organisationId]);
  await tx.query('delete from organisations where id = $1', [organisationId]);
  return Number(archived?.n ?? 0) + Number(versions?.n ?? 0);
}

/** Of these blobs, those a remaining archived item or backed-up version still refers to. */
export async function blobsStillUsed(db: Queryable, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db.query<{ hash: string }>(
    `select blob_hash as hash from archive_items where blob_hash = any($1::text[])
     union select hash from backup_items where hash = any($1::text[])
     union select blob_hash from archived_events where blob_hash = any($1::text[])
     union select blob_hash from archived_event_attachments where blob_hash = any($1::text[])
     union select blob_hash from archived_contacts where blob_hash = any($1::text[])
     union select blob_hash from archived_tasks where blob_hash = any($1::text[])`,
    [hashes],
  );
  return new Set(rows.map((r) => r.hash));
}
