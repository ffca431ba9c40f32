/**
 * Apollo auth: ASP.NET Core Identity's MapIdentityApi, with its status codes, ProblemDetails and
 * error codes (shared/spec/apollo-identity-contract.md).
 */
import type { AppContext } from '../../context.js';
import { bearerChallenge, HttpError, validationProblem } from '../../errors.js';
import { routes, session } from '../../http/contract.js';
import { changeAccountInfo, changeTwoFactor } from './account.js';
import { confirmEmail, requestConfirmationMail, requestPasswordReset, resetPasswordWithMailedCode } from './codes.js';
import { decodeCode } from './mails.js';
import { refreshSession, TOKEN_LIFETIME_MS } from './sessions.js';
import { type LoginRefusal, logIn } from './sign-in.js';
import { invalidEmail, isEmail } from './users.js';

const loginFailure = (detail: LoginRefusal) => new HttpError(401, 'Unauthorized', { detail });
/** A string field of a body the handler validates itself, or undefined. */
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A mailed code as the link carries it, decoded; undefined when it is not one. */
function mailedCode(code: unknown): string | undefined {
  if (typeof code !== 'string') return undefined;
  try {
    return decodeCode(code);
  } catch {
    return undefined;
  }
}

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
        const result = await logIn(ctx, body, { ip: rc.ip, userAgent: rc.request.headers['user-agent'] });
        if ('refused' in result) throw loginFailure(result.refused);
        return tokenAnswer(result);
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
        const done = await resetPasswordWithMailedCode(ctx, {
          email: isEmail(email) ? email : undefined,
          code: mailedCode(resetCode),
          newPassword,
          ip: rc.ip,
        });
        if (!done) throw validationProblem({ InvalidToken: ['Invalid token.'] });
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
