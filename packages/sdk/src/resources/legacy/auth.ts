/**
 * Legacy auth: password sign-in, then an authenticator app (QR setup or a code) or a recovery code.
 * /auth/signin answers a short-lived sign-in token that only the two-factor calls accept; the
 * verification calls answer the session token.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { MessageResponse, SessionUser } from '../common.js';

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
 * The catalogue entries of legacy auth: sign-in, logout, the session check, password reset, and the
 * two-factor setup and verification, under `/auth/`. {@link legacyAuthApi} binds them.
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
});

/**
 * Binds legacy auth to a transport: password sign-in (`signin`), then the authenticator setup
 * (`generateQr`, `qrcodeVerification`) or the code check (`codeVerification`), which answer the session
 * token; `verifyUser`, `logout` and the password reset. Set the session token with `setToken` for the
 * later calls. The same methods as `client.legacy.auth`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function legacyAuthApi(transport: Transport) {
  return bindResource(transport, legacyAuthEndpoints);
}
