import type { Migration } from '../migrations.js';

/**
 * Each organisation's data key, wrapped by PORTAL_SECRET_KEY (see storage/encryption.ts). No foreign
 * key: deleting the row is the crypto-shredding of the organisation's blobs, done before the
 * organisation itself goes.
 */
export const migration: Migration = {
  id: 21,
  name: 'organisation keys',
  sql: `
create table organisation_keys (
  organisation_id text primary key,
  wrapped_key text not null,
  created_at timestamptz not null
);
`,
};
