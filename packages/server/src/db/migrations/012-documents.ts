import type { Migration } from '../migrations.js';

/** An organisation's documents (contracts, reports, others): PDFs kept in the data directory. */
export const migration: Migration = {
  id: 12,
  name: 'documents',
  sql: `
create table documents (
  document_id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  document_type text not null check (document_type in ('contracts', 'reports', 'others')),
  file_name text not null,
  size integer not null,
  uploaded_at timestamptz not null,
  uploaded_by text
);
create unique index documents_name on documents(organisation_id, document_type, lower(file_name));
`,
};
