/**
 * Legacy auth: password sign-in, then an authenticator app (QR setup or a code) or a recovery code.
 * /auth/signin answers a short-lived sign-in token that only the two-factor calls accept; the
 * verification calls answer the session token.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { guid, MessageResponse, SessionUser } from '../common.js';

/** Schema of the body of `POST /auth/signin`. */
export const SigninRequest = s.object({
  email: s.email(),
  password: s.string({ minLength: 1, maxLength: 256 }),
});
/**
 * The email and password (at most 256 characters) of a legacy sign-in. Wrong ones are refused with 401
 * and the code `invalidCredentials`; a locked account (5 minutes after too many failures) with
 * `accountLocked`.
 */
export type SigninRequest = s.Static<typeof SigninRequest>;

/** Schema of the answer of `POST /auth/signin`. */
export const SigninResponse = s.object({
  token: s.string({ description: 'Sign-in token; accepted only by the two-factor calls.' }),
  user: SessionUser,
  twoFactor: s.oneOfStrings(['setup', 'verify'], 'setup: go to /qr-setup; verify: go to /code-verification.'),
});
/**
 * The first step of a legacy sign-in: a short-lived sign-in token that only the two-factor calls
 * accept, the user, and the second step to take: `setup` (no authenticator yet: `generateQr`, then
 * `qrcodeVerification`) or `verify` (`codeVerification`).
 */
export type SigninResponse = s.Static<typeof SigninResponse>;

/** A signed-in session: the token for every later call and the inner user. */
export const SessionResponse = s.object({ token: s.string(), user: SessionUser });
export type SessionResponse = s.Static<typeof SessionResponse>;

/** Schema of the answer of `GET /auth/generateQR`. */
export const GenerateQrResponse = s.object({
  otpauthUri: s.string({ description: 'otpauth://totp/{issuer}:{email}?secret={key}&issuer={issuer}&digits=6' }),
  key: s.string({ description: 'The shared key as text, for manual entry.' }),
});
/**
 * A new authenticator key for the two-factor setup: the `otpauth://` URI to show as a QR code, and the
 * key as text for manual entry. Refused with 409 once two-factor sign-in is set up.
 */
export type GenerateQrResponse = s.Static<typeof GenerateQrResponse>;

/** Schema of the body of `POST /auth/qrcode-verification`. */
export const CodeRequest = s.object({ code: s.string({ pattern: '^[0-9]{6}$' }) });
/**
 * A six-digit code of the newly enrolled authenticator, confirming the two-factor setup. A wrong code
 * is refused with 400 (`invalidVerificationCode`).
 */
export type CodeRequest = s.Static<typeof CodeRequest>;

/** Schema of the answer of `POST /auth/qrcode-verification`. */
export const QrVerificationResponse = s.object({
  token: s.string(),
  user: SessionUser,
  recoveryCodes: s.array(s.string(), { minItems: 10, maxItems: 10, description: 'Shown once.' }),
});
/**
 * The session after a completed two-factor setup: the session token for every later legacy call, the
 * user, and the 10 recovery codes, shown this once.
 */
export type QrVerificationResponse = s.Static<typeof QrVerificationResponse>;

/** Schema of the body of `POST /auth/code-verification`. */
export const CodeVerificationRequest = s.union([
  s.object({ code: s.string({ pattern: '^[0-9]{6}$' }) }),
  s.object({ recoveryCode: s.string({ pattern: '^[2-9A-Za-z]{5}-[2-9A-Za-z]{5}$' }) }),
]);
/**
 * The second factor of a legacy sign-in: a six-digit authenticator `code`, or a `recoveryCode`
 * (`XXXXX-XXXXX`) instead. A wrong one is refused with 400 (`invalidVerificationCode`); once the
 * account locks, with `loginVerificationFailed`.
 */
export type CodeVerificationRequest = s.Static<typeof CodeVerificationRequest>;

/** Schema of the answer of `POST /auth/code-verification`. */
export const CodeVerificationResponse = s.object({
  token: s.string(),
  user: SessionUser,
  requiresTwoFactorSetup: s.boolean('A recovery code was used: 2FA was reset and must be set up again.'),
});
/**
 * The session after the second factor: the session token for every later legacy call, the user, and
 * whether two-factor sign-in must be set up again (a recovery code was used, which resets it).
 */
export type CodeVerificationResponse = s.Static<typeof CodeVerificationResponse>;

/** Schema of the body of `POST /auth/forgot-password`. */
export const ForgotPasswordRequest = s.object({ email: s.email() });
/**
 * The address to mail a password reset link to. The answer is the same for any address, so it never
 * reveals whether an account exists.
 */
export type ForgotPasswordRequest = s.Static<typeof ForgotPasswordRequest>;

/** Schema of the body of `POST /auth/reset-password/{token}`. */
export const LegacyResetPasswordRequest = s.object({
  password: s.string({ minLength: 8, maxLength: 256 }),
  confirmPassword: s.string({ minLength: 8, maxLength: 256, description: 'Must equal password.' }),
});
/**
 * A new password (8 to 256 characters), typed twice: `confirmPassword` must equal `password`. The token
 * of the mailed link goes in the path.
 */
export type LegacyResetPasswordRequest = s.Static<typeof LegacyResetPasswordRequest>;

/**
 * What a sign-in event says happened, for lists that name each kind: `signedIn` (a sign-in completed,
 * with its second factor), `passwordAccepted` (the password was right; the second step followed or
 * not), `passwordRefused`, `codeRefused` (a wrong authenticator or recovery code), `lockedOut` (refused
 * while the account was locked), `notAllowed` (the account may not sign in yet: email not confirmed,
 * or an apollo sign-in before the authenticator was set up) and `tokenReplayed` (a used refresh token
 * came back, so its sessions were ended).
 */
export const SIGN_IN_EVENT_KINDS = [
  'signedIn',
  'passwordAccepted',
  'passwordRefused',
  'codeRefused',
  'lockedOut',
  'notAllowed',
  'tokenReplayed',
  'microsoftRefused',
] as const;

/** Schema of one item of `GET /auth/sessions/activity`. */
export const SignInEvent = s.object({
  at: s.dateTime(),
  kind: s.oneOfStrings(SIGN_IN_EVENT_KINDS),
  outcome: s.oneOfStrings(['success', 'failure'], 'success for signedIn and passwordAccepted.'),
  api: s.oneOfStrings(['legacy', 'apollo'], "legacy: the portal's sign-in; apollo: a token sign-in (/login)."),
  method: s.optional(
    s.oneOfStrings(
      ['authenticator', 'recoveryCode', 'setup', 'microsoft'],
      'With signedIn: an authenticator code, a recovery code, the first code of a new authenticator, or Microsoft (Entra ID).',
    ),
  ),
  ip: s.nullable(s.string({ description: 'The client address the server saw.' })),
});
/**
 * One attempt to sign in to the caller's account, from the audit log: when (`at`), what happened
 * (`kind`, its `outcome`, and for a completed sign-in the second factor used, `method`), through which
 * API, and from which address (`ip`).
 */
export type SignInEvent = s.Static<typeof SignInEvent>;

/** Schema of the query of `GET /auth/sessions/activity`. */
export const SignInActivityQuery = s.object({
  page: s.optional(s.integer({ minimum: 1, maximum: 10_000, description: 'One-based page number; default 1.' })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 100, description: 'Events per page; default 20.' })),
});
/** Which page of the caller's sign-in events to answer: `page` (one-based) and `pageSize` (1 to 100, default 20). */
export type SignInActivityQuery = s.Static<typeof SignInActivityQuery>;

/** Schema of the answer of `GET /auth/sessions/activity`. */
export const SignInActivity = s.object({
  items: s.array(SignInEvent),
  total: s.integer({ minimum: 0, description: 'Events of the account, over all pages.' }),
  page: s.integer({ minimum: 1 }),
  pageSize: s.integer({ minimum: 1 }),
  otherSessions: s.integer({
    minimum: 0,
    description: 'Sessions of the account still signed in, besides the one asking.',
  }),
});
/**
 * The caller's own sign-in events, newest first, one page of them (never another account's), and how
 * many other sessions of the account are still signed in (`otherSessions`), which
 * `revokeOtherSessions` ends.
 */
export type SignInActivity = s.Static<typeof SignInActivity>;

/** Schema of the answer of `POST /auth/sessions/revoke-others`. */
export const RevokeOthersResponse = s.object({
  revoked: s.integer({ minimum: 0, description: 'Sessions ended.' }),
});
/** How many of the account's other sessions `revokeOtherSessions` ended; the calling session stays signed in. */
export type RevokeOthersResponse = s.Static<typeof RevokeOthersResponse>;

/** Schema of the body of `POST /auth/microsoft/start`. */
export const MicrosoftSignInStart = s.object({
  email: s.email('The account to sign in; its organisation says whether and where it signs in with Microsoft.'),
});
/**
 * The account that starts a sign-in with Microsoft (OpenID Connect with Microsoft Entra ID). Refused
 * with 400 `entraNotAvailable` when its organisation does not sign in with Microsoft (or the address
 * has no account: the answer does not tell them apart), and 503 `entraUnavailable` when the identity
 * platform cannot be reached.
 */
export type MicrosoftSignInStart = s.Static<typeof MicrosoftSignInStart>;

/** Schema of the answer of `POST /auth/microsoft/start`. */
export const MicrosoftSignInRedirect = s.object({
  authorizationUrl: s.string({
    description:
      "Open this address in the browser: the Entra tenant's sign-in page, which returns to /signin/microsoft.",
  }),
});
/**
 * Where the browser goes to sign in: the authorization endpoint of the organisation's Entra tenant,
 * with PKCE, a state and a nonce the server keeps for 10 minutes; it comes back to the portal's
 * `/signin/microsoft` with a code and the state.
 */
export type MicrosoftSignInRedirect = s.Static<typeof MicrosoftSignInRedirect>;

/** Schema of the body of `POST /auth/microsoft/complete`. */
export const MicrosoftSignInComplete = s.object({
  code: s.string({ minLength: 1, maxLength: 4096 }),
  state: s.string({ minLength: 1, maxLength: 256 }),
});
/**
 * The code and state the identity platform returned to `/signin/microsoft`. The server redeems the code
 * (with the PKCE verifier) and checks the ID token: its signature against the tenant's keys, issuer,
 * audience, expiry, nonce and tenant. Refused with 400 and one code per reason: `entraOtherTenant`,
 * `entraWrongAudience`, `entraExpired`, `entraReplayed` (a state used before or a nonce of another
 * sign-in), `entraBadSignature`, `entraNoVerifiedEmail`, `entraNoAccount`, `entraNotAvailable`.
 */
export type MicrosoftSignInComplete = s.Static<typeof MicrosoftSignInComplete>;

/** Schema of the answer of `GET /auth/sign-in-settings`, and of the body of its PUT. */
export const SignInSettings = s.object({
  microsoft: s.boolean('Members may sign in with Microsoft (Entra ID).'),
  entraTenantId: s.nullable(
    guid('The Entra tenant (directory) id whose accounts sign in; needed when `microsoft` is on.'),
  ),
  password: s.boolean('Members may sign in with password and authenticator (on unless turned off).'),
});
/**
 * How the caller's organisation signs in: with Microsoft (bound to one Entra tenant id, which no other
 * organisation may have), with password plus authenticator, or both. At least one stays on; password
 * sign-in can be turned off only with Microsoft on and by someone who has signed in with Microsoft
 * (so nobody is locked out). Refused with 400 `signInSettingsInvalid` otherwise, and 409
 * `entraTenantTaken` for a tenant bound to another organisation.
 */
export type SignInSettings = s.Static<typeof SignInSettings>;

/** Schema of the answer of `GET /auth/sign-in-options`. */
export const SignInOptions = s.object({
  microsoft: s.boolean('The server is registered with Microsoft Entra ID: "Sign in with Microsoft" can be offered.'),
});
/** Which sign-in methods the server offers before anyone signs in. */
export type SignInOptions = s.Static<typeof SignInOptions>;

/**
 * The catalogue entries of legacy auth: sign-in, logout, the session check, password reset, the
 * two-factor setup and verification, the caller's sign-in activity and signing out the other sessions,
 * under `/auth/`. {@link legacyAuthApi} binds them.
 */
export const legacyAuthEndpoints = defineResource('legacy', 'auth', {
  signin: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/signin',
    summary: 'Check email and password',
    auth: 'none',
    refusals: { 401: 'Wrong email or password (code invalidCredentials), or the account is locked (accountLocked).' },
    body: SigninRequest,
    response: SigninResponse,
  },
  logout: {
    method: 'POST',
    path: '/auth/logout',
    summary: 'Revoke the session',
    body: s.object({}),
    access: 'signin',
    rateLimited: true,
  },
  verifyUser: {
    method: 'GET',
    rateLimited: true,
    path: '/auth/verify-user',
    summary: "The session's user, if the token is valid",
    response: SessionResponse,
  },
  forgotPassword: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/forgot-password',
    summary: 'Send a reset link (the same answer for any email)',
    auth: 'none',
    body: ForgotPasswordRequest,
    response: MessageResponse,
  },
  resetPassword: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/reset-password/{token}',
    summary: 'Set a new password with the link token',
    auth: 'none',
    body: LegacyResetPasswordRequest,
    response: MessageResponse,
  },
  generateQr: {
    method: 'GET',
    rateLimited: true,
    access: 'signin',
    path: '/auth/generateQR',
    summary: 'A new authenticator key and its otpauth URI',
    response: GenerateQrResponse,
    refusals: { 409: 'Two-factor authentication is already set up for this account.' },
  },
  qrcodeVerification: {
    method: 'POST',
    rateLimited: true,
    access: 'signin',
    path: '/auth/qrcode-verification',
    summary: 'Confirm the authenticator setup with a code',
    body: CodeRequest,
    response: QrVerificationResponse,
    refusals: { 409: 'Two-factor authentication is already set up for this account.' },
  },
  codeVerification: {
    method: 'POST',
    rateLimited: true,
    access: 'signin',
    path: '/auth/code-verification',
    summary: 'Sign in with a TOTP code or a recovery code',
    body: CodeVerificationRequest,
    response: CodeVerificationResponse,
  },
  signInOptions: {
    method: 'GET',
    rateLimited: true,
    path: '/auth/sign-in-options',
    summary: 'Which sign-in methods the server offers',
    auth: 'none',
    response: SignInOptions,
  },
  microsoftStart: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/microsoft/start',
    summary: "Start a sign-in with Microsoft: the Entra tenant's authorization URL",
    auth: 'none',
    body: MicrosoftSignInStart,
    response: MicrosoftSignInRedirect,
  },
  microsoftComplete: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/microsoft/complete',
    summary: 'Finish a sign-in with Microsoft: redeem the code, check the ID token, answer the session',
    auth: 'none',
    body: MicrosoftSignInComplete,
    response: SessionResponse,
  },
  signInSettings: {
    method: 'GET',
    path: '/auth/sign-in-settings',
    summary: "How the caller's organisation signs in",
    response: SignInSettings,
  },
  updateSignInSettings: {
    method: 'PUT',
    path: '/auth/sign-in-settings',
    summary: "Change how the caller's organisation signs in",
    body: SignInSettings,
    response: SignInSettings,
    refusals: { 409: 'The Entra tenant is bound to another organisation.' },
  },
  activity: {
    method: 'GET',
    path: '/auth/sessions/activity',
    summary: "The caller's recent sign-ins and failed attempts, and its other sessions",
    query: SignInActivityQuery,
    response: SignInActivity,
  },
  revokeOtherSessions: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/sessions/revoke-others',
    summary: "End every session of the caller's account but the calling one",
    body: s.object({}),
    response: RevokeOthersResponse,
  },
});

/**
 * Binds legacy auth to a transport: password sign-in (`signin`), then the authenticator setup
 * (`generateQr`, `qrcodeVerification`) or the code check (`codeVerification`), which answer the session
 * token; sign-in with Microsoft (`microsoftStart`, then `microsoftComplete`, which answers the session
 * token) and the organisation's `signInSettings`; `verifyUser`, `logout`, the password reset, the caller's sign-in `activity` and
 * `revokeOtherSessions`. Set the session token with `setToken` for the
 * later calls. The same methods as `client.legacy.auth`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function legacyAuthApi(transport: Transport) {
  return bindResource(transport, legacyAuthEndpoints);
}
