/** The SQL of the second factor: the authenticator's key and last code (`users`), and the recovery codes. */
import type { Queryable } from '../../db/database.js';

/**
 * Takes a TOTP time step if it is later than the last one used, clearing the failure count; false when
 * it is not (the conditional update makes two concurrent uses of one code succeed only once).
 */
export async function takeTotpStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const updated = await db.query(
    'update users set totp_last_step = $2, failed_attempts = 0, lockout_until = null where id = $1 and totp_last_step < $2 returning id',
    [userId, step],
  );
  return updated.length === 1;
}

/** Stores a new sealed authenticator key; 2FA is off until a code of it is confirmed. */
export async function storeAuthenticatorKey(tx: Queryable, userId: string, sealedKey: string): Promise<void> {
  await tx.query('update users set totp_secret = $2, totp_enabled = false, totp_last_step = 0 where id = $1', [
    userId,
    sealedKey,
  ]);
}

/** Turns 2FA off and forgets the key. */
export async function clearAuthenticator(tx: Queryable, userId: string): Promise<void> {
  await tx.query('update users set totp_enabled = false, totp_secret = null, totp_last_step = 0 where id = $1', [
    userId,
  ]);
}

export async function setTwoFactorEnabled(tx: Queryable, id: string, enabled: boolean): Promise<void> {
  await tx.query('update users set totp_enabled = $2 where id = $1', [id, enabled]);
}

/** Turns 2FA on unless it is on already: true when this call turned it on. */
export async function enableTwoFactorOnce(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query('update users set totp_enabled = true where id = $1 and not totp_enabled returning id', [
    id,
  ]);
  return rows.length === 1;
}

export async function isTwoFactorEnabled(db: Queryable, id: string): Promise<boolean> {
  const [row] = await db.query<{ totp_enabled: boolean }>('select totp_enabled from users where id = $1', [id]);
  return row?.totp_enabled ?? false;
}

/** Marks an unused recovery code of the user used; false when it is none of them. */
export async function spendRecoveryCode(tx: Queryable, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const used = await tx.query(
    'update recovery_codes set used_at = $3 where user_id = $1 and code_hash = $2 and used_at is null returning user_id',
    [userId, codeHash, now],
  );
  return used.length === 1;
}

export async function deleteRecoveryCodes(tx: Queryable, userId: string): Promise<void> {
  await tx.query('delete from recovery_codes where user_id = $1', [userId]);
}

export async function insertRecoveryCode(tx: Queryable, userId: string, codeHash: string): Promise<void> {
  await tx.query('insert into recovery_codes (user_id, code_hash) values ($1, $2)', [userId, codeHash]);
}

export async function countUnusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'select count(*)::int as n from recovery_codes where user_id = $1 and used_at is null',
    [userId],
  );
  return row?.n ?? 0;
}
