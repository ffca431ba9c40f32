/**
 * The signed-in user's own account: the user as the web app keeps it, and ASP.NET's /manage endpoints
 * (its two-factor settings, its address and password).
 */
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import { refusal, validationProblem } from '../../errors.js';
import { issueOneTimeCode, renewSecurityStamp } from './codes.js';
import { mailConfirmation, mailEmailChangeNotice } from './mails.js';
import { assertPasswordRules } from './password.js';
import { confirmPassword, confirmSecondFactor, type Reauthentication } from './reauthentication.js';
import { authenticatorKey, checkTotp, replaceRecoveryCodes, resetAuthenticatorKey } from './second-factor.js';
import { countUnusedRecoveryCodes, isTwoFactorEnabled, setTwoFactorEnabled } from './second-factor-repository.js';
import type { Auth } from './sessions.js';
import { normaliseEmail, sessionUser } from './users.js';
import { findUserById, lockUser, updatePasswordHash } from './users-repository.js';

/** The session's user as read now, for the web app; refused when the account is gone. */
export async function currentUser(ctx: AppContext, auth: Auth) {
  const user = await findUserById(ctx.db, auth.user.id);
  if (!user) throw refusal(404, 'userDoesNotExist');
  return sessionUser(user);
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
