/**
 * Legacy auth: password, then the authenticator (QR setup on first sign-in, a code afterwards) or a
 * recovery code, which signs in and resets 2FA so that the user sets it up again.
 */
import type { AppContext } from '../../context.js';
import { passwordProblems, passwordRuleMessages } from '../../crypto/passwords.js';
import { badRequest, refusal } from '../../errors.js';
import { routes, session } from '../../http/contract.js';
import { currentUser } from './account.js';
import { signInActivity } from './activity.js';
import { confirmEmailLink, requestPasswordReset, resetPasswordWithCode } from './codes.js';
import { confirmAuthenticatorSetup, newAuthenticatorKey, verifySecondFactor } from './legacy-second-factor.js';
import { decodeCode } from './mails.js';
import { revokeOtherSessions } from './own-sessions.js';
import { signInWithPassword, signOut } from './sign-in.js';

const LEGACY_MESSAGES = {
  resetSent: 'If the address belongs to an account, a reset link is on its way.',
  resetDone: 'Your password has been changed. Please sign in.',
  resetInvalid: 'The reset link is invalid or has expired.',
  passwordsDiffer: 'The passwords do not match.',
} as const;

export function legacyIdentityRoutes(ctx: AppContext) {
  return routes({
    'legacy.auth.signin': {
      async handler({ body }, rc) {
        return signInWithPassword(ctx, body.email, body.password, rc.ip);
      },
    },

    'legacy.auth.logout': {
      // The body is ignored: a logout without one (a beacon, an empty JSON body) must still log out.
      validateBody: false,
      async handler(_args, rc) {
        await signOut(ctx, session(rc).auth, rc.ip);
        return undefined;
      },
    },

    'legacy.auth.verifyUser': {
      async handler(_args, rc) {
        const user = await currentUser(ctx, session(rc).auth);
        const token = (rc.request.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
        return { token, user };
      },
    },

    'legacy.auth.forgotPassword': {
      async handler({ body }, rc) {
        requestPasswordReset(ctx, body.email, 'legacy', rc.ip);
        return { message: LEGACY_MESSAGES.resetSent };
      },
    },

    'legacy.auth.resetPassword': {
      async handler({ token, body }, rc) {
        if (body.password !== body.confirmPassword) throw badRequest(LEGACY_MESSAGES.passwordsDiffer);
        const problems = passwordProblems(body.password);
        if (problems.length > 0) {
          throw badRequest(
            problems.map((p) => passwordRuleMessages[p]).join(' '),
            Object.fromEntries(problems.map((p) => [p, [passwordRuleMessages[p]]])),
          );
        }
        const user = await resetPasswordWithCode(ctx, { code: String(token), newPassword: body.password, ip: rc.ip });
        if (!user) throw badRequest(LEGACY_MESSAGES.resetInvalid);
        return { message: LEGACY_MESSAGES.resetDone };
      },
    },

    'legacy.auth.generateQr': {
      async handler(_args, rc) {
        return newAuthenticatorKey(ctx, session(rc).auth.user);
      },
    },

    'legacy.auth.qrcodeVerification': {
      async handler({ body }, rc) {
        return confirmAuthenticatorSetup(ctx, session(rc).auth, body.code, {
          ip: rc.ip,
          userAgent: rc.request.headers['user-agent'],
        });
      },
    },

    'legacy.auth.codeVerification': {
      async handler({ body }, rc) {
        return verifySecondFactor(ctx, session(rc).auth, body, {
          ip: rc.ip,
          userAgent: rc.request.headers['user-agent'],
        });
      },
    },

    'legacy.auth.activity': {
      async handler({ query }, rc) {
        return signInActivity(ctx, session(rc).auth, query?.page ?? 1, query?.pageSize ?? 20);
      },
    },

    'legacy.auth.revokeOtherSessions': {
      // Nothing to read from the body: a call without one signs the others out all the same.
      validateBody: false,
      async handler(_args, rc) {
        return { revoked: await revokeOtherSessions(ctx, session(rc).auth, rc.ip) };
      },
    },

    'legacy.auth.confirmEmail': {
      async handler({ body }, rc) {
        let token: string;
        try {
          token = decodeCode(body.code);
        } catch {
          throw refusal(400, 'confirmationLinkInvalid');
        }
        const result = await confirmEmailLink(ctx, {
          userId: body.userId,
          code: token,
          ...(body.changedEmail ? { changedEmail: body.changedEmail } : {}),
          ip: rc.ip,
        });
        if ('refused' in result) throw refusal(400, result.refused);
        return result;
      },
    },
  });
}
