/**
 * Documents stored before encryption at rest lie in the clear in the data directory: this seals each
 * under its organisation's key where it lies (a temporary file renamed over it, so a document is at
 * every moment either whole in the clear or whole sealed, and served either way). Document by
 * document: a run that stops (or is stopped with `limit`) is finished by running it again. Files no
 * document refers to any more (an organisation deleted before its documents' files were removed with
 * it, a replaced document or an upload cut short by a stop) are removed once they are an hour old,
 * so that an upload under way is never taken for one. `verify` opens every document whole and says
 * how many are sealed, in the clear, or unreadable.
 */
import type { AppContext } from '../../context.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { documentFiles } from '../../storage/document-files.js';
import { allDocumentRows } from './repository.js';

/** A file no document refers to is removed only after this long: an upload writes its file before its row. */
const LEFTOVER_AGE_MS = 60 * 60_000;

export interface DocumentEncryptionReport {
  /** Documents sealed by this run. */
  encrypted: number;
  /** Documents that were sealed already. */
  already: number;
  /** Documents that could not be sealed or read, by id and reason (left as they are). */
  failed: { documentId: string; reason: string }[];
  /** Files no document refers to, removed. */
  leftovers: number;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The folder's files that no document refers to, with when they last changed. */
async function leftoverFiles(ctx: AppContext, ids: Set<string>) {
  return (await documentFiles(ctx.config.dataDir).list()).filter((file) => !ids.has(file.name));
}

export async function encryptStoredDocuments(
  ctx: AppContext,
  options: { limit?: number } = {},
): Promise<DocumentEncryptionReport> {
  const files = documentFiles(ctx.config.dataDir);
  const { keys } = dataPlaneOf(ctx);
  const report: DocumentEncryptionReport = { encrypted: 0, already: 0, failed: [], leftovers: 0 };
  const rows = await allDocumentRows(ctx.db);
  for (const row of rows) {
    if (options.limit !== undefined && report.encrypted >= options.limit) break;
    try {
      const state = await files.state(row.document_id);
      if (state === 'missing') throw new Error('Its file is missing from the data directory.');
      if (state === 'sealed') {
        // Sealed before: its header must name its own organisation, whose key must open it.
        const opened = await files.open(keys, row.document_id, row.organisation_id);
        opened?.stream.destroy();
        report.already += 1;
        continue;
      }
      await files.seal(await keys.ensure(row.organisation_id), row.document_id);
      report.encrypted += 1;
    } catch (error) {
      report.failed.push({ documentId: row.document_id, reason: reasonOf(error) });
    }
  }
  const cutoff = ctx.now().getTime() - LEFTOVER_AGE_MS;
  for (const file of await leftoverFiles(ctx, new Set(rows.map((r) => r.document_id)))) {
    if (file.modified.getTime() > cutoff) continue;
    await files.remove(file.name);
    report.leftovers += 1;
  }
  return report;
}

export interface DocumentVerificationReport {
  /** Documents opened whole under their organisation's key, of the size recorded. */
  encrypted: number;
  /** Documents read in the clear (kept before encryption): not yet sealed. */
  plain: number;
  failed: { documentId: string; reason: string }[];
  /** Files no document refers to. */
  leftovers: number;
}

export async function verifyStoredDocuments(ctx: AppContext): Promise<DocumentVerificationReport> {
  const files = documentFiles(ctx.config.dataDir);
  const { keys } = dataPlaneOf(ctx);
  const report: DocumentVerificationReport = { encrypted: 0, plain: 0, failed: [], leftovers: 0 };
  const rows = await allDocumentRows(ctx.db);
  for (const row of rows) {
    try {
      const opened = await files.open(keys, row.document_id, row.organisation_id);
      if (!opened) throw new Error('Its file is missing from the data directory.');
      let size = 0;
      for await (const chunk of opened.stream) size += (chunk as Buffer).length;
      if (size !== Number(row.size)) throw new Error(`It holds ${size} bytes, not the ${row.size} recorded.`);
      if (opened.sealed) report.encrypted += 1;
      else report.plain += 1;
    } catch (error) {
      report.failed.push({ documentId: row.document_id, reason: reasonOf(error) });
    }
  }
  report.leftovers = (await leftoverFiles(ctx, new Set(rows.map((r) => r.document_id)))).length;
  return report;
}
