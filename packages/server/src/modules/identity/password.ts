/**
 * Passwords and the lockout: 5 failed attempts lock an account for 5 minutes (the identity contract).
 * Failed sign-ins of addresses that are no account's are counted under the same rule, so that five
 * wrong tries do not tell a real account (locked out) from an unknown address. Those counts are kept
 * in the database, so that every API process counts the same tries; an address is stored only as an
 * HMAC of its normalised form under a key derived from PORTAL_SECRET_KEY, so the table names no address.
 */
import { createHmac } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { dummyPasswordHash, passwordProblems, passwordRuleMessages, verifyPassword } from '../../crypto/passwords.js';
import type { Queryable } from '../../db/database.js';
import { validationProblem } from '../../errors.js';
import { readSignInState } from './entra-repository.js';
import {
  clearLockout,
  countAddressFailure,
  countFailedAttempt,
  forgetAddressFailures,
  isAddressLockedOut,
  lockAccount,
  lockAddress,
} from './password-repository.js';
import { normaliseEmail, type User } from './users.js';
import { findUserByEmail } from './users-repository.js';

const MAX_FAILED_ATTEMPTS = 5;
const LOCKOUT_MS = 5 * 60_000;
/** An address's count idle this long is forgotten, so the table does not keep every address ever tried. */
const FORGET_AFTER_MS = 30 * 24 * 3600_000;

export type PasswordCheck =
  | { outcome: 'success'; user: User }
  /** `user` when the address is an account's: the wrong password is then that account's to see. */
  | { outcome: 'failed'; user?: User }
  /** `user` when the address is an account's; an unknown address is locked out as an account is. */
  | { outcome: 'lockedOut'; user?: User }
  | { outcome: 'notAllowed'; user: User }
  /** The right password of an account an administrator has deactivated. */
  | { outcome: 'deactivated'; user: User };

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
  const attempts = (await countFailedAttempt(db, user.id)) ?? user.failedAttempts + 1;
  if (attempts >= MAX_FAILED_ATTEMPTS) {
    await lockAccount(db, user.id, new Date(ctx.now().getTime() + LOCKOUT_MS));
    return 'lockedOut';
  }
  return 'failed';
}

async function recordSuccess(ctx: AppContext, user: User) {
  if (user.failedAttempts !== 0 || user.lockoutUntil) await clearLockout(ctx.db, user.id);
}

/** The key of an address in `sign_in_failures`. */
export function addressKey(secretKey: Buffer, email: string): string {
  const key = createHmac('sha256', secretKey).update('portal sign-in failures v1').digest();
  return createHmac('sha256', key).update(normaliseEmail(email)).digest('hex');
}

/** Counts a failure of the address; the fifth locks it for five minutes, as an account's does, and answers true. */
async function recordAddressFailure(db: Queryable, addressHash: string, now: Date): Promise<boolean> {
  await forgetAddressFailures(db, new Date(now.getTime() - FORGET_AFTER_MS));
  if ((await countAddressFailure(db, addressHash, now)) < MAX_FAILED_ATTEMPTS) return false;
  await lockAddress(db, addressHash, new Date(now.getTime() + LOCKOUT_MS));
  return true;
}

/**
 * An unknown address, answered as an account would be: locked out (without a password check, as a
 * locked account is) or a password checked against a dummy hash (the same cost as a wrong password)
 * and the failure counted, the fifth locking the address for five minutes.
 */
async function checkUnknownAddress(ctx: AppContext, email: string, password: string): Promise<PasswordCheck> {
  const key = addressKey(ctx.config.secretKey, email);
  if (await isAddressLockedOut(ctx.db, key, ctx.now())) return { outcome: 'lockedOut' };
  await verifyPassword(await dummyPasswordHash(), password);
  const locked = await recordAddressFailure(ctx.db, key, ctx.now());
  return { outcome: locked ? 'lockedOut' : 'failed' };
}

/**
 * Checks an email and password with lockout; an unknown email costs the same time as a wrong password
 * and is locked out after the same number of failures. With 2FA on, the right password does not clear
 * the failure count (as in ASP.NET): only the second factor does, or a known password would reset the
 * count before each guess of a code.
 */
export async function checkPassword(ctx: AppContext, email: string, password: string): Promise<PasswordCheck> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return checkUnknownAddress(ctx, email, password);
  if (isLockedOut(user, ctx.now())) return { outcome: 'lockedOut', user };
  if (!(await verifyPassword(user.passwordHash, password))) {
    return (await recordFailure(ctx, user)) === 'lockedOut'
      ? { outcome: 'lockedOut', user }
      : { outcome: 'failed', user };
  }
  if (!user.totpEnabled) await recordSuccess(ctx, user);
  // Said only after the right password: a deactivated account is not revealed to someone guessing.
  if (user.deactivatedAt) return { outcome: 'deactivated', user };
  if (!user.emailConfirmed) return { outcome: 'notAllowed', user };
  return { outcome: 'success', user };
}

/** Throws ASP.NET's ValidationProblem with the rule codes a password breaks. */
export function assertPasswordRules(password: string) {
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw validationProblem(Object.fromEntries(problems.map((code) => [code, [passwordRuleMessages[code]]])));
  }
}

/** Whether the organisation's members may sign in with a password (true for an unknown one, as before). */
export async function passwordSignInAllowed(db: Queryable, organisationId: string): Promise<boolean> {
  return (await readSignInState(db, organisationId))?.password ?? true;
}
