/**
 * Deleting an organisation for good (an operator's command: a customer leaves). Its data key is
 * destroyed first, so from that moment no copy of its blobs (a replica, a backup of the store, a blob
 * the collection misses) can be read by anyone: crypto-shredding. Then its tenants with their jobs,
 * backups, archive and locations, its users, worker and documents are deleted, and the blobs only it
 * referred to are collected from the stores they were written to, its documents' files from the data
 * directory. The audit log keeps the record.
 */
import type { AppContext } from '../../context.js';
import type { DataPlane } from '../../jobs/executors/plane.js';
import { documentFiles } from '../../storage/document-files.js';

export interface OrganisationDeletion {
  tenants: number;
  /** Backed-up versions and archived items removed. */
  items: number;
  /** Blobs deleted from the stores. */
  blobs: number;
  /** Documents whose files were removed (sealed under the destroyed key, or kept in the clear before encryption). */
  documents: number;
}

export async function deleteOrganisation(
  ctx: AppContext,
  plane: Pick<DataPlane, 'storeAt'>,
  organisationId: string,
): Promise<OrganisationDeletion> {
  const [organisation] = await ctx.db.query<{ id: string; name: string }>(
    'select id, name from organisations where id = $1',
    [organisationId],
  );
  if (!organisation) throw new Error(`No organisation ${organisationId}.`);
  const clients = await ctx.db.query('select 1 from organisations where partner_id = $1', [organisationId]);
  if (clients.length > 0) throw new Error('The organisation is a partner with clients: delete or move them first.');
  const tenantIds = (
    await ctx.db.query<{ tenant_id: string }>('select tenant_id from tenants where organisation_id = $1', [
      organisationId,
    ])
  ).map((r) => r.tenant_id);

  // What the organisation's rows refer to, and where, read while the locations still exist.
  const referenced = await ctx.db.query<{ location_id: string | null; hash: string }>(
    `select distinct location_id, blob_hash as hash from archive_items where tenant_id = any($1::text[])
     union
     select distinct j.location_id, b.hash from backup_items b join jobs j on j.job_id = b.job_id
      where j.tenant_id = any($1::text[]) and b.hash is not null`,
    [tenantIds],
  );
  const stores = new Map<string | null, Awaited<ReturnType<DataPlane['storeAt']>>>();
  for (const { location_id } of referenced) {
    if (!stores.has(location_id)) stores.set(location_id, await plane.storeAt(location_id));
  }

  const documents = await ctx.db.query<{ document_id: string }>(
    'select document_id from documents where organisation_id = $1',
    [organisationId],
  );

  // Shredded first, on its own: whatever fails after, the data is unreadable from here on.
  await ctx.db.query('delete from organisation_keys where organisation_id = $1', [organisationId]);

  const items = await ctx.db.transaction(async (tx) => {
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
    await ctx.audit(
      {
        actorEmail: 'operator (organisation:delete)',
        organisationId,
        action: 'organisation.delete',
        target: organisationId,
        outcome: 'success',
        details: { name: organisation.name, tenants: tenantIds.length },
      },
      tx,
    );
    return Number(archived?.n ?? 0) + Number(versions?.n ?? 0);
  });

  // The blobs no remaining row refers to (an organisation's own names are keyed by its key, so
  // only blobs stored in the clear before encryption can be shared with another organisation).
  let blobs = 0;
  const hashes = [...new Set(referenced.map((r) => r.hash))];
  const stillUsed = new Set(
    hashes.length === 0
      ? []
      : (
          await ctx.db.query<{ hash: string }>(
            `select blob_hash as hash from archive_items where blob_hash = any($1::text[])
             union select hash from backup_items where hash = any($1::text[])`,
            [hashes],
          )
        ).map((r) => r.hash),
  );
  for (const { location_id, hash } of referenced) {
    if (stillUsed.has(hash)) continue;
    await stores.get(location_id)?.delete(hash);
    blobs += 1;
  }
  // Its documents' rows went with the organisation; their files go now.
  const files = documentFiles(ctx.config.dataDir);
  for (const { document_id } of documents) await files.remove(document_id);
  return { tenants: tenantIds.length, items, blobs, documents: documents.length };
}
