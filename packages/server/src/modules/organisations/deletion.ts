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
import {
  blobsReferencedBy,
  blobsStillUsed,
  deleteOrganisationRows,
  destroyDataKey,
  documentIdsOf,
  findOrganisationToDelete,
  hasClients,
  tenantIdsOf,
} from './deletion-repository.js';

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
  const organisation = await findOrganisationToDelete(ctx.db, organisationId);
  if (!organisation) throw new Error(`No organisation ${organisationId}.`);
  if (await hasClients(ctx.db, organisationId)) {
    throw new Error('The organisation is a partner with clients: delete or move them first.');
  }
  const tenantIds = await tenantIdsOf(ctx.db, organisationId);

  // What the organisation's rows refer to, and where, read while the locations still exist.
  const referenced = await blobsReferencedBy(ctx.db, tenantIds);
  const stores = new Map<string | null, Awaited<ReturnType<DataPlane['storeAt']>>>();
  for (const { locationId } of referenced) {
    if (!stores.has(locationId)) stores.set(locationId, await plane.storeAt(locationId));
  }

  const documents = await documentIdsOf(ctx.db, organisationId);

  // Shredded first, on its own: whatever fails after, the data is unreadable from here on.
  await destroyDataKey(ctx.db, organisationId);

  const items = await ctx.db.transaction(async (tx) => {
    const removed = await deleteOrganisationRows(tx, organisationId, tenantIds);
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
    return removed;
  });

  // The blobs no remaining row refers to (an organisation's own names are keyed by its key, so
  // only blobs stored in the clear before encryption can be shared with another organisation).
  let blobs = 0;
  const stillUsed = await blobsStillUsed(ctx.db, [...new Set(referenced.map((r) => r.hash))]);
  for (const { locationId, hash } of referenced) {
    if (stillUsed.has(hash)) continue;
    await stores.get(locationId)?.delete(hash);
    blobs += 1;
  }
  // Its documents' rows went with the organisation; their files go now.
  const files = documentFiles(ctx.config.dataDir);
  for (const documentId of documents) await files.remove(documentId);
  return { tenants: tenantIds.length, items, blobs, documents: documents.length };
}
