import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { base32Decode } from '../../crypto/base32.js';
import {
  dummyPasswordHash,
  hashPassword,
  passwordProblems,
  passwordRuleMessages,
  verifyPassword,
} from '../../crypto/passwords.js';
import { hashRecoveryCode, newRecoveryCodes } from '../../crypto/recovery-codes.js';
import { newToken, sha256 } from '../../crypto/tokens.js';
import { newSharedKey, otpauthUri, verifyTotp } from '../../crypto/totp.js';
import type { Queryable } from '../../db/database.js';
import { validationProblem } from '../../http/errors.js';
import { revokeAllForUser } from './sessions.js';
import { findUserByEmail, findUserById, type User } from './users.js';

/** Identity contract: 5 failed attempts lock the account for 5 minutes. */
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MS = 5 * 60_000;
/** Reset and confirmation codes live one day. */
export const ONE_TIME_CODE_MS = 24 * 3600_000;

export type PasswordCheck =
  | { outcome: 'success'; user: User }
  | { outcome: 'failed' }
  | { outcome: 'lockedOut'; user: User }
  | { outcome: 'notAllowed'; user: User };

export function isLockedOut(user: User, now: Date): boolean {
  return user.lockoutUntil !== null && user.lockoutUntil.getTime() > now.getTime();
}

/** Counts a failure; the fifth locks the account and already answers "locked out". */
export async function recordFailure(
  ctx: AppContext,
  user: User,
  db: Queryable = ctx.db,
): Promise<'failed' | 'lockedOut'> {
  // Counted in the database, so parallel attempts cannot each see the same count.
  const [row] = await db.query<{ failed_attempts: number }>(
    'update users set failed_attempts = failed_attempts + 1 where id = $1 returning failed_attempts',
    [user.id],
  );
  const attempts = row?.failed_attempts ?? user.failedAttempts + 1;
  if (attempts >= MAX_FAILED_ATTEMPTS) {
    await db.query('update users set failed_attempts = 0, lockout_until = $2 where id = $1', [
      user.id,
      new Date(ctx.now().getTime() + LOCKOUT_MS),
    ]);
    return 'lockedOut';
  }
  return 'failed';
}

async function recordSuccess(ctx: AppContext, user: User) {
  if (user.failedAttempts !== 0 || user.lockoutUntil) {
    await ctx.db.query('update users set failed_attempts = 0, lockout_until = null where id = $1', [user.id]);
  }
}

/** Checks an email and password with lockout; an unknown email costs the same time as a wrong password. */
export async function checkPassword(ctx: AppContext, email: string, password: string): Promise<PasswordCheck> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) {
    await verifyPassword(await dummyPasswordHash(), password);
    return { outcome: 'failed' };
  }
  if (isLockedOut(user, ctx.now())) return { outcome: 'lockedOut', user };
  if (!(await verifyPassword(user.passwordHash, password))) {
    return (await recordFailure(ctx, user)) === 'lockedOut' ? { outcome: 'lockedOut', user } : { outcome: 'failed' };
  }
  await recordSuccess(ctx, user);
  if (!user.emailConfirmed) return { outcome: 'notAllowed', user };
  return { outcome: 'success', user };
}

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
  // The conditional update makes two concurrent uses of one code succeed only once.
  const updated = await ctx.db.query(
    'update users set totp_last_step = $2, failed_attempts = 0, lockout_until = null where id = $1 and totp_last_step < $2 returning id',
    [user.id, step],
  );
  return updated.length === 1;
}

/** Uses a recovery code once; false when it is not one of the user's unused codes. */
export async function useRecoveryCode(ctx: AppContext, tx: Queryable, user: User, code: string): Promise<boolean> {
  const used = await tx.query(
    'update recovery_codes set used_at = $3 where user_id = $1 and code_hash = $2 and used_at is null returning user_id',
    [user.id, hashRecoveryCode(code), ctx.now()],
  );
  if (used.length === 1) return true;
  await recordFailure(ctx, user, tx);
  return false;
}

export async function replaceRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.query('delete from recovery_codes where user_id = $1', [userId]);
  for (const code of codes) {
    await tx.query('insert into recovery_codes (user_id, code_hash) values ($1, $2)', [userId, hashRecoveryCode(code)]);
  }
  return codes;
}

export async function countRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'select count(*)::int as n from recovery_codes where user_id = $1 and used_at is null',
    [userId],
  );
  return row?.n ?? 0;
}

/** A new authenticator key, stored sealed; 2FA stays off until a code from it is confirmed. */
export async function resetAuthenticatorKey(ctx: AppContext, tx: Queryable, user: User): Promise<string> {
  const key = newSharedKey();
  await tx.query('update users set totp_secret = $2, totp_enabled = false, totp_last_step = 0 where id = $1', [
    user.id,
    ctx.secrets.seal(key),
  ]);
  return key;
}

export function authenticatorUri(ctx: AppContext, user: User, key: string): string {
  return otpauthUri(ctx.config.issuer, user.email, key);
}

/** Turns 2FA off and forgets the key and codes: the user sets it up again at the next sign-in. */
export async function resetTwoFactor(tx: Queryable, userId: string) {
  await tx.query('update users set totp_enabled = false, totp_secret = null, totp_last_step = 0 where id = $1', [
    userId,
  ]);
  await tx.query('delete from recovery_codes where user_id = $1', [userId]);
}

/** Throws ASP.NET's ValidationProblem with the rule codes a password breaks. */
export function assertPasswordRules(password: string) {
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw validationProblem(Object.fromEntries(problems.map((code) => [code, [passwordRuleMessages[code]]])));
  }
}

const codeHash = (code: string, binding?: string) => sha256(binding ? `${code}|${binding}` : code);

/**
 * Stores a reset or confirmation code (hash only) and returns the code to mail. A `binding` (the new
 * address of an email change) is part of the hash, so the link cannot be used for another address.
 */
export async function issueOneTimeCode(
  ctx: AppContext,
  userId: string,
  purpose: 'reset' | 'confirm',
  binding?: string,
): Promise<string> {
  const code = newToken();
  await ctx.db.query('insert into one_time_codes (code_hash, user_id, purpose, expires_at) values ($1, $2, $3, $4)', [
    codeHash(code, binding),
    userId,
    purpose,
    new Date(ctx.now().getTime() + ONE_TIME_CODE_MS),
  ]);
  return code;
}

/** Whether a code is valid now, without using it. */
export async function peekOneTimeCode(ctx: AppContext, code: string, purpose: 'reset' | 'confirm', userId: string) {
  const rows = await ctx.db.query(
    'select 1 from one_time_codes where code_hash = $1 and purpose = $2 and used_at is null and expires_at > $3 and user_id = $4',
    [codeHash(code), purpose, ctx.now(), userId],
  );
  return rows.length === 1;
}

/** Uses a reset or confirmation code once; returns its user, or undefined. */
export async function consumeOneTimeCode(
  ctx: AppContext,
  tx: Queryable,
  code: string,
  purpose: 'reset' | 'confirm',
  userId?: string,
  binding?: string,
): Promise<User | undefined> {
  const [row] = await tx.query<{ user_id: string }>(
    `update one_time_codes set used_at = $3 where code_hash = $1 and purpose = $2 and used_at is null and expires_at > $3
     ${userId ? 'and user_id = $4' : ''} returning user_id`,
    userId ? [codeHash(code, binding), purpose, ctx.now(), userId] : [codeHash(code, binding), purpose, ctx.now()],
  );
  return row ? findUserById(tx, row.user_id) : undefined;
}

/** Sets a new password, clears the lockout and signs the user out everywhere. */
export async function setPassword(ctx: AppContext, tx: Queryable, userId: string, password: string) {
  await tx.query('update users set password_hash = $2, failed_attempts = 0, lockout_until = null where id = $1', [
    userId,
    await hashPassword(password),
  ]);
  await revokeAllForUser(tx, ctx.now(), userId);
}

export const newId = () => randomUUID();
