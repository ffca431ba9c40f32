import type { Queryable } from '../../db/database.js';

/** An admin consent under way: who started it, for what, and until when its answer is awaited. */
export interface ConsentRow {
  state_hash: string;
  user_id: string;
  organisation_id: string;
  /** The connected tenant consented to again; null when the consent connects a new one. */
  tenant_id: string | null;
  /** The new tenant's name in the portal. */
  tenant_name: string | null;
  application_id: string;
  /** The new tenant's client secret, sealed, kept only until the answer comes. */
  client_secret_sealed: string | null;
  directory: string | null;
  created_at: Date;
  expires_at: Date;
}

export async function insertConsent(db: Queryable, row: ConsentRow): Promise<void> {
  await db.query(
    `insert into tenant_consents (state_hash, user_id, organisation_id, tenant_id, tenant_name, application_id,
       client_secret_sealed, directory, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.state_hash,
      row.user_id,
      row.organisation_id,
      row.tenant_id,
      row.tenant_name,
      row.application_id,
      row.client_secret_sealed,
      row.directory,
      row.created_at,
      row.expires_at,
    ],
  );
}

/**
 * Takes the user's consent with this state: removed as it is read, so an answer is used once (a
 * replayed one finds nothing) and its sealed secret is kept no longer. Another user's state is not
 * taken: it stays for its owner.
 */
export async function takeConsent(db: Queryable, stateHash: string, userId: string): Promise<ConsentRow | undefined> {
  const [row] = await db.query<ConsentRow>(
    'delete from tenant_consents where state_hash = $1 and user_id = $2 returning *',
    [stateHash, userId],
  );
  return row;
}

/** Removes the consents whose answer is no longer awaited. */
export async function purgeConsents(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from tenant_consents where expires_at < $1', [before]);
}
