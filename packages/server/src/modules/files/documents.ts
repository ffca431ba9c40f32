/**
 * An organisation's documents: PDFs of at most 3 MB by type —
 * contracts, reports, others. The file is kept in the data directory under its own id; its name,
 * type, size, uploader and time in the database. `/files/{abbr}/document` lists every document,
 * `/files/{abbr}/report` the reports. A file is a PDF when its content starts with "%PDF-", whatever
 * its name says; an upload with the name of a document of the same type replaces it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DocumentType, type FileEntry, isAllowedFileName, MAX_UPLOAD_BYTES } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { badRequest, HttpError, notFound, refusal } from '../../http/errors.js';
import type { User } from '../identity/users.js';
import { canActFor } from '../organisations/access.js';

export const NOT_A_PDF = 'The file must be a PDF of at most 3 MB.';
const TYPES: readonly DocumentType[] = ['contracts', 'reports', 'others'];

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
  const named = await ctx.db.query<{ id: string }>('select id from organisations where lower(abbr) = lower($1)', [
    abbr,
  ]);
  if (named.some((org) => org.id === user.organisationId)) return user.organisationId;
  const reachable: string[] = [];
  for (const org of named) if (await canActFor(ctx.db, user, org.id)) reachable.push(org.id);
  const [only, ...others] = reachable;
  if (!only) throw notFound('Organisation not found');
  if (others.length > 0) throw refusal(409, 'shortNameAmbiguous');
  return only;
}

interface Row {
  document_id: string;
  document_type: DocumentType;
  file_name: string;
  size: number;
  uploaded_at: Date;
  uploaded_by: string | null;
}

const entry = (r: Row): FileEntry => ({
  fileName: r.file_name,
  documentType: r.document_type,
  sizeBytes: Number(r.size),
  contentType: 'application/pdf',
  uploaded: new Date(r.uploaded_at).toISOString(),
  uploadedBy: r.uploaded_by,
});

const dir = (ctx: AppContext) => join(ctx.config.dataDir, 'documents');

export async function listDocuments(ctx: AppContext, organisationId: string, type?: DocumentType) {
  const rows = await ctx.db.query<Row>(
    `select * from documents where organisation_id = $1 and ($2::text is null or document_type = $2)
      order by document_type, lower(file_name)`,
    [organisationId, type ?? null],
  );
  return rows.map(entry);
}

async function findDocument(ctx: AppContext, organisationId: string, type: string, fileName: string) {
  if (!TYPES.includes(type as DocumentType)) throw notFound('Document not found');
  const [row] = await ctx.db.query<Row>(
    'select * from documents where organisation_id = $1 and document_type = $2 and lower(file_name) = lower($3)',
    [organisationId, type, fileName],
  );
  if (!row) throw notFound('Document not found');
  return row;
}

export async function readDocument(ctx: AppContext, organisationId: string, type: string, fileName: string) {
  const row = await findDocument(ctx, organisationId, type, fileName);
  try {
    return { fileName: row.file_name, bytes: await readFile(join(dir(ctx), row.document_id)) };
  } catch (error) {
    // Listed but gone from the data directory (removed by hand, a restored database): missing, not a crash.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('Document not found');
    throw error;
  }
}

export async function saveDocument(
  ctx: AppContext,
  organisationId: string,
  input: { type: DocumentType; fileName: string; bytes: Uint8Array; uploadedBy: string },
): Promise<FileEntry> {
  if (!isAcceptedPdf(input.bytes)) throw new HttpError(400, NOT_A_PDF, { errors: { file: [NOT_A_PDF] } });
  const fileName = safeFileName(input.fileName);
  await mkdir(dir(ctx), { recursive: true });
  const id = randomUUID();
  await writeFile(join(dir(ctx), id), input.bytes);
  const replaced = await ctx.db
    .transaction(async (tx) => {
      // Uploads of one name and type take turns: each finds the one before it to replace, rather than
      // both finding none and the second meeting the unique index.
      await tx.query(`select pg_advisory_xact_lock(72364, hashtext($1 || '/' || $2 || '/' || lower($3)))`, [
        organisationId,
        input.type,
        fileName,
      ]);
      const old = await tx.query<{ document_id: string }>(
        `delete from documents where organisation_id = $1 and document_type = $2 and lower(file_name) = lower($3)
       returning document_id`,
        [organisationId, input.type, fileName],
      );
      await tx.query(
        `insert into documents (document_id, organisation_id, document_type, file_name, size, uploaded_at, uploaded_by)
       values ($1, $2, $3, $4, $5, $6, $7)`,
        [id, organisationId, input.type, fileName, input.bytes.length, ctx.now(), input.uploadedBy],
      );
      return old;
    })
    .catch(async (error: unknown) => {
      await rm(join(dir(ctx), id), { force: true });
      throw error;
    });
  for (const r of replaced) await rm(join(dir(ctx), r.document_id), { force: true });
  return entry({
    document_id: id,
    document_type: input.type,
    file_name: fileName,
    size: input.bytes.length,
    uploaded_at: ctx.now(),
    uploaded_by: input.uploadedBy,
  });
}

export async function deleteDocument(ctx: AppContext, organisationId: string, type: string, fileName: string) {
  const row = await findDocument(ctx, organisationId, type, fileName);
  await ctx.db.query('delete from documents where document_id = $1', [row.document_id]);
  await rm(join(dir(ctx), row.document_id), { force: true });
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
