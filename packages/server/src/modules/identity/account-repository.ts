/** The SQL of the account's own records: the registration lock. */
import type { Queryable } from '../../db/database.js';

/** Serialises `first`-mode registrations, so that two sign-ups of an empty portal do not both pass. */
const FIRST_ORGANISATION_LOCK = 72365;

/** Takes the registrations' lock to the end of the transaction. */
export async function lockRegistrations(tx: Queryable): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1)', [FIRST_ORGANISATION_LOCK]);
}
