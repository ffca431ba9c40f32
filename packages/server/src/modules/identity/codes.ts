/**
 * Mailed one-time codes: a password reset (a code on apollo, a link on the legacy API) and the
 * confirmation of an address (at registration, or of the new address of an email change). A code is
 * stored as a hash only, lives one day and is used once.
 */
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import { newToken, sha256 } from '../../crypto/tokens.js';
import type { Queryable } from '../../db/database.js';
import { runAfterResponse } from './background.js';
import {
  type CodePurpose,
  findLiveOneTimeCode,
  findOneTimeCode,
  insertOneTimeCode,
  useOneTimeCode,
  voidOneTimeCodes,
} from './codes-repository.js';
import { mailConfirmation, mailResetCode, mailResetLink } from './mails.js';
import { assertPasswordRules } from './password.js';
import { revokeAllForUser } from './sessions.js';
import { normaliseEmail, type User } from './users.js';
import {
  acceptPendingInvitation,
  findUserByEmail,
  findUserById,
  lockUser,
  markEmailConfirmed,
  updatePasswordHash,
} from './users-repository.js';

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
async function peekOneTimeCode(ctx: AppContext, code: string, purpose: CodePurpose, userId: string) {
  return (await findLiveOneTimeCode(ctx.db, codeHash(code), purpose, ctx.now(), userId)) !== undefined;
}

/**
 * ASP.NET Core Identity's security stamp, renewed by every password reset or change and every email
 * change: all outstanding reset and confirmation codes of the account stop working, and so do its
 * sessions and refresh tokens. `keepFamily` spares one session: that of a user who changed the password
 * with the old one while signed in (ASP.NET signs the changer in again). A reset by code and a confirmed
 * email change spare none: the mailed code proves the mailbox, not which session is the user's.
 */
export async function renewSecurityStamp(ctx: AppContext, tx: Queryable, userId: string, keepFamily?: string) {
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
    await acceptPendingInvitation(tx, user.id, ctx.now());
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
 * Apollo's POST /resetPassword: a confirmed account's address, the mailed code (decoded, or undefined
 * when it was not a code) and the new password. False for an unknown or unconfirmed address and a code
 * that is not live, all alike; the password's rules are checked only for a live code.
 */
export async function resetPasswordWithMailedCode(
  ctx: AppContext,
  input: { email: string | undefined; code: string | undefined; newPassword: unknown; ip: string },
): Promise<boolean> {
  const user = input.email === undefined ? undefined : await findUserByEmail(ctx.db, input.email);
  if (!user?.emailConfirmed || input.code === undefined) return false;
  if (!(await peekOneTimeCode(ctx, input.code, 'reset', user.id))) return false;
  const newPassword = typeof input.newPassword === 'string' ? input.newPassword : '';
  assertPasswordRules(newPassword);
  const done = await resetPasswordWithCode(ctx, { code: input.code, userId: user.id, newPassword, ip: input.ip });
  return done !== undefined;
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
