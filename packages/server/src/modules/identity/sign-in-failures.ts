/**
 * Failed sign-ins of addresses that are no account's, counted under the accounts' lockout rule, so
 * that five wrong tries do not tell a real account (locked out) from an unknown address. Kept in the
 * database, so that every API process counts the same tries; an address is stored only as an HMAC of
 * its normalised form under a key derived from PORTAL_SECRET_KEY, so the table names no address.
 */
import { createHmac } from 'node:crypto';
import type { Queryable } from '../../db/database.js';
import { normaliseEmail } from './users.js';

/** A count idle this long is forgotten, so the table does not keep every address ever tried. */
const FORGET_AFTER_MS = 30 * 24 * 3600_000;

/** The key of an address in `sign_in_failures`. */
export function addressKey(secretKey: Buffer, email: string): string {
  const key = createHmac('sha256', secretKey).update('portal sign-in failures v1').digest();
  return createHmac('sha256', key).update(normaliseEmail(email)).digest('hex');
}

/** Whether the address is locked out now. */
export async function isAddressLockedOut(db: Queryable, addressHash: string, now: Date): Promise<boolean> {
  const rows = await db.query('select 1 from sign_in_failures where address_hash = $1 and lockout_until > $2', [
    addressHash,
    now,
  ]);
  return rows.length === 1;
}

/**
 * Counts a failure of the address (in one statement, so parallel tries cannot each see the same
 * count); the `max`-th locks it for `lockoutMs`, as an account's does, and answers true.
 */
export async function recordAddressFailure(
  db: Queryable,
  addressHash: string,
  now: Date,
  rule: { max: number; lockoutMs: number },
): Promise<boolean> {
  await db.query('delete from sign_in_failures where updated_at < $1', [new Date(now.getTime() - FORGET_AFTER_MS)]);
  const [row] = await db.query<{ failed_attempts: number }>(
    `insert into sign_in_failures (address_hash, failed_attempts, updated_at) values ($1, 1, $2)
     on conflict (address_hash) do update set failed_attempts = sign_in_failures.failed_attempts + 1, updated_at = $2
     returning failed_attempts`,
    [addressHash, now],
  );
  if ((row?.failed_attempts ?? 0) < rule.max) return false;
  await db.query('update sign_in_failures set failed_attempts = 0, lockout_until = $2 where address_hash = $1', [
    addressHash,
    new Date(now.getTime() + rule.lockoutMs),
  ]);
  return true;
}
