import { randomUUID } from 'node:crypto';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { hashPassword, verifyPassword } from '../../crypto/passwords.js';
import { newToken, sha256 } from '../../crypto/tokens.js';
import type { Queryable } from '../../db/database.js';
import { validationProblem } from '../../http/errors.js';
import { runAfterResponse } from './background.js';
import {
  type CodePurpose,
  findLiveOneTimeCode,
  findOneTimeCode,
  insertOneTimeCode,
  useOneTimeCode,
  voidOneTimeCodes,
} from './codes-repository.js';
import { mailConfirmation, mailEmailChangeNotice, mailResetCode, mailResetLink } from './mails.js';
import { assertPasswordRules, isLockedOut, recordFailure } from './password.js';
import {
  authenticatorKey,
  checkTotp,
  replaceRecoveryCodes,
  resetAuthenticatorKey,
  useRecoveryCode,
} from './second-factor.js';
import { countUnusedRecoveryCodes, isTwoFactorEnabled, setTwoFactorEnabled } from './second-factor-repository.js';
import { type Auth, issueSession, revokeAllForUser, rotateRefreshToken } from './sessions.js';
import { normaliseEmail, type User } from './users.js';
import { findUserByEmail, findUserById, lockUser, markEmailConfirmed, updatePasswordHash } from './users-repository.js';

/** Reset and confirmation codes live one day. */
const ONE_TIME_CODE_MS = 24 * 3600_000;

const codeHash = (code: string, binding?: string) => sha256(binding ? `${code}|${binding}` : code);

/**
 * Stores a reset or confirmation code (hash only) and returns the code to mail. A `binding` (the new
 * address of an email change) is part of the hash, so the link cannot be used for another address.
 */
export async function issueOneTimeCode(
  ctx: AppContext,
  userId: string,
  purpose: CodePurpose,
  binding?: string,
  db: Queryable = ctx.db,
): Promise<string> {
  const code = newToken();
  await insertOneTimeCode(db, {
    hash: codeHash(code, binding),
    userId,
    purpose,
    expiresAt: new Date(ctx.now().getTime() + ONE_TIME_CODE_MS),
  });
  return code;
}

/** Whether a code is valid now, without using it. */
export async function peekOneTimeCode(ctx: AppContext, code: string, purpose: CodePurpose, userId: string) {
  return (await findLiveOneTimeCode(ctx.db, codeHash(code), purpose, ctx.now(), userId)) !== undefined;
}

/**
 * ASP.NET Core Identity's security stamp, renewed by every password reset or change and every email
 * change: all outstanding reset and confirmation codes of the account stop working, and so do its
 * sessions and refresh tokens. `keepFamily` spares one session: that of a user who changed the password
 * with the old one while signed in (ASP.NET signs the changer in again). A reset by code and a confirmed
 * email change spare none: the mailed code proves the mailbox, not which session is the user's.
 */
async function renewSecurityStamp(ctx: AppContext, tx: Queryable, userId: string, keepFamily?: string) {
  await voidOneTimeCodes(tx, userId, ctx.now());
  await revokeAllForUser(tx, ctx.now(), userId, keepFamily);
}

/**
 * Sets a new password with a reset code: the code is used, and the account's other codes and every
 * session end with it. `userId` when the caller named the account (apollo), else the code names it
 * (legacy link). Returns the user, or undefined when the code is not live.
 */
export async function resetPasswordWithCode(
  ctx: AppContext,
  input: { code: string; userId?: string; newPassword: string; ip: string },
): Promise<User | undefined> {
  const hash = codeHash(input.code);
  const owner = await findLiveOneTimeCode(ctx.db, hash, 'reset', ctx.now(), input.userId);
  if (!owner) return undefined;
  const passwordHash = await hashPassword(input.newPassword);
  return ctx.db.transaction(async (tx) => {
    // The lock orders two resets of one account: the second finds its code voided by the first.
    await lockUser(tx, owner);
    if (!(await useOneTimeCode(tx, hash, 'reset', ctx.now(), owner))) return undefined;
    const user = await findUserById(tx, owner);
    if (!user) return undefined;
    await updatePasswordHash(tx, user.id, passwordHash);
    await renewSecurityStamp(ctx, tx, user.id);
    // An invited user who chose a password by a reset link (an invitation sent before invitations had
    // links of their own, or a lost one) has accepted the invitation.
    await tx.query(
      'update users set invitation_accepted_at = $2 where id = $1 and invited_at is not null and invitation_accepted_at is null',
      [user.id, ctx.now()],
    );
    await ctx.audit(
      {
        ...actedBy(user, input.ip),
        organisationId: user.organisationId,
        action: 'auth.password.reset',
        outcome: 'success',
      },
      tx,
    );
    return user;
  });
}

/**
 * Mails a reset code (apollo: to a confirmed account) or link (legacy) after the answer: the request
 * does the same for a known and an unknown address, so neither its answer nor its time reveals accounts.
 */
export function requestPasswordReset(ctx: AppContext, email: string, api: 'apollo' | 'legacy', ip: string): void {
  runAfterResponse(ctx, `${api} password reset mail`, async () => {
    const user = await findUserByEmail(ctx.db, email);
    if (!user || (api === 'apollo' && !user.emailConfirmed)) return;
    const token = await issueOneTimeCode(ctx, user.id, 'reset');
    if (api === 'apollo') await mailResetCode(ctx, user.email, token);
    else await mailResetLink(ctx, user.email, token);
    await ctx.audit({
      actorUserId: user.id,
      actorEmail: user.email,
      organisationId: user.organisationId,
      action: 'auth.password.forgot',
      outcome: 'success',
      ip,
    });
  });
}

/** Mails the confirmation link again to an unconfirmed account, after the answer (as the reset mail). */
export function requestConfirmationMail(ctx: AppContext, email: string): void {
  runAfterResponse(ctx, 'confirmation mail', async () => {
    const user = await findUserByEmail(ctx.db, email);
    if (!user || user.emailConfirmed) return;
    await mailConfirmation(ctx, user, user.email, await issueOneTimeCode(ctx, user.id, 'confirm'));
  });
}

/**
 * Confirms the address of a user whose confirmation code was just used (in `tx`, with the user's row
 * locked): for an email change (`changed`), the address changes and the security stamp is renewed.
 * False when another account has the new address.
 */
async function applyConfirmation(ctx: AppContext, tx: Queryable, user: User, changed: string | undefined, ip: string) {
  if (changed) {
    const clash = await findUserByEmail(tx, changed);
    if (clash && clash.id !== user.id) return false;
    await markEmailConfirmed(tx, user.id, changed);
    await renewSecurityStamp(ctx, tx, user.id);
  } else {
    await markEmailConfirmed(tx, user.id);
  }
  await ctx.audit(
    {
      actorUserId: user.id,
      actorEmail: changed ?? user.email,
      organisationId: user.organisationId,
      action: changed ? 'auth.email.change' : 'auth.email.confirm',
      outcome: 'success',
      ip,
      ...(changed ? { details: { previousEmail: user.email } } : {}),
    },
    tx,
  );
  return true;
}

/**
 * Confirms an address with a mailed code. For an email change (`changedEmail`), the address changes
 * and the security stamp is renewed. False when the code is not live or another account has the address.
 */
export async function confirmEmail(
  ctx: AppContext,
  input: { userId: string; code: string; changedEmail?: string; ip: string },
): Promise<boolean> {
  const changed = input.changedEmail ? normaliseEmail(input.changedEmail) : undefined;
  return ctx.db.transaction(async (tx) => {
    await lockUser(tx, input.userId);
    const owner = await useOneTimeCode(tx, codeHash(input.code, changed), 'confirm', ctx.now(), input.userId);
    const user = owner ? await findUserById(tx, owner) : undefined;
    if (!user) return false;
    return applyConfirmation(ctx, tx, user, changed, input.ip);
  });
}

/** What a confirmation link did, or why it did nothing (the SDK's refusal codes). */
export type ConfirmationLinkResult =
  | { outcome: 'confirmed' | 'alreadyConfirmed'; email: string; emailChanged: boolean }
  | { refused: 'confirmationLinkExpired' | 'confirmationLinkUsed' | 'confirmationLinkInvalid' };

/**
 * The portal's confirmation page: confirms as `confirmEmail` does, and says what happened. Only a code
 * issued to the link's user (and, for an email change, bound to its address) is told apart from any
 * other value, so the answer says nothing about an account to whoever does not hold one of its links.
 * An address confirmed already (this link opened again, or another link used first) answers
 * `alreadyConfirmed`, whatever the link's state: a person clicking twice is told to sign in, not given
 * an error. Otherwise a used (or replaced) link and an expired one are told apart, so the page can
 * offer a new mail.
 */
export async function confirmEmailLink(
  ctx: AppContext,
  input: { userId: string; code: string; changedEmail?: string; ip: string },
): Promise<ConfirmationLinkResult> {
  const changed = input.changedEmail ? normaliseEmail(input.changedEmail) : undefined;
  const hash = codeHash(input.code, changed);
  return ctx.db.transaction(async (tx) => {
    await lockUser(tx, input.userId);
    const code = await findOneTimeCode(tx, hash, 'confirm', input.userId);
    const user = code ? await findUserById(tx, input.userId) : undefined;
    if (!code || !user) return { refused: 'confirmationLinkInvalid' };
    const now = ctx.now();
    const live = code.usedAt === null && code.expiresAt.getTime() > now.getTime();
    const confirmed = user.emailConfirmed && (changed === undefined || user.email === changed);
    if (confirmed) {
      // A live code of an address confirmed meanwhile is spent here, as a use would spend it.
      if (live) await useOneTimeCode(tx, hash, 'confirm', now, user.id);
      return { outcome: 'alreadyConfirmed', email: user.email, emailChanged: changed !== undefined };
    }
    if (code.usedAt !== null) return { refused: 'confirmationLinkUsed' };
    if (!live) return { refused: 'confirmationLinkExpired' };
    await useOneTimeCode(tx, hash, 'confirm', now, user.id);
    if (!(await applyConfirmation(ctx, tx, user, changed, input.ip))) return { refused: 'confirmationLinkInvalid' };
    return { outcome: 'confirmed', email: changed ?? user.email, emailChanged: changed !== undefined };
  });
}

/** Signs a user in with a refresh token, in the token's family; undefined when it is refused. */
export async function refreshSession(ctx: AppContext, refreshToken: string, ip: string) {
  return ctx.db.transaction(async (tx) => {
    const rotated = await rotateRefreshToken(tx, ctx.now(), refreshToken);
    if (rotated.outcome === 'invalid') return undefined;
    const user = await findUserById(tx, rotated.userId);
    if (rotated.outcome === 'replayed') {
      await ctx.audit(
        {
          actorUserId: rotated.userId,
          actorEmail: user?.email ?? null,
          organisationId: user?.organisationId ?? null,
          action: 'auth.refresh',
          outcome: 'failure',
          ip,
          details: { reason: 'replayed' },
        },
        tx,
      );
      return undefined;
    }
    if (!user || isLockedOut(user, ctx.now()) || user.deactivatedAt) return undefined;
    return issueSession(tx, ctx.now(), user.id, ip, rotated.family, rotated.signedIn, rotated.userAgent);
  });
}

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
async function confirmPassword(
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
async function confirmSecondFactor(ctx: AppContext, user: User, given: Reauthentication, attempt: Attempt) {
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

export interface TwoFactorChange extends Reauthentication {
  enable?: boolean;
  resetSharedKey: boolean;
  resetRecoveryCodes: boolean;
}

/**
 * ASP.NET's /manage/2fa, hardened: while 2FA is on, a key reset, new recovery codes and turning it
 * off need the password and a code (or a recovery code); the key is answered only while 2FA is off
 * (enrolment, or after a key reset until a code of the new key turns it on). A key reset or turning
 * 2FA off renews the security stamp, as ASP.NET's ResetAuthenticatorKeyAsync and
 * SetTwoFactorEnabledAsync do: every other session ends and outstanding mailed codes stop working;
 * the session that made the change stays signed in. New recovery codes change neither (nor in ASP.NET).
 */
export async function changeTwoFactor(ctx: AppContext, auth: Auth, change: TwoFactorChange, ip: string) {
  const { user } = auth;
  const attempt = { action: 'auth.2fa.change', ip };
  if (change.enable === true && change.resetSharedKey) {
    throw validationProblem({
      CannotResetSharedKeyAndEnable: [
        'Resetting the 2fa shared key must disable 2fa until a 2fa token based on the new shared key is validated.',
      ],
    });
  }
  const sensitive = user.totpEnabled && (change.resetSharedKey || change.resetRecoveryCodes || change.enable === false);
  if (sensitive) {
    await confirmPassword(ctx, user, change.oldPassword, {
      ...attempt,
      requiredMessage: 'The old password is required to change two-factor settings while 2fa is enabled.',
    });
    await confirmSecondFactor(ctx, user, change, attempt);
  } else if (change.enable === true) {
    if (!change.twoFactorCode) {
      throw validationProblem({
        RequiresTwoFactor: ['No 2fa token was provided by the request. A valid 2fa token is required to enable 2fa.'],
      });
    }
    if (!(await checkTotp(ctx, user, change.twoFactorCode))) {
      throw validationProblem({
        InvalidTwoFactorCode: [
          'The 2fa token provided by the request was invalid. A valid 2fa token is required to enable 2fa.',
        ],
      });
    }
  }
  return ctx.db.transaction(async (tx) => {
    if (change.enable === true) await setTwoFactorEnabled(tx, user.id, true);
    else if (change.enable === false || change.resetSharedKey) await setTwoFactorEnabled(tx, user.id, false);
    let key = change.resetSharedKey ? await resetAuthenticatorKey(ctx, tx, user) : authenticatorKey(ctx, user);
    let recoveryCodes: string[] | undefined;
    if (change.resetRecoveryCodes || (change.enable === true && (await countUnusedRecoveryCodes(tx, user.id)) === 0)) {
      recoveryCodes = await replaceRecoveryCodes(tx, user.id);
    }
    if (!key) {
      key = await resetAuthenticatorKey(ctx, tx, user);
      // Creating the missing key must not switch off a second factor that an enable just switched on.
      if (change.enable === true) await setTwoFactorEnabled(tx, user.id, true);
    }
    const enabled = await isTwoFactorEnabled(tx, user.id);
    const stampRenewed = sensitive && (change.resetSharedKey || change.enable === false);
    if (stampRenewed) await renewSecurityStamp(ctx, tx, user.id, auth.family);
    if (change.enable !== undefined || change.resetSharedKey || change.resetRecoveryCodes) {
      await ctx.audit(
        {
          actorUserId: user.id,
          actorEmail: user.email,
          organisationId: user.organisationId,
          action: 'auth.2fa.change',
          outcome: 'success',
          ip,
          details: {
            enabled,
            resetSharedKey: change.resetSharedKey,
            resetRecoveryCodes: Boolean(recoveryCodes),
            ...(stampRenewed ? { otherSessionsEnded: true } : {}),
          },
        },
        tx,
      );
    }
    return {
      sharedKey: enabled ? null : key,
      recoveryCodesLeft: recoveryCodes?.length ?? (await countUnusedRecoveryCodes(tx, user.id)),
      ...(recoveryCodes ? { recoveryCodes } : {}),
      isTwoFactorEnabled: enabled,
      isMachineRemembered: false,
    };
  });
}

export interface InfoChange extends Reauthentication {
  newEmail?: string;
  newPassword?: string;
}

/**
 * ASP.NET's POST /manage/info, hardened. A new password needs the old one; the session that changed
 * it stays signed in and every other one ends. A new email needs the password and, while 2FA is on, a
 * code (or a recovery code); the new address gets the confirmation link and the current one a notice.
 */
export async function changeAccountInfo(ctx: AppContext, auth: Auth, change: InfoChange, ip: string) {
  const { user } = auth;
  const newPassword = change.newPassword || undefined;
  const newEmail = change.newEmail && normaliseEmail(change.newEmail) !== user.email ? change.newEmail : undefined;
  if (newPassword || newEmail) {
    await confirmPassword(ctx, user, change.oldPassword, {
      action: newPassword ? 'auth.password.change' : 'auth.email.change.request',
      ip,
      requiredMessage: newPassword
        ? 'The old password is required to set a new password. If the old password is forgotten, use /resetPassword.'
        : 'The old password is required to change the email address.',
    });
  }
  if (newPassword) assertPasswordRules(newPassword);
  if (newEmail && user.totpEnabled) {
    await confirmSecondFactor(ctx, user, change, { action: 'auth.email.change.request', ip });
  }
  if (newPassword) {
    const passwordHash = await hashPassword(newPassword);
    await ctx.db.transaction(async (tx) => {
      await lockUser(tx, user.id);
      await updatePasswordHash(tx, user.id, passwordHash);
      await renewSecurityStamp(ctx, tx, user.id, auth.family);
      await ctx.audit(
        {
          actorUserId: user.id,
          actorEmail: user.email,
          organisationId: user.organisationId,
          action: 'auth.password.change',
          outcome: 'success',
          ip,
        },
        tx,
      );
    });
  }
  if (newEmail) {
    const token = await ctx.db.transaction(async (tx) => {
      const issued = await issueOneTimeCode(ctx, user.id, 'confirm', normaliseEmail(newEmail), tx);
      await ctx.audit(
        {
          actorUserId: user.id,
          actorEmail: user.email,
          organisationId: user.organisationId,
          action: 'auth.email.change.request',
          outcome: 'success',
          ip,
          details: { newEmail: normaliseEmail(newEmail) },
        },
        tx,
      );
      return issued;
    });
    await mailConfirmation(ctx, user, newEmail, token, newEmail);
    await mailEmailChangeNotice(ctx, user.email, newEmail);
  }
  return { email: user.email, isEmailConfirmed: user.emailConfirmed };
}

export const newId = () => randomUUID();
