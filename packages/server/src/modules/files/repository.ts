/** The `documents` table: an organisation's documents by type and name (their files in storage/document-files.ts). */
import type { DocumentType } from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';

export interface DocumentRow {
  document_id: string;
  organisation_id: string;
  document_type: DocumentType;
  file_name: string;
  size: number;
  uploaded_at: Date;
  uploaded_by: string | null;
}

/** The organisations of a short name, compared without case (unique only within a partner's organisations). */
export async function organisationIdsByAbbr(db: Queryable, abbr: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from organisations where lower(abbr) = lower($1)', [abbr]);
  return rows.map((r) => r.id);
}

export function documentRows(db: Queryable, organisationId: string, type?: DocumentType): Promise<DocumentRow[]> {
  return db.query<DocumentRow>(
    `select * from documents where organisation_id = $1 and ($2::text is null or document_type = $2)
      order by document_type, lower(file_name)`,
    [organisationId, type ?? null],
  );
}

export async function findDocumentRow(
  db: Queryable,
  organisationId: string,
  type: DocumentType,
  fileName: string,
): Promise<DocumentRow | undefined> {
  const [row] = await db.query<DocumentRow>(
    'select * from documents where organisation_id = $1 and document_type = $2 and lower(file_name) = lower($3)',
    [organisationId, type, fileName],
  );
  return row;
}

/**
 * Records a document in place of the one of the same type and name; answers the ids it replaced. Run in
 * a transaction: uploads of one name and type take turns (a transaction-scoped advisory lock), each
 * finding the one before it to replace, rather than both finding none and the second meeting the
 * unique index.
 */
export async function replaceDocumentRow(db: Queryable, row: DocumentRow): Promise<string[]> {
  await db.query(`select pg_advisory_xact_lock(72364, hashtext($1 || '/' || $2 || '/' || lower($3)))`, [
    row.organisation_id,
    row.document_type,
    row.file_name,
  ]);
  const old = await db.query<{ document_id: string }>(
    `delete from documents where organisation_id = $1 and document_type = $2 and lower(file_name) = lower($3)
     returning document_id`,
    [row.organisation_id, row.document_type, row.file_name],
  );
  await db.query(
    `insert into documents (document_id, organisation_id, document_type, file_name, size, uploaded_at, uploaded_by)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.document_id,
      row.organisation_id,
      row.document_type,
      row.file_name,
      row.size,
      row.uploaded_at,
      row.uploaded_by,
    ],
  );
  return old.map((r) => r.document_id);
}

export async function deleteDocumentRow(db: Queryable, documentId: string): Promise<void> {
  await db.query('delete from documents where document_id = $1', [documentId]);
}

/** Every document of every organisation, by id: what `documents:encrypt` goes through. */
export function allDocumentRows(
  db: Queryable,
): Promise<Pick<DocumentRow, 'document_id' | 'organisation_id' | 'size'>[]> {
  return db.query('select document_id, organisation_id, size from documents order by document_id');
}
