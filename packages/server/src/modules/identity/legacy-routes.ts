/**
 * Legacy auth: password, then the authenticator (QR setup on first sign-in, a code afterwards) or a
 * recovery code, which signs in and resets 2FA so that the user sets it up again.
 */
import { errorTexts } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { passwordProblems, passwordRuleMessages } from '../../crypto/passwords.js';
import { routes, session } from '../../http/contract.js';
import { badRequest, conflict, refusal } from '../../http/errors.js';
import { listSignInEvents } from './activity.js';
import { confirmEmailLink, requestPasswordReset, resetPasswordWithCode } from './codes.js';
import { decodeCode } from './mails.js';
import { checkPassword, isLockedOut, passwordSignInAllowed } from './password.js';
import {
  authenticatorUri,
  checkTotp,
  replaceRecoveryCodes,
  resetAuthenticatorKey,
  resetTwoFactor,
  useRecoveryCode,
} from './second-factor.js';
import { enableTwoFactorOnce } from './second-factor-repository.js';
import { issueToken, revokeAllForUser } from './sessions.js';
import { countOtherSessions, revokeFamily, revokeToken } from './sessions-repository.js';
import { sessionUser } from './users.js';
import { findUserById } from './users-repository.js';

const LEGACY_MESSAGES = {
  invalidCredentials: errorTexts.invalidCredentials(),
  userDoesNotExist: errorTexts.userDoesNotExist(),
  invalidCode: errorTexts.invalidVerificationCode(),
  verificationFailed: errorTexts.loginVerificationFailed(),
  lockedOut: errorTexts.accountLocked(),
  resetSent: 'If the address belongs to an account, a reset link is on its way.',
  resetDone: 'Your password has been changed. Please sign in.',
  resetInvalid: 'The reset link is invalid or has expired.',
  passwordsDiffer: 'The passwords do not match.',
} as const;

export function legacyIdentityRoutes(ctx: AppContext) {
  const audit = ctx.audit;

  return routes({
    'legacy.auth.signin': {
      async handler({ body }, rc) {
        const result = await checkPassword(ctx, body.email, body.password);
        if (result.outcome !== 'success') {
          const { user } = result;
          await audit({
            actorUserId: user?.id ?? null,
            actorEmail: body.email,
            organisationId: user?.organisationId ?? null,
            action: 'auth.signin',
            outcome: 'failure',
            ip: rc.ip,
            details: { reason: result.outcome },
          });
          // An unknown address and a wrong password read the same, so sign-in does not reveal accounts.
          if (result.outcome === 'failed') throw refusal(401, 'invalidCredentials');
          if (result.outcome === 'lockedOut') throw refusal(401, 'accountLocked');
          if (result.outcome === 'deactivated') throw refusal(403, 'accountDeactivated');
          // Only after the right password: the address's owner is told to open the mailed link.
          throw refusal(403, 'emailNotConfirmed');
        }
        const { user } = result;
        if (!(await passwordSignInAllowed(ctx.db, user.organisationId))) {
          await audit({
            actorUserId: user.id,
            actorEmail: user.email,
            organisationId: user.organisationId,
            action: 'auth.signin',
            outcome: 'failure',
            ip: rc.ip,
            details: { reason: 'passwordSignInOff' },
          });
          throw refusal(403, 'passwordSignInOff');
        }
        const { token } = await ctx.db.transaction((tx) =>
          issueToken(tx, ctx.now(), user.id, 'signin', undefined, rc.ip),
        );
        await audit({
          actorUserId: user.id,
          actorEmail: user.email,
          organisationId: user.organisationId,
          action: 'auth.signin',
          outcome: 'success',
          ip: rc.ip,
          details: { step: 'password' },
        });
        return {
          token,
          user: sessionUser(user),
          twoFactor: user.totpEnabled ? ('verify' as const) : ('setup' as const),
        };
      },
    },

    'legacy.auth.logout': {
      // The body is ignored: a logout without one (a beacon, an empty JSON body) must still log out.
      validateBody: false,
      async handler(_args, rc) {
        const { auth } = session(rc);
        await ctx.db.transaction(async (tx) => {
          await revokeFamily(tx, ctx.now(), auth.family);
          await audit(
            {
              actorUserId: auth.user.id,
              actorEmail: auth.user.email,
              organisationId: auth.user.organisationId,
              action: 'auth.logout',
              outcome: 'success',
              ip: rc.ip,
            },
            tx,
          );
        });
        return undefined;
      },
    },

    'legacy.auth.verifyUser': {
      async handler(_args, rc) {
        const { auth } = session(rc);
        const user = await findUserById(ctx.db, auth.user.id);
        if (!user) throw refusal(404, 'userDoesNotExist');
        const token = (rc.request.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
        return { token, user: sessionUser(user) };
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
        const { user } = session(rc).auth;
        // With 2FA on, a password alone must never be enough to replace the authenticator.
        if (user.totpEnabled) throw conflict('Two-factor authentication is already set up.');
        const key = await ctx.db.transaction((tx) => resetAuthenticatorKey(ctx, tx, user));
        return { otpauthUri: authenticatorUri(ctx, user, key), key };
      },
    },

    'legacy.auth.qrcodeVerification': {
      async handler({ body }, rc) {
        const { auth } = session(rc);
        const user = auth.user;
        if (user.totpEnabled) throw conflict('Two-factor authentication is already set up.');
        if (!user.totpSecret) throw badRequest('Generate a QR code first.');
        if (!(await checkTotp(ctx, user, body.code))) {
          await audit({
            actorUserId: user.id,
            actorEmail: user.email,
            organisationId: user.organisationId,
            action: 'auth.2fa.setup',
            outcome: 'failure',
            ip: rc.ip,
          });
          throw refusal(400, 'invalidVerificationCode');
        }
        return ctx.db.transaction(async (tx) => {
          // Codes of neighbouring time steps are all valid: of several sent at once, only the first to
          // turn 2FA on sets it up (one set of recovery codes, one session); the others find it set up.
          if (!(await enableTwoFactorOnce(tx, user.id))) throw conflict('Two-factor authentication is already set up.');
          const recoveryCodes = await replaceRecoveryCodes(tx, user.id);
          await revokeToken(tx, ctx.now(), auth.tokenHash);
          const { token } = await issueToken(
            tx,
            ctx.now(),
            user.id,
            'session',
            undefined,
            rc.ip,
            undefined,
            rc.request.headers['user-agent'],
          );
          await audit(
            {
              actorUserId: user.id,
              actorEmail: user.email,
              organisationId: user.organisationId,
              action: 'auth.2fa.setup',
              outcome: 'success',
              ip: rc.ip,
            },
            tx,
          );
          return { token, user: sessionUser(user), recoveryCodes };
        });
      },
    },

    'legacy.auth.codeVerification': {
      async handler({ body }, rc) {
        const { auth } = session(rc);
        const user = auth.user;
        if (auth.kind !== 'signin') throw badRequest('Already signed in.');
        if (!user.totpEnabled) throw badRequest('Two-factor authentication is not set up yet.');
        const fail = async (code: 'invalidVerificationCode' | 'loginVerificationFailed') => {
          await audit({
            actorUserId: user.id,
            actorEmail: user.email,
            organisationId: user.organisationId,
            action: 'auth.2fa.verify',
            outcome: 'failure',
            ip: rc.ip,
          });
          const fresh = await findUserById(ctx.db, user.id);
          return refusal(400, fresh && isLockedOut(fresh, ctx.now()) ? 'loginVerificationFailed' : code);
        };
        if (isLockedOut(user, ctx.now())) throw await fail('loginVerificationFailed');

        if ('recoveryCode' in body) {
          const result = await ctx.db.transaction(async (tx) => {
            if (!(await useRecoveryCode(ctx, tx, user, body.recoveryCode))) return undefined;
            await resetTwoFactor(tx, user.id);
            await revokeToken(tx, ctx.now(), auth.tokenHash);
            const { token } = await issueToken(
              tx,
              ctx.now(),
              user.id,
              'session',
              undefined,
              rc.ip,
              undefined,
              rc.request.headers['user-agent'],
            );
            await audit(
              {
                actorUserId: user.id,
                actorEmail: user.email,
                organisationId: user.organisationId,
                action: 'auth.2fa.recovery',
                outcome: 'success',
                ip: rc.ip,
                details: { twoFactorReset: true },
              },
              tx,
            );
            return token;
          });
          if (!result) throw await fail('invalidVerificationCode');
          return { token: result, user: sessionUser(user), requiresTwoFactorSetup: true };
        }

        if (!(await checkTotp(ctx, user, body.code))) throw await fail('invalidVerificationCode');
        const token = await ctx.db.transaction(async (tx) => {
          await revokeToken(tx, ctx.now(), auth.tokenHash);
          const issued = await issueToken(
            tx,
            ctx.now(),
            user.id,
            'session',
            undefined,
            rc.ip,
            undefined,
            rc.request.headers['user-agent'],
          );
          await audit(
            {
              actorUserId: user.id,
              actorEmail: user.email,
              organisationId: user.organisationId,
              action: 'auth.2fa.verify',
              outcome: 'success',
              ip: rc.ip,
            },
            tx,
          );
          return issued.token;
        });
        return { token, user: sessionUser(user), requiresTwoFactorSetup: false };
      },
    },

    'legacy.auth.activity': {
      async handler({ query }, rc) {
        const { auth } = session(rc);
        const page = query?.page ?? 1;
        const pageSize = query?.pageSize ?? 20;
        const [events, otherSessions] = await Promise.all([
          listSignInEvents(ctx.db, auth.user.id, page, pageSize),
          countOtherSessions(ctx.db, ctx.now(), auth.user.id, auth.family),
        ]);
        return { ...events, page, pageSize, otherSessions };
      },
    },

    'legacy.auth.revokeOtherSessions': {
      // Nothing to read from the body: a call without one signs the others out all the same.
      validateBody: false,
      async handler(_args, rc) {
        const { auth } = session(rc);
        const revoked = await ctx.db.transaction(async (tx) => {
          const ended = await revokeAllForUser(tx, ctx.now(), auth.user.id, auth.family);
          await audit(
            {
              actorUserId: auth.user.id,
              actorEmail: auth.user.email,
              organisationId: auth.user.organisationId,
              action: 'auth.sessions.revokeOthers',
              outcome: 'success',
              ip: rc.ip,
              details: { revoked: ended },
            },
            tx,
          );
          return ended;
        });
        return { revoked };
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
