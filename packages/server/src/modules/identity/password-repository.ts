/**
 * The SQL of the lockout: an account's failed attempts (`users`), and those of addresses that are no
 * account's (`sign_in_failures`, keyed by an HMAC of the address).
 */
import type { Queryable } from '../../db/database.js';

/** Counts a failed attempt of the account in the database (parallel attempts each see their own count). */
export async function countFailedAttempt(db: Queryable, userId: string): Promise<number | undefined> {
  const [row] = await db.query<{ failed_attempts: number }>(
    'update users set failed_attempts = failed_attempts + 1 where id = $1 returning failed_attempts',
    [userId],
  );
  return row?.failed_attempts;
}

/** Locks the account until `until`, its count starting again. */
export async function lockAccount(db: Queryable, userId: string, until: Date): Promise<void> {
  await db.query('update users set failed_attempts = 0, lockout_until = $2 where id = $1', [userId, until]);
}

/** Clears the account's failed attempts and lockout. */
export async function clearLockout(db: Queryable, userId: string): Promise<void> {
  await db.query('update users set failed_attempts = 0, lockout_until = null where id = $1', [userId]);
}

/** Whether the address is locked out now. */
export async function isAddressLockedOut(db: Queryable, addressHash: string, now: Date): Promise<boolean> {
  const rows = await db.query('select 1 from sign_in_failures where address_hash = $1 and lockout_until > $2', [
    addressHash,
    now,
  ]);
  return rows.length === 1;
}

/** Forgets the counts idle since before `before`. */
export async function forgetAddressFailures(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from sign_in_failures where updated_at < $1', [before]);
}

/** Counts a failure of the address in one statement (parallel tries cannot each see the same count); the count. */
export async function countAddressFailure(db: Queryable, addressHash: string, now: Date): Promise<number> {
  const [row] = await db.query<{ failed_attempts: number }>(
    `insert into sign_in_failures (address_hash, failed_attempts, updated_at) values ($1, 1, $2)
     on conflict (address_hash) do update set failed_attempts = sign_in_failures.failed_attempts + 1, updated_at = $2
     returning failed_attempts`,
    [addressHash, now],
  );
  return row?.failed_attempts ?? 0;
}

/** Locks the address until `until`, its count starting again. */
export async function lockAddress(db: Queryable, addressHash: string, until: Date): Promise<void> {
  await db.query('update sign_in_failures set failed_attempts = 0, lockout_until = $2 where address_hash = $1', [
    addressHash,
    until,
  ]);
}
