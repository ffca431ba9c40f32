import { actedBy } from '../../audit/audit-by.js';
/**
 * Apollo auth: ASP.NET Core Identity's MapIdentityApi, with its status codes, ProblemDetails and
 * error codes (shared/spec/apollo-identity-contract.md).
 */
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import { routes, session } from '../../http/contract.js';
import { bearerChallenge, HttpError, validationProblem } from '../../http/errors.js';
import { createOrganisation } from '../organisations/repository.js';
import { runAfterResponse } from './background.js';
import { passwordSignInAllowed } from './entra-tenants.js';
import { decodeCode, mailConfirmation } from './mails.js';
import { assertPasswordRules, checkPassword, isLockedOut } from './password.js';
import { assertStillOpen, registrationClosed, selfRegistrationOpen } from './registration.js';
import { checkTotp, useRecoveryCode } from './second-factor.js';
import {
  changeAccountInfo,
  changeTwoFactor,
  confirmEmail,
  issueOneTimeCode,
  newId,
  peekOneTimeCode,
  refreshSession,
  requestConfirmationMail,
  requestPasswordReset,
  resetPasswordWithCode,
} from './service.js';
import { issueSession, TOKEN_LIFETIME_MS } from './sessions.js';
import type { User } from './users.js';
import { findUserByEmail, findUserById, insertUser } from './users-repository.js';

/** Like .NET's EmailAddressAttribute: one @, not first or last. */
const isEmail = (email: unknown): email is string =>
  typeof email === 'string' && /^[^@\s]+@[^@\s]+$/.test(email) && email.length <= 254;
const invalidEmail = (email: unknown) =>
  validationProblem({ InvalidEmail: [`Email '${String(email ?? '')}' is invalid.`] });
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
    'apollo.auth.register': {
      validateBody: false,
      async handler({ body }, rc) {
        // A closed portal refuses every registration alike, before looking at the address.
        if (!(await selfRegistrationOpen(ctx))) throw registrationClosed();
        const { email, password } = (body ?? {}) as { email?: unknown; password?: unknown };
        if (!isEmail(email)) throw invalidEmail(email);
        assertPasswordRules(typeof password === 'string' ? password : '');
        // The contract answers a taken address with DuplicateUserName; a taken and a free one cost the
        // same work before the answer all the same: the password is hashed for both, the confirmation
        // mail leaves after the answer.
        const passwordHash = await hashPassword(password as string);
        const duplicate = () => validationProblem({ DuplicateUserName: [`Username '${email}' is already taken.`] });
        if (await findUserByEmail(ctx.db, email)) throw duplicate();
        const user = await ctx.db.transaction(async (tx) => {
          await assertStillOpen(ctx, tx);
          // Self-registration starts a customer organisation of its own on a trial licence.
          const domain = email.split('@')[1] ?? email;
          const { organisation } = await createOrganisation(tx, { name: domain, kind: 'customer', license: 'trial' });
          const id = newId();
          const stored = await insertUser(tx, {
            id,
            email,
            displayName: email,
            passwordHash,
            role: 'admin',
            organisationId: organisation.id,
            emailConfirmed: false,
          });
          // A concurrent registration of the address won the unique index: thrown, so that the
          // organisation made for this one is rolled back with it.
          if (!stored) throw duplicate();
          await ctx.audit(
            {
              actorUserId: id,
              actorEmail: email,
              organisationId: organisation.id,
              action: 'auth.register',
              outcome: 'success',
              ip: rc.ip,
            },
            tx,
          );
          return findUserById(tx, id);
        });
        if (user) {
          runAfterResponse(ctx, 'confirmation mail', async () =>
            mailConfirmation(ctx, user, user.email, await issueOneTimeCode(ctx, user.id, 'confirm')),
          );
        }
        return undefined;
      },
    },

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
