/**
 * The legacy sign-in's second step, with the sign-in token of the first: the authenticator's setup
 * (a new key, then its first code, which turns 2FA on and answers the recovery codes) or a code of it;
 * or a recovery code, which signs in and resets 2FA so that the user sets it up again. Each answers a
 * session token in place of the sign-in token.
 */
import { secondStepTexts } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { badRequest, conflict, refusal } from '../../errors.js';
import { isLockedOut } from './password.js';
import {
  authenticatorUri,
  checkTotp,
  replaceRecoveryCodes,
  resetAuthenticatorKey,
  resetTwoFactor,
  useRecoveryCode,
} from './second-factor.js';
import { enableTwoFactorOnce } from './second-factor-repository.js';
import { type Auth, issueToken } from './sessions.js';
import { revokeToken } from './sessions-repository.js';
import { sessionUser, type User } from './users.js';
import { findUserById } from './users-repository.js';

/** Where the second step comes from. */
interface From {
  ip: string;
  userAgent: string | undefined;
}

// Texts the SDK knows, so that these refusals too reach a client with a code (ApiError.code).
const alreadySetUp = () => conflict(secondStepTexts.twoFactorAlreadySetUp);

/** Replaces the sign-in token with a session token, in the caller's transaction. */
async function swapForSession(ctx: AppContext, tx: Queryable, auth: Auth, from: From): Promise<string> {
  await revokeToken(tx, ctx.now(), auth.tokenHash);
  const { token } = await issueToken(
    tx,
    ctx.now(),
    auth.user.id,
    'session',
    undefined,
    from.ip,
    undefined,
    from.userAgent,
  );
  return token;
}

/** A new authenticator key to scan; refused while 2FA is on (a password alone must never replace it). */
export async function newAuthenticatorKey(ctx: AppContext, user: User) {
  if (user.totpEnabled) throw alreadySetUp();
  const key = await ctx.db.transaction((tx) => resetAuthenticatorKey(ctx, tx, user));
  return { otpauthUri: authenticatorUri(ctx, user, key), key };
}

/** The first code of the new key: 2FA on, recovery codes issued, and the session begun; audited. */
export async function confirmAuthenticatorSetup(ctx: AppContext, auth: Auth, code: string, from: From) {
  const user = auth.user;
  if (user.totpEnabled) throw alreadySetUp();
  if (!user.totpSecret) throw badRequest(secondStepTexts.authenticatorKeyMissing);
  if (!(await checkTotp(ctx, user, code))) {
    await ctx.audit({
      ...actedBy(user, from.ip),
      organisationId: user.organisationId,
      action: 'auth.2fa.setup',
      outcome: 'failure',
    });
    throw refusal(400, 'invalidVerificationCode');
  }
  return ctx.db.transaction(async (tx) => {
    // Codes of neighbouring time steps are all valid: of several sent at once, only the first to
    // turn 2FA on sets it up (one set of recovery codes, one session); the others find it set up.
    if (!(await enableTwoFactorOnce(tx, user.id))) throw alreadySetUp();
    const recoveryCodes = await replaceRecoveryCodes(tx, user.id);
    const token = await swapForSession(ctx, tx, auth, from);
    await ctx.audit(
      {
        ...actedBy(user, from.ip),
        organisationId: user.organisationId,
        action: 'auth.2fa.setup',
        outcome: 'success',
      },
      tx,
    );
    return { token, user: sessionUser(user), recoveryCodes };
  });
}

/**
 * A code of the authenticator, or a recovery code (which resets 2FA: the answer says the setup comes
 * next). Refused while locked out, with the lockout's code once a wrong code locks the account.
 */
export async function verifySecondFactor(
  ctx: AppContext,
  auth: Auth,
  given: { code: string } | { recoveryCode: string },
  from: From,
) {
  const user = auth.user;
  if (auth.kind !== 'signin') throw badRequest(secondStepTexts.alreadySignedIn);
  if (!user.totpEnabled) throw badRequest(secondStepTexts.twoFactorNotSetUp);
  const fail = async (code: 'invalidVerificationCode' | 'loginVerificationFailed') => {
    await ctx.audit({
      ...actedBy(user, from.ip),
      organisationId: user.organisationId,
      action: 'auth.2fa.verify',
      outcome: 'failure',
    });
    const fresh = await findUserById(ctx.db, user.id);
    return refusal(400, fresh && isLockedOut(fresh, ctx.now()) ? 'loginVerificationFailed' : code);
  };
  if (isLockedOut(user, ctx.now())) throw await fail('loginVerificationFailed');

  if ('recoveryCode' in given) {
    const result = await ctx.db.transaction(async (tx) => {
      if (!(await useRecoveryCode(ctx, tx, user, given.recoveryCode))) return undefined;
      await resetTwoFactor(tx, user.id);
      const token = await swapForSession(ctx, tx, auth, from);
      await ctx.audit(
        {
          ...actedBy(user, from.ip),
          organisationId: user.organisationId,
          action: 'auth.2fa.recovery',
          outcome: 'success',
          details: { twoFactorReset: true },
        },
        tx,
      );
      return token;
    });
    if (!result) throw await fail('invalidVerificationCode');
    return { token: result, user: sessionUser(user), requiresTwoFactorSetup: true };
  }

  if (!(await checkTotp(ctx, user, given.code))) throw await fail('invalidVerificationCode');
  const token = await ctx.db.transaction(async (tx) => {
    const issued = await swapForSession(ctx, tx, auth, from);
    await ctx.audit(
      {
        ...actedBy(user, from.ip),
        organisationId: user.organisationId,
        action: 'auth.2fa.verify',
        outcome: 'success',
      },
      tx,
    );
    return issued;
  });
  return { token, user: sessionUser(user), requiresTwoFactorSetup: false };
}
