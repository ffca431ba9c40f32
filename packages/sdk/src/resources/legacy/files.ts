/** Legacy files: an organisation's reports and documents (contracts, reports, others). */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

/** The largest document that may be uploaded: a PDF of 3 MB. */
export const MAX_UPLOAD_BYTES = 3 * 1024 * 1024;

/** The kinds of document an organisation keeps, each a tab of the documents page. */
export const DOCUMENT_TYPES = ['contracts', 'reports', 'others'] as const;
/** Schema of a document's type, the `{documentType}` of a download path. */
export const DocumentType = s.oneOfStrings(DOCUMENT_TYPES);
/** The kind of an organisation's document: `contracts`, `reports` or `others`. */
export type DocumentType = s.Static<typeof DocumentType>;

/**
 * Schema of one file in the answers of `GET /files/{abbr}/report` and `GET /files/{abbr}/document`, and
 * of an upload's answer.
 */
export const FileEntry = s.object({
  fileName: s.string(),
  documentType: DocumentType,
  sizeBytes: s.integer({ minimum: 0 }),
  contentType: s.string(),
  uploaded: s.dateTime(),
  uploadedBy: s.nullable(s.string()),
});
/**
 * A stored report or document of an organisation: its name, type, size in bytes, media type, when it
 * was uploaded and by whom (null when not known).
 */
export type FileEntry = s.Static<typeof FileEntry>;

/** Schema of the body of `POST /files/delete-file`. */
export const DeleteFileRequest = s.object({
  abbr: s.string({ minLength: 1 }),
  documentType: DocumentType,
  fileName: s.string({ minLength: 1, maxLength: 255 }),
});
/**
 * The document to delete: the organisation's short name (`abbr`), the document type and the file name.
 */
export type DeleteFileRequest = s.Static<typeof DeleteFileRequest>;

/** The multipart form fields of an upload; the file must be a PDF of at most 3 MB. */
export const UploadFileForm = s.object({
  file: s.binary('A PDF of at most 3 MB.'),
  abbr: s.string({ minLength: 1 }),
  documentType: DocumentType,
});
export type UploadFileForm = s.Static<typeof UploadFileForm>;

/**
 * The catalogue entries of legacy files: report and document lists, delete, download and upload, under
 * `/files/`. {@link filesApi} binds them. An organisation is named by its short name among those the
 * caller acts for, the caller's own first; an operator who acts for several with that name, none its
 * own, is refused with 409 `shortNameAmbiguous`.
 */
export const filesEndpoints = defineResource('legacy', 'files', {
  reports: {
    method: 'GET',
    path: '/files/{abbr}/report',
    scope: 'caller',
    summary: "An organisation's report files",
    response: s.array(FileEntry),
    refusals: { 409: 'Several organisations the caller acts for have this short name (code shortNameAmbiguous).' },
  },
  documents: {
    method: 'GET',
    path: '/files/{abbr}/document',
    scope: 'caller',
    summary: "An organisation's documents",
    response: s.array(FileEntry),
    refusals: { 409: 'Several organisations the caller acts for have this short name (code shortNameAmbiguous).' },
  },
  delete: {
    method: 'POST',
    path: '/files/delete-file',
    scope: 'caller',
    summary: 'Delete a document',
    body: DeleteFileRequest,
    refusals: { 409: 'Several organisations the caller acts for have this short name (code shortNameAmbiguous).' },
  },
  download: {
    method: 'GET',
    path: '/files/download/{fileName}/{abbr}/{documentType}',
    scope: 'caller',
    summary: 'Download a file',
    params: s.object({ fileName: s.string(), abbr: s.string(), documentType: DocumentType }),
    responseKind: 'blob',
    contentTypes: ['application/pdf'],
    refusals: { 409: 'Several organisations the caller acts for have this short name (code shortNameAmbiguous).' },
  },
  upload: {
    method: 'POST',
    path: '/files/upload-file',
    scope: 'caller',
    summary: 'Upload a PDF document (at most 3 MB)',
    body: UploadFileForm,
    bodyType: 'multipart',
    response: FileEntry,
    successStatus: 201,
    refusals: { 409: 'Several organisations the caller acts for have this short name (code shortNameAmbiguous).' },
  },
});

/**
 * Binds legacy files to a transport: an organisation's reports and documents (by its short name,
 * `abbr`), their download as PDF, deletion, and the upload of a PDF of at most 3 MB ({@link
 * MAX_UPLOAD_BYTES}). The same methods as `client.legacy.files`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function filesApi(transport: Transport) {
  return bindResource(transport, filesEndpoints);
}
