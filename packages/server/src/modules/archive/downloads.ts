/**
 * Archived mail as files: one message as its original MIME (.eml), several or a whole mailbox as a
 * ZIP of .eml files in their folders.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { StoreAt } from '../../archive-data/archive.js';
import { mailFileName } from '../../archive-data/mime.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { createZip } from '../../jobs/zip.js';
import { archivedMails } from './repository.js';

export interface MailDownload {
  fileName: string;
  contentType: string;
  size: number;
  stream: Readable;
}

export async function downloadMail(
  ctx: AppContext,
  storeAt: StoreAt,
  tenantId: string,
  request: { mailboxId: string; messageIds?: string[] | undefined; format?: 'eml' | 'zip' | undefined },
): Promise<MailDownload> {
  const ids = request.messageIds?.filter((id) => /^\d+$/.test(id));
  const rows = await archivedMails(ctx.db, tenantId, request.mailboxId, request.messageIds ? (ids ?? []) : null);
  if (rows.length === 0) throw notFound('No archived mail was found.');
  const [first] = rows;
  if (first && rows.length === 1 && request.format !== 'zip') {
    const bytes = Buffer.from(await (await storeAt(first.location_id)).get(first.blob_hash));
    return {
      fileName: mailFileName(first.subject, first.id),
      contentType: 'message/rfc822',
      size: bytes.length,
      stream: Readable.from([bytes]),
    };
  }
  const dir = join(ctx.config.dataDir, 'downloads');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}.zip`);
  const zip = await createZip(path);
  try {
    for (const row of rows)
      await zip.add(
        `${row.container}/${mailFileName(row.subject, row.id)}`,
        await (await storeAt(row.location_id)).get(row.blob_hash),
      );
    await zip.close();
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  const stream = createReadStream(path);
  // The file is only the answer's: gone once sent (or the request given up).
  stream.on('close', () => void rm(path, { force: true }));
  const safeMailbox = request.mailboxId.replace(/[^\w.@-]+/g, '_').slice(0, 80);
  return {
    fileName: `archive-${safeMailbox}.zip`,
    contentType: 'application/zip',
    size: (await stat(path)).size,
    stream,
  };
}
