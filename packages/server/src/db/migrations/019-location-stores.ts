import type { Migration } from '../migrations.js';

/**
 * Storage locations in object stores: a location's credentials (an S3 access key ID; the account key
 * or secret access key sealed with PORTAL_SECRET_KEY), and the location each archived item's blob was
 * written to (null: the server's own store, where every item archived before this lived).
 */
export const migration: Migration = {
  id: 19,
  name: 'location stores',
  sql: `
alter table locations add column access_key_id text;
alter table locations add column secret_sealed text;
alter table archive_items add column location_id text;
create index archive_items_location on archive_items(location_id) where location_id is not null;
`,
};
