import type { Queryable } from '../../db/database.js';

/**
 * Holds, until the end of the transaction `tx`, the lock that lets one support request at a time be
 * counted and numbered.
 */
export async function lockSupportRequests(tx: Queryable): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(72363)');
}

/** How many requests the user made after `since`. */
export async function countRequestsSince(db: Queryable, userId: string, since: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'select count(*)::int as n from support_requests where user_id = $1 and created_at > $2',
    [userId, since],
  );
  return Number(row?.n ?? 0);
}

/**
 * The highest number among the references that start with `prefix` (`SR-20261102-`, a day's), 0 when
 * there is none. The next request takes the number after it: counting the day's requests instead would
 * give again a number whose request was deleted since (with its organisation) while later ones remain.
 */
export async function highestReferenceNumber(db: Queryable, prefix: string): Promise<number> {
  const [row] = await db.query<{ n: number | null }>(
    `select max(substr(reference, length($1) + 1)::int) as n from support_requests
      where reference like $2 and substr(reference, length($1) + 1) ~ '^[0-9]+$'`,
    [prefix, `${prefix}%`],
  );
  return Number(row?.n ?? 0);
}

export interface SupportRequestRecord {
  requestId: string;
  reference: string;
  userId: string;
  organisationId: string;
  area: string;
  subject: string;
  message: string;
  phone: string | null;
  createdAt: Date;
}

export async function insertSupportRequest(db: Queryable, r: SupportRequestRecord): Promise<void> {
  await db.query(
    `insert into support_requests (request_id, reference, user_id, organisation_id, area, subject, message, phone, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [r.requestId, r.reference, r.userId, r.organisationId, r.area, r.subject, r.message, r.phone, r.createdAt],
  );
}
