/**
 * Re-authentication: what a signed-in user gives again before a sensitive change of the account (the
 * password, and while 2FA is on a code or a recovery code) or of the whole organisation (a recent
 * sign-in with Microsoft, or the password and a code). Wrong passwords and codes count toward the
 * lockout, as at sign-in.
 */
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { verifyPassword } from '../../crypto/passwords.js';
import { validationProblem } from '../../errors.js';
import { isLockedOut, recordFailure } from './password.js';
import { checkTotp, useRecoveryCode } from './second-factor.js';
import type { Auth } from './sessions.js';
import type { User } from './users.js';

/** What the user gives again for a sensitive change (ASP.NET's bodies, extended). */
export interface Reauthentication {
  oldPassword?: string;
  twoFactorCode?: string;
  twoFactorRecoveryCode?: string;
}

/** The audit action and address of a sensitive change, for its refusals. */
interface Attempt {
  action: string;
  ip: string;
}

async function refuse(ctx: AppContext, user: User, attempt: Attempt, code: string, message: string) {
  await ctx.audit({
    ...actedBy(user, attempt.ip),
    organisationId: user.organisationId,
    action: attempt.action,
    outcome: 'failure',
    details: { reason: code },
  });
  return validationProblem({ [code]: [message] });
}

/**
 * The current password, for a sensitive change. Wrong ones count toward the lockout (a stolen bearer
 * token must not be a way to guess the password); the right one does not clear the count.
 */
export async function confirmPassword(
  ctx: AppContext,
  user: User,
  oldPassword: string | undefined,
  attempt: Attempt & { requiredMessage: string },
) {
  if (isLockedOut(user, ctx.now())) {
    throw await refuse(ctx, user, attempt, 'Lockedout', 'The account is locked out. Try again in a few minutes.');
  }
  if (!oldPassword) throw await refuse(ctx, user, attempt, 'OldPasswordRequired', attempt.requiredMessage);
  if (!(await verifyPassword(user.passwordHash, oldPassword))) {
    await recordFailure(ctx, user);
    throw await refuse(ctx, user, attempt, 'PasswordMismatch', 'Incorrect password.');
  }
}

/** A current TOTP code or a recovery code, used up here; wrong ones count toward the lockout. */
export async function confirmSecondFactor(ctx: AppContext, user: User, given: Reauthentication, attempt: Attempt) {
  if (!given.twoFactorCode && !given.twoFactorRecoveryCode) {
    throw await refuse(
      ctx,
      user,
      attempt,
      'RequiresTwoFactor',
      'No 2fa token was provided by the request. A valid 2fa token or recovery code is required for this change.',
    );
  }
  const ok = given.twoFactorCode
    ? await checkTotp(ctx, user, given.twoFactorCode)
    : await ctx.db.transaction((tx) => useRecoveryCode(ctx, tx, user, given.twoFactorRecoveryCode ?? ''));
  if (!ok) {
    throw await refuse(
      ctx,
      user,
      attempt,
      'InvalidTwoFactorCode',
      'The 2fa token provided by the request was invalid. A valid 2fa token or recovery code is required for this change.',
    );
  }
}

/** How long a sign-in with Microsoft stands in for the password and code of an organisation-wide change. */
const RECENT_MICROSOFT_SIGN_IN_MS = 10 * 60_000;

/** Until when the session's sign-in with Microsoft confirms organisation-wide changes; null if it did not sign in so. */
export function microsoftSignInUntil(auth: Auth): Date | null {
  return auth.signedIn?.method === 'microsoft'
    ? new Date(auth.signedIn.at.getTime() + RECENT_MICROSOFT_SIGN_IN_MS)
    : null;
}

/** Why an organisation-wide change was not confirmed (the SDK's refusal codes). */
export type ReauthenticationRefusal =
  | 'reauthenticationRequired'
  | 'reauthenticationPasswordWrong'
  | 'reauthenticationCodeWrong'
  | 'accountLocked';

/**
 * Confirms that the person behind the session makes a change that affects the whole organisation: a
 * session that signed in with Microsoft within the last 10 minutes does; else the password and a
 * current code of the authenticator (or a recovery code, used up). A password alone does not: an
 * account without an authenticator confirms by signing in with Microsoft again. Wrong passwords and
 * codes count toward the lockout, as at sign-in; the right password does not clear the count. Answers
 * null when confirmed, else why not.
 */
export async function reauthenticate(
  ctx: AppContext,
  auth: Auth,
  given: Reauthentication,
): Promise<ReauthenticationRefusal | null> {
  const until = microsoftSignInUntil(auth);
  if (until && ctx.now().getTime() <= until.getTime()) return null;
  const { user } = auth;
  if (isLockedOut(user, ctx.now())) return 'accountLocked';
  const hasSecondFactor = Boolean(given.twoFactorCode || given.twoFactorRecoveryCode);
  if (!given.oldPassword || !hasSecondFactor || !user.totpEnabled) return 'reauthenticationRequired';
  if (!(await verifyPassword(user.passwordHash, given.oldPassword))) {
    return (await recordFailure(ctx, user)) === 'lockedOut' ? 'accountLocked' : 'reauthenticationPasswordWrong';
  }
  const ok = given.twoFactorCode
    ? await checkTotp(ctx, user, given.twoFactorCode)
    : await ctx.db.transaction((tx) => useRecoveryCode(ctx, tx, user, given.twoFactorRecoveryCode ?? ''));
  return ok ? null : 'reauthenticationCodeWrong';
}
