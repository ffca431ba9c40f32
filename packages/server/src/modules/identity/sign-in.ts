/**
 * Signing in with a password: apollo's POST /login (the password and the second factor in one call,
 * answered with bearer tokens) and the legacy API's first step (the password, answered with a sign-in
 * token for the second step, legacy-second-factor.ts); and signing out.
 */

import type { LoginFailureDetail } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { refusal } from '../../errors.js';
import { checkPassword, isLockedOut, passwordSignInAllowed } from './password.js';
import { checkTotp, useRecoveryCode } from './second-factor.js';
import { type Auth, issueSession, issueToken } from './sessions.js';
import { revokeFamily } from './sessions-repository.js';
import { sessionUser, type User } from './users.js';
import { findUserById } from './users-repository.js';

/** Why apollo's POST /login refused, as ASP.NET's answer names it. */
export type LoginRefusal = LoginFailureDetail;

/** Where a sign-in comes from. */
interface From {
  ip: string;
  userAgent: string | undefined;
}

/**
 * Apollo's POST /login: the password, then the second factor the portal requires (a code of the
 * authenticator or a recovery code); an account that has not set one up signs in through the portal's
 * QR setup first. Answers the session's tokens, or why not (audited either way).
 */
export async function logIn(
  ctx: AppContext,
  given: { email: string; password: string; twoFactorCode?: string; twoFactorRecoveryCode?: string },
  from: From,
): Promise<{ accessToken: string; refreshToken: string } | { refused: LoginRefusal }> {
  const result = await checkPassword(ctx, given.email, given.password);
  const fail = async (detail: LoginRefusal, user?: User, step?: 'password') => {
    await ctx.audit({
      actorUserId: user?.id ?? null,
      actorEmail: given.email,
      organisationId: user?.organisationId ?? null,
      action: 'auth.login',
      outcome: 'failure',
      ip: from.ip,
      // `step` tells a wrong password from a wrong code, which the answer does not.
      details: { detail, ...(step ? { step } : {}) },
    });
    return { refused: detail };
  };
  if (result.outcome === 'failed') return fail('Failed', result.user, 'password');
  if (result.outcome === 'lockedOut') return fail('Lockedout', result.user);
  // ASP.NET's answer for an account that may not sign in: a deactivated one is such.
  if (result.outcome === 'notAllowed' || result.outcome === 'deactivated') return fail('NotAllowed', result.user);
  const { user } = result;
  if (!(await passwordSignInAllowed(ctx.db, user.organisationId))) return fail('NotAllowed', user);
  if (!user.totpEnabled) return fail('NotAllowed', user);
  if (given.twoFactorCode) {
    if (!(await checkTotp(ctx, user, given.twoFactorCode))) {
      const fresh = await findUserById(ctx.db, user.id);
      return fail(fresh && isLockedOut(fresh, ctx.now()) ? 'Lockedout' : 'Failed', user);
    }
  } else if (given.twoFactorRecoveryCode) {
    const ok = await ctx.db.transaction((tx) => useRecoveryCode(ctx, tx, user, given.twoFactorRecoveryCode ?? ''));
    if (!ok) return fail('Failed', user);
  } else {
    return fail('RequiresTwoFactor', user);
  }
  await ctx.audit({
    ...actedBy(user, from.ip),
    organisationId: user.organisationId,
    action: 'auth.login',
    outcome: 'success',
    details: { recoveryCode: Boolean(given.twoFactorRecoveryCode) },
  });
  return ctx.db.transaction((tx) =>
    issueSession(tx, ctx.now(), user.id, from.ip, undefined, undefined, from.userAgent),
  );
}

/**
 * The legacy sign-in's first step: the password. Answers a sign-in token for the second step and
 * which one it is (the authenticator's setup, or a code). An unknown address and a wrong password are
 * refused alike, so sign-in does not reveal accounts; audited either way.
 */
export async function signInWithPassword(ctx: AppContext, email: string, password: string, ip: string) {
  const result = await checkPassword(ctx, email, password);
  if (result.outcome !== 'success') {
    const { user } = result;
    await ctx.audit({
      actorUserId: user?.id ?? null,
      actorEmail: email,
      organisationId: user?.organisationId ?? null,
      action: 'auth.signin',
      outcome: 'failure',
      ip,
      details: { reason: result.outcome },
    });
    if (result.outcome === 'failed') throw refusal(401, 'invalidCredentials');
    if (result.outcome === 'lockedOut') throw refusal(401, 'accountLocked');
    if (result.outcome === 'deactivated') throw refusal(403, 'accountDeactivated');
    // Only after the right password: the address's owner is told to open the mailed link.
    throw refusal(403, 'emailNotConfirmed');
  }
  const { user } = result;
  if (!(await passwordSignInAllowed(ctx.db, user.organisationId))) {
    await ctx.audit({
      actorUserId: user.id,
      actorEmail: user.email,
      organisationId: user.organisationId,
      action: 'auth.signin',
      outcome: 'failure',
      ip,
      details: { reason: 'passwordSignInOff' },
    });
    throw refusal(403, 'passwordSignInOff');
  }
  const { token } = await ctx.db.transaction((tx) => issueToken(tx, ctx.now(), user.id, 'signin', undefined, ip));
  await ctx.audit({
    actorUserId: user.id,
    actorEmail: user.email,
    organisationId: user.organisationId,
    action: 'auth.signin',
    outcome: 'success',
    ip,
    details: { step: 'password' },
  });
  return {
    token,
    user: sessionUser(user),
    twoFactor: user.totpEnabled ? ('verify' as const) : ('setup' as const),
  };
}

/** Signs the session out: every token of its family ends; audited. */
export async function signOut(ctx: AppContext, auth: Auth, ip: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await revokeFamily(tx, ctx.now(), auth.family);
    await ctx.audit(
      {
        actorUserId: auth.user.id,
        actorEmail: auth.user.email,
        organisationId: auth.user.organisationId,
        action: 'auth.logout',
        outcome: 'success',
        ip,
      },
      tx,
    );
  });
}
