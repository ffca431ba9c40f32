/**
 * The second factor: an authenticator's TOTP codes (each time step accepted once) and single-use
 * recovery codes. Wrong codes count toward the password's lockout; a right one clears the count.
 */
import type { AppContext } from '../../context.js';
import { base32Decode } from '../../crypto/base32.js';
import { hashRecoveryCode, newRecoveryCodes } from '../../crypto/recovery-codes.js';
import { newSharedKey, otpauthUri, verifyTotp } from '../../crypto/totp.js';
import type { Queryable } from '../../db/database.js';
import { isLockedOut, recordFailure } from './password.js';
import { clearLockout } from './password-repository.js';
import {
  clearAuthenticator,
  deleteRecoveryCodes,
  insertRecoveryCode,
  spendRecoveryCode,
  storeAuthenticatorKey,
  takeTotpStep,
} from './second-factor-repository.js';
import type { User } from './users.js';

/** The user's authenticator key, opened; null before one is set up. */
export function authenticatorKey(ctx: AppContext, user: User): string | null {
  return user.totpSecret ? ctx.secrets.open(user.totpSecret) : null;
}

/**
 * Checks a TOTP code against the user's key; a code (its time step) is accepted once. Failures count
 * toward the lockout. Returns false for a wrong, replayed or locked-out attempt.
 */
export async function checkTotp(ctx: AppContext, user: User, code: string): Promise<boolean> {
  if (isLockedOut(user, ctx.now())) return false;
  const key = authenticatorKey(ctx, user);
  const step = key ? verifyTotp(base32Decode(key), code.trim(), ctx.now().getTime(), user.totpLastStep) : null;
  if (step === null) {
    await recordFailure(ctx, user);
    return false;
  }
  return takeTotpStep(ctx.db, user.id, step);
}

/** Uses a recovery code once; false when it is not one of the user's unused codes or the account is locked. */
export async function useRecoveryCode(ctx: AppContext, tx: Queryable, user: User, code: string): Promise<boolean> {
  if (isLockedOut(user, ctx.now())) return false;
  if (await spendRecoveryCode(tx, user.id, hashRecoveryCode(code), ctx.now())) {
    // A second factor: it clears the failure count, as a right TOTP code does.
    await clearLockout(tx, user.id);
    return true;
  }
  await recordFailure(ctx, user, tx);
  return false;
}

export async function replaceRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await deleteRecoveryCodes(tx, userId);
  for (const code of codes) await insertRecoveryCode(tx, userId, hashRecoveryCode(code));
  return codes;
}

/** A new authenticator key, stored sealed; 2FA stays off until a code from it is confirmed. */
export async function resetAuthenticatorKey(ctx: AppContext, tx: Queryable, user: User): Promise<string> {
  const key = newSharedKey();
  await storeAuthenticatorKey(tx, user.id, ctx.secrets.seal(key));
  return key;
}

export function authenticatorUri(ctx: AppContext, user: User, key: string): string {
  return otpauthUri(ctx.config.issuer, user.email, key);
}

/** Turns 2FA off and forgets the key and codes: the user sets it up again at the next sign-in. */
export async function resetTwoFactor(tx: Queryable, userId: string) {
  await clearAuthenticator(tx, userId);
  await deleteRecoveryCodes(tx, userId);
}
