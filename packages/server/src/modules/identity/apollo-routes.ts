import { actedBy } from '../../audit/audit-by.js';
/**
 * Apollo auth: ASP.NET Core Identity's MapIdentityApi, with its status codes, ProblemDetails and
 * error codes (shared/spec/apollo-identity-contract.md).
 */
import type { AppContext } from '../../context.js';
import { bearerChallenge, HttpError, validationProblem } from '../../errors.js';
import { routes, session } from '../../http/contract.js';
import { passwordSignInAllowed } from './entra-tenants.js';
import { decodeCode } from './mails.js';
import {
  assertPasswordRules,
  changeAccountInfo,
  changeTwoFactor,
  checkPassword,
  checkTotp,
  confirmEmail,
  invalidEmail,
  isEmail,
  isLockedOut,
  peekOneTimeCode,
  refreshSession,
  requestConfirmationMail,
  requestPasswordReset,
  resetPasswordWithCode,
  useRecoveryCode,
} from './service.js';
import { issueSession, TOKEN_LIFETIME_MS } from './sessions.js';
import { findUserByEmail, findUserById, type User } from './users.js';

const loginFailure = (detail: 'Failed' | 'Lockedout' | 'NotAllowed' | 'RequiresTwoFactor') =>
  new HttpError(401, 'Unauthorized', { detail });
/** A string field of a body the handler validates itself, or undefined. */
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

function tokenAnswer(tokens: { accessToken: string; refreshToken: string }) {
  return {
    tokenType: 'Bearer' as const,
    accessToken: tokens.accessToken,
    expiresIn: TOKEN_LIFETIME_MS.access / 1000,
    refreshToken: tokens.refreshToken,
  };
}

export function apolloIdentityRoutes(ctx: AppContext) {
  return routes({
    'apollo.auth.login': {
      async handler({ body, query }, rc) {
        if (query?.useCookies || query?.useSessionCookies) {
          throw new HttpError(400, 'Cookie sign-in is not offered by this server; use the bearer tokens.');
        }
        const result = await checkPassword(ctx, body.email, body.password);
        const fail = async (
          detail: 'Failed' | 'Lockedout' | 'NotAllowed' | 'RequiresTwoFactor',
          user?: User,
          step?: 'password',
        ) => {
          await ctx.audit({
            actorUserId: user?.id ?? null,
            actorEmail: body.email,
            organisationId: user?.organisationId ?? null,
            action: 'auth.login',
            outcome: 'failure',
            ip: rc.ip,
            // `step` tells a wrong password from a wrong code, which the answer does not.
            details: { detail, ...(step ? { step } : {}) },
          });
          return loginFailure(detail);
        };
        if (result.outcome === 'failed') throw await fail('Failed', result.user, 'password');
        if (result.outcome === 'lockedOut') throw await fail('Lockedout', result.user);
        // ASP.NET's answer for an account that may not sign in: a deactivated one is such.
        if (result.outcome === 'notAllowed' || result.outcome === 'deactivated') {
          throw await fail('NotAllowed', result.user);
        }
        const { user } = result;
        if (!(await passwordSignInAllowed(ctx.db, user.organisationId))) throw await fail('NotAllowed', user);
        // The portal requires a second factor; an account that has not set one up signs in through
        // the portal's QR setup first.
        if (!user.totpEnabled) throw await fail('NotAllowed', user);
        if (body.twoFactorCode) {
          if (!(await checkTotp(ctx, user, body.twoFactorCode))) {
            const fresh = await findUserById(ctx.db, user.id);
            throw await fail(fresh && isLockedOut(fresh, ctx.now()) ? 'Lockedout' : 'Failed', user);
          }
        } else if (body.twoFactorRecoveryCode) {
          const ok = await ctx.db.transaction((tx) => useRecoveryCode(ctx, tx, user, body.twoFactorRecoveryCode ?? ''));
          if (!ok) throw await fail('Failed', user);
        } else {
          throw await fail('RequiresTwoFactor', user);
        }
        await ctx.audit({
          ...actedBy(user, rc.ip),
          organisationId: user.organisationId,
          action: 'auth.login',
          outcome: 'success',
          details: { recoveryCode: Boolean(body.twoFactorRecoveryCode) },
        });
        return tokenAnswer(
          await ctx.db.transaction((tx) =>
            issueSession(tx, ctx.now(), user.id, rc.ip, undefined, undefined, rc.request.headers['user-agent']),
          ),
        );
      },
    },

    'apollo.auth.refresh': {
      async handler({ body }, rc) {
        const tokens = await refreshSession(ctx, body.refreshToken, rc.ip);
        if (!tokens) throw bearerChallenge();
        return tokenAnswer(tokens);
      },
    },

    'apollo.auth.confirmEmail': {
      async handler({ query }, rc) {
        let token: string;
        try {
          token = decodeCode(query.code);
        } catch {
          throw new HttpError(401, 'Unauthorized', { emptyBody: true });
        }
        const confirmed = await confirmEmail(ctx, {
          userId: query.userId,
          code: token,
          ...(query.changedEmail ? { changedEmail: query.changedEmail } : {}),
          ip: rc.ip,
        });
        if (!confirmed) throw new HttpError(401, 'Unauthorized', { emptyBody: true });
        return 'Thank you for confirming your email.';
      },
    },

    'apollo.auth.resendConfirmationMail': {
      validateBody: false,
      async handler({ body }) {
        const email = (body as { email?: unknown } | undefined)?.email;
        if (isEmail(email)) requestConfirmationMail(ctx, email);
        return undefined;
      },
    },

    'apollo.auth.forgotPassword': {
      validateBody: false,
      async handler({ body }, rc) {
        const email = (body as { email?: unknown } | undefined)?.email;
        if (isEmail(email)) requestPasswordReset(ctx, email, 'apollo', rc.ip);
        return undefined;
      },
    },

    'apollo.auth.resetPassword': {
      validateBody: false,
      async handler({ body }, rc) {
        const { email, resetCode, newPassword } = (body ?? {}) as Record<string, unknown>;
        const invalidToken = validationProblem({ InvalidToken: ['Invalid token.'] });
        const user = isEmail(email) ? await findUserByEmail(ctx.db, email) : undefined;
        if (!user?.emailConfirmed || typeof resetCode !== 'string') throw invalidToken;
        let token: string;
        try {
          token = decodeCode(resetCode);
        } catch {
          throw invalidToken;
        }
        if (!(await peekOneTimeCode(ctx, token, 'reset', user.id))) throw invalidToken;
        assertPasswordRules(typeof newPassword === 'string' ? newPassword : '');
        const done = await resetPasswordWithCode(ctx, {
          code: token,
          userId: user.id,
          newPassword: newPassword as string,
          ip: rc.ip,
        });
        if (!done) throw invalidToken;
        return undefined;
      },
    },

    'apollo.auth.twoFactor': {
      async handler({ body }, rc) {
        return changeTwoFactor(ctx, session(rc).auth, body, rc.ip);
      },
    },

    'apollo.auth.info': {
      async handler(_args, rc) {
        const { user } = session(rc).auth;
        return { email: user.email, isEmailConfirmed: user.emailConfirmed };
      },
    },

    'apollo.auth.updateInfo': {
      validateBody: false,
      async handler({ body }, rc) {
        const { newEmail, newPassword, oldPassword, twoFactorCode, twoFactorRecoveryCode } = (body ?? {}) as Record<
          string,
          unknown
        >;
        if (newEmail && !isEmail(newEmail)) throw invalidEmail(newEmail);
        return changeAccountInfo(
          ctx,
          session(rc).auth,
          {
            newEmail: text(newEmail),
            newPassword: text(newPassword),
            oldPassword: text(oldPassword),
            twoFactorCode: text(twoFactorCode),
            twoFactorRecoveryCode: text(twoFactorRecoveryCode),
          },
          rc.ip,
        );
      },
    },
  });
}
