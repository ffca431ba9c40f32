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

export const SigninRequest = s.object({
  email: s.email(),
  password: s.string({ minLength: 1, maxLength: 256 }),
});
export type SigninRequest = s.Static<typeof SigninRequest>;

export const SigninResponse = s.object({
  token: s.string({ description: 'Sign-in token; accepted only by the two-factor calls.' }),
  user: SessionUser,
  twoFactor: s.oneOfStrings(['setup', 'verify'], 'setup: go to /qr-setup; verify: go to /code-verification.'),
});
export type SigninResponse = s.Static<typeof SigninResponse>;

/** A signed-in session: the token for every later call and the inner user. */
export const SessionResponse = s.object({ token: s.string(), user: SessionUser });
export type SessionResponse = s.Static<typeof SessionResponse>;

export const GenerateQrResponse = s.object({
  otpauthUri: s.string({ description: 'otpauth://totp/{issuer}:{email}?secret={key}&issuer={issuer}&digits=6' }),
  key: s.string({ description: 'The shared key as text, for manual entry.' }),
});
export type GenerateQrResponse = s.Static<typeof GenerateQrResponse>;

export const CodeRequest = s.object({ code: s.string({ pattern: '^[0-9]{6}$' }) });
export type CodeRequest = s.Static<typeof CodeRequest>;

export const QrVerificationResponse = s.object({
  token: s.string(),
  user: SessionUser,
  recoveryCodes: s.array(s.string(), { minItems: 10, maxItems: 10, description: 'Shown once.' }),
});
export type QrVerificationResponse = s.Static<typeof QrVerificationResponse>;

export const CodeVerificationRequest = s.union([
  s.object({ code: s.string({ pattern: '^[0-9]{6}$' }) }),
  s.object({ recoveryCode: s.string({ pattern: '^[2-9A-Za-z]{5}-[2-9A-Za-z]{5}$' }) }),
]);
export type CodeVerificationRequest = s.Static<typeof CodeVerificationRequest>;

export const CodeVerificationResponse = s.object({
  token: s.string(),
  user: SessionUser,
  requiresTwoFactorSetup: s.boolean('A recovery code was used: 2FA was reset and must be set up again.'),
});
export type CodeVerificationResponse = s.Static<typeof CodeVerificationResponse>;

export const ForgotPasswordRequest = s.object({ email: s.email() });
export type ForgotPasswordRequest = s.Static<typeof ForgotPasswordRequest>;

export const LegacyResetPasswordRequest = s.object({
  password: s.string({ minLength: 8, maxLength: 256 }),
  confirmPassword: s.string({ minLength: 8, maxLength: 256, description: 'Must equal password.' }),
});
export type LegacyResetPasswordRequest = s.Static<typeof LegacyResetPasswordRequest>;

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

/*#__NO_SIDE_EFFECTS__*/
export function legacyAuthApi(transport: Transport) {
  return bindResource(transport, legacyAuthEndpoints);
}
