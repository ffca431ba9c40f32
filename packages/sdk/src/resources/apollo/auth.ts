/**
 * Apollo auth: ASP.NET Core Identity's `MapIdentityApi` endpoint set, exactly as
 * shared/spec/apollo-identity-contract.md describes it. JSON is camelCase.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';

/** Schema of the body of `POST /register`. */
export const RegisterRequest = s.object({ email: s.email(), password: s.string({ minLength: 1 }) });
/**
 * A new account's email and password. `register` answers 200 without a body; a taken email
 * (`DuplicateUserName`), an invalid one or a password that breaks the rules is refused with a
 * validation problem (400). A server that does not let people sign up by themselves refuses every
 * registration with a validation problem whose error is `RegistrationClosed` (and whose `code` is
 * `registrationClosed`), as an ASP.NET Identity user validator would.
 */
export type RegisterRequest = s.Static<typeof RegisterRequest>;

/** Schema of the body of `POST /login`. */
export const LoginRequest = s.object({
  email: s.email(),
  password: s.string({ minLength: 1 }),
  twoFactorCode: s.optional(s.string({ description: 'The current TOTP code, when two-factor sign-in is on.' })),
  twoFactorRecoveryCode: s.optional(s.string({ description: 'A recovery code, instead of a TOTP code.' })),
});
/**
 * The credentials of an apollo sign-in: email and password, plus the current authenticator code (or a
 * recovery code) when the account has two-factor sign-in on. Without one, such an account is refused
 * with 401 and the detail `RequiresTwoFactor`.
 */
export type LoginRequest = s.Static<typeof LoginRequest>;

/** Schema of the query of `POST /login`. */
export const LoginQuery = s.object({
  useCookies: s.optional(s.boolean('Answer with a cookie instead of tokens.')),
  useSessionCookies: s.optional(s.boolean('With useCookies: a session cookie rather than a persistent one.')),
});
/**
 * Asks `/login` for an authentication cookie instead of tokens: `useCookies` for a persistent cookie,
 * with `useSessionCookies` a session cookie. Leave both out for bearer tokens; a server that offers
 * tokens only (as the reference server) refuses either flag with 400.
 */
export type LoginQuery = s.Static<typeof LoginQuery>;

/** Schema of the tokens `POST /login` and `POST /refresh` answer. */
export const AccessTokenResponse = s.object({
  tokenType: s.literal('Bearer'),
  accessToken: s.string(),
  expiresIn: s.integer({ description: 'Seconds; 3600.' }),
  refreshToken: s.string({ description: 'Valid for 14 days.' }),
});
/**
 * The tokens of an apollo session: `accessToken`, sent as `Authorization: Bearer` and valid for
 * `expiresIn` seconds (3600), and `refreshToken`, valid for 14 days, which `refresh` exchanges for new
 * tokens.
 */
export type AccessTokenResponse = s.Static<typeof AccessTokenResponse>;

/** Schema of the body of `POST /refresh`. */
export const RefreshRequest = s.object({ refreshToken: s.string({ minLength: 1 }) });
/**
 * The refresh token of an earlier `login` or `refresh`; an expired or unknown one is refused with 401
 * and an empty body.
 */
export type RefreshRequest = s.Static<typeof RefreshRequest>;

/** Schema of the query of `GET /confirmEmail`, as the confirmation mail's link carries it. */
export const ConfirmEmailQuery = s.object({
  userId: s.string({ minLength: 1 }),
  code: s.string({ minLength: 1, description: 'base64url of the confirmation token.' }),
  changedEmail: s.optional(s.email()),
});
/**
 * The parameters of an email confirmation link: the user, the confirmation `code` (valid for one day)
 * and, when an address change is being confirmed, the new address (`changedEmail`).
 */
export type ConfirmEmailQuery = s.Static<typeof ConfirmEmailQuery>;

/** Schema of the body of `POST /resendConfirmationMail` and `POST /forgotPassword`. */
export const EmailRequest = s.object({ email: s.email() });
/**
 * The address to send a confirmation mail or a password reset code to. Both calls answer 200 for any
 * address, so they never reveal whether an account exists.
 */
export type EmailRequest = s.Static<typeof EmailRequest>;

/** Schema of the body of `POST /resetPassword`. */
export const ResetPasswordRequest = s.object({
  email: s.email(),
  resetCode: s.string({ minLength: 1 }),
  newPassword: s.string({ minLength: 1 }),
});
/**
 * A new password with the reset code that `forgotPassword` mailed (valid for one day). A wrong or used
 * code is refused with a validation problem (400, `InvalidToken`), as is a password that breaks the
 * rules.
 */
export type ResetPasswordRequest = s.Static<typeof ResetPasswordRequest>;

/**
 * ASP.NET's body, with `oldPassword` and `twoFactorRecoveryCode` added: while 2FA is on, a key reset,
 * new recovery codes and `enable: false` need the current password and a current code (or a recovery
 * code), not a bearer token alone.
 */
export const TwoFactorRequest = s.object({
  enable: s.optional(s.boolean()),
  twoFactorCode: s.optional(s.string({ description: 'A current TOTP code: to enable 2FA, or to confirm a change.' })),
  twoFactorRecoveryCode: s.optional(
    s.string({ description: 'A recovery code, instead of a TOTP code, to confirm a change.' }),
  ),
  oldPassword: s.optional(s.string({ description: 'The current password, to confirm a change while 2FA is on.' })),
  resetSharedKey: s.boolean(),
  resetRecoveryCodes: s.boolean(),
  forgetMachine: s.boolean(),
});
export type TwoFactorRequest = s.Static<typeof TwoFactorRequest>;

/** Schema of the answer of `POST /manage/2fa`. */
export const TwoFactorResponse = s.object({
  sharedKey: s.nullable(
    s.string({
      description:
        '20 random bytes, base32, 32 characters; only while 2FA is off (enrolment, or after a key reset), null once it is on.',
    }),
  ),
  recoveryCodesLeft: s.integer({ minimum: 0 }),
  recoveryCodes: s.optional(s.array(s.string({ pattern: '^[2-9BCDFGHJKMNPQRTVWXY]{5}-[2-9BCDFGHJKMNPQRTVWXY]{5}$' }))),
  isTwoFactorEnabled: s.boolean(),
  isMachineRemembered: s.boolean(),
});
/**
 * The signed-in user's two-factor state: whether it is on, the authenticator key to enrol (`sharedKey`,
 * only while two-factor sign-in is off) and how many recovery codes are left. `recoveryCodes` is
 * present only when new ones were made (asked for, or on first enabling), and is shown this once.
 */
export type TwoFactorResponse = s.Static<typeof TwoFactorResponse>;

/** Schema of the answer of `GET /manage/info` and `POST /manage/info`. */
export const InfoResponse = s.object({ email: s.email(), isEmailConfirmed: s.boolean() });
/**
 * The signed-in user's email address and whether it is confirmed. After an email change it still names
 * the old address until the mailed link confirms the new one.
 */
export type InfoResponse = s.Static<typeof InfoResponse>;

/** ASP.NET's body; a new email needs `oldPassword` and, while 2FA is on, a code or a recovery code. */
export const InfoRequest = s.object({
  newEmail: s.optional(s.email()),
  newPassword: s.optional(s.string()),
  oldPassword: s.optional(s.string()),
  twoFactorCode: s.optional(s.string({ description: 'A current TOTP code, for an email change while 2FA is on.' })),
  twoFactorRecoveryCode: s.optional(s.string({ description: 'A recovery code, instead of a TOTP code.' })),
});
export type InfoRequest = s.Static<typeof InfoRequest>;

/** RFC 9457 problem details, as ASP.NET answers errors (content type application/problem+json). */
export const ProblemDetails = s.object({
  type: s.optional(s.string()),
  title: s.optional(s.string()),
  status: s.optional(s.integer()),
  detail: s.optional(s.string()),
  instance: s.optional(s.string()),
});
export type ProblemDetails = s.Static<typeof ProblemDetails> & Record<string, unknown>;

/** ProblemDetails with `errors`: validation code to messages. */
export type ValidationProblemDetails = ProblemDetails & { errors: Record<string, string[]> };

/** The `detail` of a 401 from /login. */
export type LoginFailureDetail = 'Failed' | 'Lockedout' | 'NotAllowed' | 'RequiresTwoFactor';

/**
 * The catalogue entries of apollo auth (ASP.NET Core Identity's endpoints: `/register`, `/login`,
 * `/refresh`, `/confirmEmail`, `/resendConfirmationMail`, `/forgotPassword`, `/resetPassword`,
 * `/manage/2fa`, `/manage/info`). {@link authApi} binds them.
 */
export const authEndpoints = defineResource('apollo', 'auth', {
  register: {
    method: 'POST',
    path: '/register',
    summary: 'Create an account',
    body: RegisterRequest,
    access: 'public',
    rateLimited: true,
  },
  login: {
    method: 'POST',
    access: 'public',
    rateLimited: true,
    refusals: {
      401: 'The sign-in refused; detail says why: Failed, Lockedout, RequiresTwoFactor, or NotAllowed (the email not confirmed, the account deactivated, its organisation signing in with Microsoft only, or no authenticator set up yet).',
    },
    path: '/login',
    summary: 'Sign in and receive bearer and refresh tokens',
    query: LoginQuery,
    body: LoginRequest,
    response: AccessTokenResponse,
  },
  refresh: {
    method: 'POST',
    access: 'public',
    rateLimited: true,
    refusals: {
      401: 'The refresh token is not valid: unknown, expired, already exchanged, or its session ended.',
      emptyBody401: 'challenge',
    },
    path: '/refresh',
    summary: 'Exchange a refresh token for new tokens',
    body: RefreshRequest,
    response: AccessTokenResponse,
  },
  confirmEmail: {
    method: 'GET',
    // A link opened from a mail: it can send no header, so the application key is not asked.
    auth: 'none',
    rateLimited: true,
    refusals: { 401: 'The link is not valid: no such user, or the code is wrong or used.', emptyBody401: 'empty' },
    path: '/confirmEmail',
    summary: 'Confirm an email address',
    query: ConfirmEmailQuery,
    response: s.string(),
    responseKind: 'text',
  },
  resendConfirmationMail: {
    method: 'POST',
    access: 'public',
    rateLimited: true,
    path: '/resendConfirmationMail',
    summary: 'Send the confirmation mail again (always 200)',
    body: EmailRequest,
  },
  forgotPassword: {
    method: 'POST',
    access: 'public',
    rateLimited: true,
    path: '/forgotPassword',
    summary: 'Send a password reset code (always 200)',
    body: EmailRequest,
  },
  resetPassword: {
    method: 'POST',
    access: 'public',
    rateLimited: true,
    path: '/resetPassword',
    summary: 'Set a new password with a reset code',
    body: ResetPasswordRequest,
  },
  twoFactor: {
    method: 'POST',
    rateLimited: true,
    path: '/manage/2fa',
    scope: 'caller',
    summary: 'Read or change two-factor settings',
    body: TwoFactorRequest,
    response: TwoFactorResponse,
  },
  info: {
    method: 'GET',
    path: '/manage/info',
    scope: 'caller',
    summary: "The signed-in user's email",
    response: InfoResponse,
    rateLimited: true,
  },
  updateInfo: {
    method: 'POST',
    rateLimited: true,
    path: '/manage/info',
    scope: 'caller',
    summary: "Change the signed-in user's email or password",
    body: InfoRequest,
    response: InfoResponse,
  },
});

/**
 * Binds apollo auth to a transport: registration, sign-in with tokens and their refresh, email
 * confirmation, password reset, and the signed-in user's two-factor settings and account info. The same
 * methods as `client.apollo.auth`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function authApi(transport: Transport) {
  return bindResource(transport, authEndpoints);
}
