/**
 * Apollo auth: ASP.NET Core Identity's MapIdentityApi, with its status codes, ProblemDetails and
 * error codes (shared/spec/apollo-identity-contract.md).
 */
import type { AppContext } from '../../context.js';
import { hashPassword, verifyPassword } from '../../crypto/passwords.js';
import { sha256 } from '../../crypto/tokens.js';
import { routes, session } from '../../http/contract.js';
import { bearerChallenge, HttpError, validationProblem } from '../../http/errors.js';
import { createOrganisation } from '../organisations/repository.js';
import {
  assertPasswordRules,
  authenticatorKey,
  checkPassword,
  checkTotp,
  consumeOneTimeCode,
  countRecoveryCodes,
  isLockedOut,
  issueOneTimeCode,
  newId,
  peekOneTimeCode,
  replaceRecoveryCodes,
  resetAuthenticatorKey,
  setPassword,
  useRecoveryCode,
} from './service.js';
import { issueSession, TOKEN_LIFETIME_MS } from './sessions.js';
import { findUserByEmail, findUserById, insertUser, normaliseEmail, type User } from './users.js';

/** Like .NET's EmailAddressAttribute: one @, not first or last. */
const isEmail = (email: unknown): email is string =>
  typeof email === 'string' && /^[^@\s]+@[^@\s]+$/.test(email) && email.length <= 254;
const invalidEmail = (email: unknown) =>
  validationProblem({ InvalidEmail: [`Email '${String(email ?? '')}' is invalid.`] });
const loginFailure = (detail: 'Failed' | 'Lockedout' | 'NotAllowed' | 'RequiresTwoFactor') =>
  new HttpError(401, 'Unauthorized', { detail });
/** Mailed codes are base64url of the stored token, as ASP.NET encodes them. */
const encodeCode = (token: string) => Buffer.from(token, 'utf8').toString('base64url');
const decodeCode = (code: string) => Buffer.from(code, 'base64url').toString('utf8');

async function sendConfirmation(ctx: AppContext, user: User, email: string, isChange: boolean) {
  const code = encodeCode(
    await issueOneTimeCode(ctx, user.id, 'confirm', isChange ? normaliseEmail(email) : undefined),
  );
  const query = new URLSearchParams({ userId: user.id, code, ...(isChange ? { changedEmail: email } : {}) });
  const link = `${ctx.config.publicUrl}/apollo-beta/confirmEmail?${query}`;
  await ctx.mailer.send({
    to: email,
    subject: 'Confirm your email',
    text: `Confirm your email address: ${link}`,
    link,
  });
}

async function tokenResponse(ctx: AppContext, user: User, ip: string) {
  const tokens = await ctx.db.transaction((tx) => issueSession(tx, ctx.now(), user.id, ip));
  return {
    tokenType: 'Bearer' as const,
    accessToken: tokens.accessToken,
    expiresIn: TOKEN_LIFETIME_MS.access / 1000,
    refreshToken: tokens.refreshToken,
  };
}

export function apolloIdentityRoutes(ctx: AppContext) {
  const rate = ctx.config.authRateLimit;
  return routes({
    'apollo.auth.register': {
      access: 'public',
      rateLimit: rate,
      validateBody: false,
      async handler({ body }, rc) {
        const { email, password } = (body ?? {}) as { email?: unknown; password?: unknown };
        if (!isEmail(email)) throw invalidEmail(email);
        assertPasswordRules(typeof password === 'string' ? password : '');
        if (await findUserByEmail(ctx.db, email)) {
          throw validationProblem({ DuplicateUserName: [`Username '${email}' is already taken.`] });
        }
        const passwordHash = await hashPassword(password as string);
        const user = await ctx.db.transaction(async (tx) => {
          // Self-registration starts a customer organisation of its own on a trial licence.
          const domain = email.split('@')[1] ?? email;
          const { organisation } = await createOrganisation(tx, { name: domain, kind: 'customer', license: 'trial' });
          const id = newId();
          await insertUser(tx, {
            id,
            email,
            displayName: email,
            passwordHash,
            role: 'admin',
            organisationId: organisation.id,
            emailConfirmed: false,
          });
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
        if (user) await sendConfirmation(ctx, user, user.email, false);
        return undefined;
      },
    },

    'apollo.auth.login': {
      access: 'public',
      rateLimit: rate,
      async handler({ body, query }, rc) {
        if (query?.useCookies || query?.useSessionCookies) {
          throw new HttpError(400, 'Cookie sign-in is not offered by this server; use the bearer tokens.');
        }
        const result = await checkPassword(ctx, body.email, body.password);
        const fail = async (detail: 'Failed' | 'Lockedout' | 'NotAllowed' | 'RequiresTwoFactor', user?: User) => {
          await ctx.audit({
            actorUserId: user?.id ?? null,
            actorEmail: body.email,
            organisationId: user?.organisationId ?? null,
            action: 'auth.login',
            outcome: 'failure',
            ip: rc.ip,
            details: { detail },
          });
          return loginFailure(detail);
        };
        if (result.outcome === 'failed') throw await fail('Failed');
        if (result.outcome === 'lockedOut') throw await fail('Lockedout', result.user);
        if (result.outcome === 'notAllowed') throw await fail('NotAllowed', result.user);
        const { user } = result;
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
          actorUserId: user.id,
          actorEmail: user.email,
          organisationId: user.organisationId,
          action: 'auth.login',
          outcome: 'success',
          ip: rc.ip,
          details: { recoveryCode: Boolean(body.twoFactorRecoveryCode) },
        });
        return tokenResponse(ctx, user, rc.ip);
      },
    },

    'apollo.auth.refresh': {
      access: 'public',
      rateLimit: rate,
      async handler({ body }, rc) {
        const hash = sha256(body.refreshToken);
        const result = await ctx.db.transaction(async (tx) => {
          const [row] = await tx.query<{ user_id: string; family: string }>(
            `update sessions set revoked_at = $2 where token_hash = $1 and kind = 'refresh' and revoked_at is null and expires_at > $2
             returning user_id, family`,
            [hash, ctx.now()],
          );
          if (!row) return undefined;
          const user = await findUserById(tx, row.user_id);
          if (!user || isLockedOut(user, ctx.now())) return undefined;
          return { user, tokens: await issueSession(tx, ctx.now(), user.id, rc.ip) };
        });
        if (!result) throw bearerChallenge();
        return {
          tokenType: 'Bearer' as const,
          accessToken: result.tokens.accessToken,
          expiresIn: TOKEN_LIFETIME_MS.access / 1000,
          refreshToken: result.tokens.refreshToken,
        };
      },
    },

    'apollo.auth.confirmEmail': {
      access: 'public',
      apiKey: false,
      rateLimit: rate,
      async handler({ query }, rc) {
        let token: string;
        try {
          token = decodeCode(query.code);
        } catch {
          throw new HttpError(401, 'Unauthorized', { emptyBody: true });
        }
        const changed = query.changedEmail ? normaliseEmail(query.changedEmail) : undefined;
        const user = await ctx.db.transaction(async (tx) => {
          const found = await consumeOneTimeCode(ctx, tx, token, 'confirm', query.userId, changed);
          if (!found) return undefined;
          if (changed) {
            const clash = await findUserByEmail(tx, changed);
            if (clash && clash.id !== found.id) return undefined;
            await tx.query('update users set email = $2, email_confirmed = true where id = $1', [found.id, changed]);
          } else {
            await tx.query('update users set email_confirmed = true where id = $1', [found.id]);
          }
          await ctx.audit(
            {
              actorUserId: found.id,
              actorEmail: changed ?? found.email,
              organisationId: found.organisationId,
              action: changed ? 'auth.email.change' : 'auth.email.confirm',
              outcome: 'success',
              ip: rc.ip,
            },
            tx,
          );
          return found;
        });
        if (!user) throw new HttpError(401, 'Unauthorized', { emptyBody: true });
        return 'Thank you for confirming your email.';
      },
    },

    'apollo.auth.resendConfirmationMail': {
      access: 'public',
      rateLimit: rate,
      validateBody: false,
      async handler({ body }) {
        const email = (body as { email?: unknown } | undefined)?.email;
        const user = isEmail(email) ? await findUserByEmail(ctx.db, email) : undefined;
        if (user && !user.emailConfirmed) await sendConfirmation(ctx, user, user.email, false);
        return undefined;
      },
    },

    'apollo.auth.forgotPassword': {
      access: 'public',
      rateLimit: rate,
      validateBody: false,
      async handler({ body }, rc) {
        const email = (body as { email?: unknown } | undefined)?.email;
        const user = isEmail(email) ? await findUserByEmail(ctx.db, email) : undefined;
        if (user?.emailConfirmed) {
          const resetCode = encodeCode(await issueOneTimeCode(ctx, user.id, 'reset'));
          await ctx.mailer.send({
            to: user.email,
            subject: 'Reset your password',
            text: `Your password reset code: ${resetCode}`,
          });
          await ctx.audit({
            actorUserId: user.id,
            actorEmail: user.email,
            organisationId: user.organisationId,
            action: 'auth.password.forgot',
            outcome: 'success',
            ip: rc.ip,
          });
        }
        return undefined;
      },
    },

    'apollo.auth.resetPassword': {
      access: 'public',
      rateLimit: rate,
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
        const done = await ctx.db.transaction(async (tx) => {
          if (!(await consumeOneTimeCode(ctx, tx, token, 'reset', user.id))) return false;
          await setPassword(ctx, tx, user.id, newPassword as string);
          await ctx.audit(
            {
              actorUserId: user.id,
              actorEmail: user.email,
              organisationId: user.organisationId,
              action: 'auth.password.reset',
              outcome: 'success',
              ip: rc.ip,
            },
            tx,
          );
          return true;
        });
        if (!done) throw invalidToken;
        return undefined;
      },
    },

    'apollo.auth.twoFactor': {
      access: 'session',
      rateLimit: rate,
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        if (body.enable === true) {
          if (body.resetSharedKey) {
            throw validationProblem({
              CannotResetSharedKeyAndEnable: [
                'Resetting the 2fa shared key must disable 2fa until a 2fa token based on the new shared key is validated.',
              ],
            });
          }
          if (!body.twoFactorCode) {
            throw validationProblem({
              RequiresTwoFactor: [
                'No 2fa token was provided by the request. A valid 2fa token is required to enable 2fa.',
              ],
            });
          }
          if (!(await checkTotp(ctx, user, body.twoFactorCode))) {
            throw validationProblem({
              InvalidTwoFactorCode: [
                'The 2fa token provided by the request was invalid. A valid 2fa token is required to enable 2fa.',
              ],
            });
          }
        }
        return ctx.db.transaction(async (tx) => {
          if (body.enable === true) await tx.query('update users set totp_enabled = true where id = $1', [user.id]);
          else if (body.enable === false || body.resetSharedKey) {
            await tx.query('update users set totp_enabled = false where id = $1', [user.id]);
          }
          let key = body.resetSharedKey ? await resetAuthenticatorKey(ctx, tx, user) : authenticatorKey(ctx, user);
          let recoveryCodes: string[] | undefined;
          if (body.resetRecoveryCodes || (body.enable === true && (await countRecoveryCodes(tx, user.id)) === 0)) {
            recoveryCodes = await replaceRecoveryCodes(tx, user.id);
          }
          if (!key) {
            key = await resetAuthenticatorKey(ctx, tx, user);
            // Creating the missing key must not switch off a second factor that an enable just switched on.
            if (body.enable === true) await tx.query('update users set totp_enabled = true where id = $1', [user.id]);
          }
          const [state] = await tx.query<{ totp_enabled: boolean }>('select totp_enabled from users where id = $1', [
            user.id,
          ]);
          const enabled = state?.totp_enabled ?? false;
          if (body.enable !== undefined || body.resetSharedKey || body.resetRecoveryCodes) {
            await ctx.audit(
              {
                actorUserId: user.id,
                actorEmail: user.email,
                organisationId: user.organisationId,
                action: 'auth.2fa.change',
                outcome: 'success',
                ip: rc.ip,
                details: { enabled, resetSharedKey: body.resetSharedKey, resetRecoveryCodes: Boolean(recoveryCodes) },
              },
              tx,
            );
          }
          return {
            sharedKey: key,
            recoveryCodesLeft: recoveryCodes?.length ?? (await countRecoveryCodes(tx, user.id)),
            ...(recoveryCodes ? { recoveryCodes } : {}),
            isTwoFactorEnabled: enabled,
            isMachineRemembered: false,
          };
        });
      },
    },

    'apollo.auth.info': {
      access: 'session',
      rateLimit: rate,
      async handler(_args, rc) {
        const { user } = session(rc).auth;
        return { email: user.email, isEmailConfirmed: user.emailConfirmed };
      },
    },

    'apollo.auth.updateInfo': {
      access: 'session',
      rateLimit: rate,
      validateBody: false,
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const { newEmail, newPassword, oldPassword } = (body ?? {}) as Record<string, unknown>;
        if (newEmail && !isEmail(newEmail)) throw invalidEmail(newEmail);
        if (typeof newPassword === 'string' && newPassword) {
          if (typeof oldPassword !== 'string' || !oldPassword) {
            throw validationProblem({
              OldPasswordRequired: [
                'The old password is required to set a new password. If the old password is forgotten, use /resetPassword.',
              ],
            });
          }
          if (!(await verifyPassword(user.passwordHash, oldPassword))) {
            throw validationProblem({ PasswordMismatch: ['Incorrect password.'] });
          }
          assertPasswordRules(newPassword);
          await ctx.db.transaction(async (tx) => {
            await tx.query('update users set password_hash = $2 where id = $1', [
              user.id,
              await hashPassword(newPassword),
            ]);
            await ctx.audit(
              {
                actorUserId: user.id,
                actorEmail: user.email,
                organisationId: user.organisationId,
                action: 'auth.password.change',
                outcome: 'success',
                ip: rc.ip,
              },
              tx,
            );
          });
        }
        if (isEmail(newEmail) && normaliseEmail(newEmail) !== user.email)
          await sendConfirmation(ctx, user, newEmail, true);
        return { email: user.email, isEmailConfirmed: user.emailConfirmed };
      },
    },
  });
}
