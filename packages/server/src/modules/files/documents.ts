/**
 * An organisation's documents: PDFs of at most 3 MB by type —
 * contracts, reports, others. The file is kept in the data directory under its own id, sealed under
 * the organisation's key (storage/document-files.ts); its name, type, size, uploader and time in the
 * database. `/files/{abbr}/document` lists every document, `/files/{abbr}/report` the reports. A file
 * is a PDF when its content starts with "%PDF-", whatever its name says; an upload with the name of
 * a document of the same type replaces it.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DOCUMENT_TYPES,
  type DocumentType,
  type FileEntry,
  isAllowedFileName,
  MAX_UPLOAD_BYTES,
} from '@compliance-portal/sdk';
import { canActFor } from '../../access/scope.js';
import type { AppContext } from '../../context.js';
import { badRequest, HttpError, notFound, refusal } from '../../errors.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { documentFiles } from '../../storage/document-files.js';
import type { User } from '../identity/users.js';
import {
  type DocumentRow,
  deleteDocumentRow,
  documentRows,
  findDocumentRow,
  organisationIdsByAbbr,
  replaceDocumentRow,
} from './repository.js';

export const NOT_A_PDF = 'The file must be a PDF of at most 3 MB.';

/** Is `bytes` a PDF of at most 3 MB? Checked on the content: "%PDF-" at its start. */
function isAcceptedPdf(bytes: Uint8Array): boolean {
  const magic = [0x25, 0x50, 0x44, 0x46, 0x2d];
  return bytes.length > 0 && bytes.length <= MAX_UPLOAD_BYTES && magic.every((b, i) => bytes[i] === b);
}

const NAME_NOT_ALLOWED =
  'The file name is not allowed: 1 to 255 characters, without / \\ : * ? " < > | .., control or direction characters, not a reserved device name such as CON, and not ending in a dot or space.';

/**
 * A name a file may be listed and downloaded under (the SDK's `isAllowedFileName`), or a 400: refused,
 * never cut down. The stored file itself is named by its id, so a name never reaches the file system.
 */
function safeFileName(name: string): string {
  if (!isAllowedFileName(name))
    throw new HttpError(400, NAME_NOT_ALLOWED, { errors: { fileName: [NAME_NOT_ALLOWED] } });
  return name;
}

/**
 * The organisation of this short name (case-insensitive) among those `user` may act for: the user's own
 * when it has the name, else the only one that has it; none is a 404 like a missing one. Short names
 * are unique among a partner's own organisation and its clients, so only an operator, who acts for
 * all, can meet several: refused with 409 `shortNameAmbiguous` rather than guessed.
 */
export async function organisationByAbbr(ctx: AppContext, user: User, abbr: string): Promise<string> {
  const named = await organisationIdsByAbbr(ctx.db, abbr);
  if (named.includes(user.organisationId)) return user.organisationId;
  const reachable: string[] = [];
  for (const id of named) if (await canActFor(ctx.db, user, id)) reachable.push(id);
  const [only, ...others] = reachable;
  if (!only) throw notFound('Organisation not found');
  if (others.length > 0) throw refusal(409, 'shortNameAmbiguous');
  return only;
}

const entry = (r: DocumentRow): FileEntry => ({
  fileName: r.file_name,
  documentType: r.document_type,
  sizeBytes: Number(r.size),
  contentType: 'application/pdf',
  uploaded: new Date(r.uploaded_at).toISOString(),
  uploadedBy: r.uploaded_by,
});

const files = (ctx: AppContext) => documentFiles(ctx.config.dataDir);

export async function listDocuments(ctx: AppContext, organisationId: string, type?: DocumentType) {
  return (await documentRows(ctx.db, organisationId, type)).map(entry);
}

async function findDocument(ctx: AppContext, organisationId: string, type: string, fileName: string) {
  if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) throw notFound('Document not found');
  const row = await findDocumentRow(ctx.db, organisationId, type as DocumentType, fileName);
  if (!row) throw notFound('Document not found');
  return row;
}

/**
 * A document's content as a stream, opened under its organisation's key (or as it is, when kept in
 * the clear before encryption). A file sealed for another organisation is refused before anything is sent.
 */
export async function readDocument(
  ctx: AppContext,
  organisationId: string,
  type: string,
  fileName: string,
): Promise<{ fileName: string; size: number; stream: Readable }> {
  const row = await findDocument(ctx, organisationId, type, fileName);
  const file = await files(ctx).open(dataPlaneOf(ctx).keys, row.document_id, organisationId);
  // Listed but gone from the data directory (removed by hand, a restored database): missing, not a crash.
  if (!file) throw notFound('Document not found');
  return { fileName: row.file_name, size: file.size, stream: file.stream };
}

export async function saveDocument(
  ctx: AppContext,
  organisationId: string,
  input: { type: DocumentType; fileName: string; bytes: Uint8Array; uploadedBy: string },
): Promise<FileEntry> {
  if (!isAcceptedPdf(input.bytes)) throw new HttpError(400, NOT_A_PDF, { errors: { file: [NOT_A_PDF] } });
  const fileName = safeFileName(input.fileName);
  const row: DocumentRow = {
    document_id: randomUUID(),
    organisation_id: organisationId,
    document_type: input.type,
    file_name: fileName,
    size: input.bytes.length,
    uploaded_at: ctx.now(),
    uploaded_by: input.uploadedBy,
  };
  // Sealed under the organisation's key before it is listed; a failed record takes its file away.
  await files(ctx).write(await dataPlaneOf(ctx).keys.ensure(organisationId), row.document_id, input.bytes);
  const replaced = await ctx.db
    .transaction((tx) => replaceDocumentRow(tx, row))
    .catch(async (error: unknown) => {
      await files(ctx).remove(row.document_id);
      throw error;
    });
  for (const id of replaced) await files(ctx).remove(id);
  return entry(row);
}

export async function deleteDocument(ctx: AppContext, organisationId: string, type: string, fileName: string) {
  const row = await findDocument(ctx, organisationId, type, fileName);
  await deleteDocumentRow(ctx.db, row.document_id);
  await files(ctx).remove(row.document_id);
  return row.file_name;
}

/** The fields of a multipart/form-data body: text fields, and files with their name. */
export function parseFormData(body: Buffer, contentType: string | undefined) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) throw badRequest('Invalid request', { body: ['Expected multipart/form-data.'] });
  const delimiter = Buffer.from(`--${mark}`);
  const fields = new Map<string, { value: Buffer; fileName?: string }>();
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // A part: CRLF, headers, CRLF CRLF, content, CRLF before the next delimiter.
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const headers = part.subarray(0, split).toString('utf8');
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
      const fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      if (name) fields.set(name, { value: part.subarray(split + 4), ...(fileName !== undefined ? { fileName } : {}) });
    }
    at = next;
  }
  return fields;
}
