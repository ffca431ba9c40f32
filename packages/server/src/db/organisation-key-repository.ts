/**
 * The SQL of `organisation_keys`: each organisation's data key, wrapped (sealed) by the server's key.
 * Deriving, caching and using the keys is storage/encryption.ts.
 */
import type { Queryable } from './database.js';

/** The organisation's wrapped data key; undefined when it has none (yet, or any more). */
export async function wrappedKeyOf(db: Queryable, organisationId: string): Promise<string | undefined> {
  const [row] = await db.query<{ wrapped_key: string }>(
    'select wrapped_key from organisation_keys where organisation_id = $1',
    [organisationId],
  );
  return row?.wrapped_key;
}

/** Stores the organisation's wrapped data key unless it has one: the first of two at once wins. */
export async function insertWrappedKey(
  db: Queryable,
  organisationId: string,
  wrappedKey: string,
  createdAt: Date,
): Promise<void> {
  await db.query(
    `insert into organisation_keys (organisation_id, wrapped_key, created_at) values ($1, $2, $3)
     on conflict (organisation_id) do nothing`,
    [organisationId, wrappedKey, createdAt],
  );
}
