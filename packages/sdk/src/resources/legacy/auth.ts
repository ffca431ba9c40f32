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
 * The account that starts a sign-in with Microsoft (OpenID Connect with Microsoft Entra ID), at its
 * organisation's Entra tenant, bound or pending (a pending one's first completed sign-in proves it).
 * Refused with 400 `entraNotAvailable` when its organisation does not sign in with Microsoft, has no
 * tenant or only an expired pending one (or the address has no account: the answer does not tell
 * them apart), and 503 `entraUnavailable` when the identity platform cannot be reached.
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
 * sign-in), `entraBadSignature`, `entraNoVerifiedEmail`, `entraNoAccount`, `entraNotAvailable`. While
 * the organisation's tenant is pending, the first sign-in that passes these checks proves it: the
 * tenant is bound to the organisation and other organisations' pending claims of it end; refused with
 * 409 `entraTenantTaken` when another organisation proved it first.
 */
export type MicrosoftSignInComplete = s.Static<typeof MicrosoftSignInComplete>;

/** Where an organisation's Entra tenant stands (see {@link EntraTenantBinding}). */
const ENTRA_TENANT_STATES = ['pending', 'expired', 'bound'] as const;

/** Schema of `entraTenant` in the answer of `GET /auth/sign-in-settings`. */
export const EntraTenantBinding = s.object({
  tenantId: guid('The Entra tenant (directory) id.'),
  state: s.oneOfStrings(
    ENTRA_TENANT_STATES,
    'pending: set, and waiting for a member to sign in with Microsoft from it; expired: pending for 7 days without that sign-in, no longer used; bound: proved, sign-in with Microsoft uses it.',
  ),
  since: s.dateTime('pending and expired: when it was set; bound: when it was proved.'),
  expiresAt: s.nullable(s.dateTime('pending and expired: when the wait for the proof ends (ended); null when bound.')),
  by: s.nullable(
    s.string({
      maxLength: 320,
      description:
        "pending and expired: the address of the member who set it; bound: that of the member whose sign-in with Microsoft proved it. Null when the portal's operator bound it, or when it was set before anyone was recorded.",
    }),
  ),
  proof: s.nullable(
    s.oneOfStrings(
      ['microsoftSignIn', 'operator'],
      "bound: a member's sign-in with Microsoft from the tenant proved it, or the portal's operator bound it (entra:reassign); null otherwise.",
    ),
  ),
});
/**
 * The organisation's Entra tenant and where it stands. Setting a tenant id makes it `pending`: sign-in
 * with Microsoft is offered from it, and the first member of the organisation who completes one (the
 * verified ID token's `tid` is the tenant's) proves that the organisation controls the directory, which
 * makes it `bound`. Several organisations may have the same tenant pending; only one may have it bound,
 * and the others' pending claims end then. A pending tenant not proved within 7 days is `expired`:
 * nobody signs in with it, and setting it again starts the 7 days anew.
 */
export type EntraTenantBinding = s.Static<typeof EntraTenantBinding>;

/** Schema of `reauthentication` in the answer of `GET /auth/sign-in-settings`. */
export const SignInSettingsReauthentication = s.object({
  needed: s.boolean(
    'A change must carry the password and a code (or a recovery code): this session did not sign in with Microsoft within the last 10 minutes.',
  ),
  microsoftUntil: s.nullable(
    s.dateTime(
      "Until when this session's sign-in with Microsoft stands in for the password and code; null when it did not sign in with Microsoft.",
    ),
  ),
  secondFactor: s.boolean(
    'The caller has an authenticator app set up. Without one, only a fresh sign-in with Microsoft confirms a change.',
  ),
});
/**
 * Whether the next change of the sign-in settings must confirm who is making it: `needed` unless the
 * calling session comes from a sign-in with Microsoft completed within the last 10 minutes (until
 * `microsoftUntil`), and whether the caller can confirm with a code at all (`secondFactor`).
 */
export type SignInSettingsReauthentication = s.Static<typeof SignInSettingsReauthentication>;

/** Schema of the answer of `GET /auth/sign-in-settings` and of its PUT. */
export const SignInSettings = s.object({
  microsoft: s.boolean('Members may sign in with Microsoft (Entra ID).'),
  entraTenantId: s.nullable(
    guid('The Entra tenant (directory) id set for sign-in with Microsoft, bound or pending (see `entraTenant`).'),
  ),
  password: s.boolean('Members may sign in with password and authenticator (on unless turned off).'),
  entraTenant: s.nullable(EntraTenantBinding),
  reauthentication: SignInSettingsReauthentication,
});
/**
 * How the caller's organisation signs in: with Microsoft (from its Entra tenant, see `entraTenant` for
 * whether that is proved yet), with password plus authenticator, or both; and whether a change must
 * confirm who is making it (`reauthentication`).
 */
export type SignInSettings = s.Static<typeof SignInSettings>;

/** Schema of the body of `PUT /auth/sign-in-settings`. */
export const SignInSettingsChange = s.object({
  microsoft: s.boolean('Members may sign in with Microsoft (Entra ID).'),
  entraTenantId: s.nullable(
    guid('The Entra tenant (directory) id whose accounts sign in; needed when `microsoft` is on.'),
  ),
  password: s.boolean('Members may sign in with password and authenticator.'),
  oldPassword: s.optional(s.string({ maxLength: 256, description: "The caller's password, confirming the change." })),
  twoFactorCode: s.optional(
    s.string({ maxLength: 16, description: "A current code of the caller's authenticator app, with `oldPassword`." }),
  ),
  twoFactorRecoveryCode: s.optional(
    s.string({ maxLength: 32, description: "One of the caller's recovery codes instead of `twoFactorCode`; used up." }),
  ),
});
/**
 * A change of how the caller's organisation signs in. A new tenant id is stored as pending (see
 * {@link EntraTenantBinding}); taking it away, or setting another, ends the binding of the old one and
 * every member's link to it. At least one way stays: password sign-in can be turned off only with
 * Microsoft on, from a bound (proved) tenant, by someone who has signed in with Microsoft; refused
 * with 400 `entraTenantRequired`, `passwordOffNeedsMicrosoft` or `passwordOffNeedsBoundTenant`
 * otherwise, and with 409 `entraTenantTaken` for a tenant another organisation has proved. A change
 * must confirm who makes it: `oldPassword` with `twoFactorCode` or `twoFactorRecoveryCode` (wrong ones
 * count toward the account's lockout), unless the session signed in with Microsoft within the last 10
 * minutes; refused with 403 `reauthenticationRequired`, `reauthenticationPasswordWrong`,
 * `reauthenticationCodeWrong` or `accountLocked`, and nothing changes. The organisation's
 * administrators are mailed what changed. Saving the settings as they are changes nothing and needs no
 * confirmation.
 */
export type SignInSettingsChange = s.Static<typeof SignInSettingsChange>;

/** Schema of the answer of `GET /auth/sign-in-options`. */
export const SignInOptions = s.object({
  microsoft: s.boolean('The server is registered with Microsoft Entra ID: "Sign in with Microsoft" can be offered.'),
});
/** Which sign-in methods the server offers before anyone signs in. */
export type SignInOptions = s.Static<typeof SignInOptions>;

/** Schema of the body of `POST /auth/confirm-email`. */
export const ConfirmEmailLinkRequest = s.object({
  userId: s.string({ minLength: 1, maxLength: 100, description: "The link's `userId`." }),
  code: s.string({
    minLength: 1,
    maxLength: 512,
    description: "The link's `code` (base64url of the confirmation token).",
  }),
  changedEmail: s.optional(s.email("The link's `changedEmail`: the new address of an email change.")),
});
/**
 * The parameters of a mailed confirmation link (`/confirm-email?userId=&code=[&changedEmail=]`, the
 * portal's page), as apollo `GET /confirmEmail` takes them. A link whose code is live confirms the
 * address (for an email change, the address changes and every session of the account ends). Refused
 * with 400 and one code per reason, so the page can say what to do next: `confirmationLinkExpired`
 * (older than a day: ask for a new one), `confirmationLinkUsed` (used, or replaced by a newer link or
 * a password reset, while the address is still unconfirmed) and `confirmationLinkInvalid` (no such
 * link: a wrong or cut code, another user, another address). Only the holder of a link issued for the
 * account learns anything about it; any other value reads `confirmationLinkInvalid`.
 */
export type ConfirmEmailLinkRequest = s.Static<typeof ConfirmEmailLinkRequest>;

/** Schema of the answer of `POST /auth/confirm-email`. */
export const ConfirmEmailLinkResponse = s.object({
  outcome: s.oneOfStrings(
    ['confirmed', 'alreadyConfirmed'],
    'confirmed: this link confirmed the address now; alreadyConfirmed: the address was confirmed before (this link or another).',
  ),
  email: s.email("The confirmed address: the account's, or the new one of an email change."),
  emailChanged: s.boolean('The link confirmed an email change: the account signs in with `email` from now on.'),
});
/**
 * What a confirmation link did: confirmed the address now, or found it confirmed already (a link
 * opened a second time, or after a newer one). Either way the account signs in with `email`.
 */
export type ConfirmEmailLinkResponse = s.Static<typeof ConfirmEmailLinkResponse>;

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
    scope: 'caller',
    summary: 'Revoke the session',
    body: s.object({}),
    access: 'signin',
    rateLimited: true,
  },
  verifyUser: {
    method: 'GET',
    rateLimited: true,
    path: '/auth/verify-user',
    scope: 'caller',
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
    scope: 'caller',
    summary: 'A new authenticator key and its otpauth URI',
    response: GenerateQrResponse,
    refusals: { 409: 'Two-factor authentication is already set up for this account.' },
  },
  qrcodeVerification: {
    method: 'POST',
    rateLimited: true,
    access: 'signin',
    path: '/auth/qrcode-verification',
    scope: 'caller',
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
    scope: 'caller',
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
    refusals: {
      409: "The sign-in would have proved the organisation's pending Entra tenant, but another organisation proved it first (code entraTenantTaken).",
    },
  },
  signInSettings: {
    method: 'GET',
    path: '/auth/sign-in-settings',
    scope: 'caller',
    summary: "How the caller's organisation signs in",
    response: SignInSettings,
  },
  updateSignInSettings: {
    method: 'PUT',
    path: '/auth/sign-in-settings',
    scope: 'caller',
    summary: "Change how the caller's organisation signs in",
    body: SignInSettingsChange,
    response: SignInSettings,
    refusals: {
      403: 'The change was not confirmed: no or a wrong password and code, and no sign-in with Microsoft within 10 minutes (codes reauthenticationRequired, reauthenticationPasswordWrong, reauthenticationCodeWrong, accountLocked).',
      409: 'Another organisation has proved that it controls this Entra tenant (code entraTenantTaken).',
    },
  },
  activity: {
    method: 'GET',
    path: '/auth/sessions/activity',
    scope: 'caller',
    summary: "The caller's recent sign-ins and failed attempts, and its other sessions",
    query: SignInActivityQuery,
    response: SignInActivity,
  },
  revokeOtherSessions: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/sessions/revoke-others',
    scope: 'caller',
    summary: "End every session of the caller's account but the calling one",
    body: s.object({}),
    response: RevokeOthersResponse,
  },
  confirmEmail: {
    method: 'POST',
    rateLimited: true,
    path: '/auth/confirm-email',
    summary: 'Confirm an email address with the mailed link, saying what happened',
    auth: 'none',
    body: ConfirmEmailLinkRequest,
    response: ConfirmEmailLinkResponse,
  },
});

/**
 * Binds legacy auth to a transport: password sign-in (`signin`), then the authenticator setup
 * (`generateQr`, `qrcodeVerification`) or the code check (`codeVerification`), which answer the session
 * token; sign-in with Microsoft (`microsoftStart`, then `microsoftComplete`, which answers the session
 * token) and the organisation's `signInSettings`; `verifyUser`, `logout`, the password reset, the
 * caller's sign-in `activity`, `revokeOtherSessions` and `confirmEmail` (a mailed confirmation link,
 * saying why it failed). Set the session token with `setToken` for the later calls. The same methods
 * as `client.legacy.auth`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function legacyAuthApi(transport: Transport) {
  return bindResource(transport, legacyAuthEndpoints);
}
