/**
 * The sign-in refusals whose answers name no `code`, and the code an {@link ApiError} gets for each,
 * so that a client decides every sign-in refusal of both APIs by `code`. Apollo's `/login` refuses as
 * ASP.NET Core Identity does, with a 401 whose problem details `detail` names the sign-in result; the
 * legacy second step refuses a call made out of order with a text only; a legacy server that predates
 * codes sends its sign-in refusals as texts ({@link matchedTexts}).
 */
import type { LoginFailureDetail } from '../resources/apollo/auth.js';
import { matchedTexts } from './matched-texts.js';

/**
 * The code of each `detail` of apollo `/login`'s 401. `Failed` is a wrong address, password or code
 * alike (the answer does not say which, so it does not tell an attacker that a password was right);
 * `NotAllowed` an account that may not sign in with a password: no authenticator set up yet (the
 * portal's QR setup comes first), an unconfirmed email address, a deactivated account, or an
 * organisation that signs in with Microsoft only.
 */
export const loginFailureCodes = {
  Failed: 'invalidCredentials',
  Lockedout: 'accountLocked',
  NotAllowed: 'signInNotAllowed',
  RequiresTwoFactor: 'twoFactorRequired',
} as const satisfies Record<LoginFailureDetail, string>;

/**
 * The texts of the legacy second step's refusals of a call made out of order, by the code the SDK
 * gives them: `generateQr` or `qrcodeVerification` once the authenticator is set up (409),
 * `codeVerification` before it is (400), `qrcodeVerification` before `generateQr` (400), and
 * `codeVerification` with a session's token rather than the sign-in token (400). The server sends
 * these texts.
 */
export const secondStepTexts = {
  twoFactorAlreadySetUp: 'Two-factor authentication is already set up.',
  twoFactorNotSetUp: 'Two-factor authentication is not set up yet.',
  authenticatorKeyMissing: 'Generate a QR code first.',
  alreadySignedIn: 'Already signed in.',
} as const;

/** A code the SDK gives a sign-in refusal whose answer names none, as the refusal's {@link ApiError.code}. */
export type SignInRefusalCode = (typeof loginFailureCodes)[LoginFailureDetail] | keyof typeof secondStepTexts;

/** The legacy sign-in's refusal texts, by text: a server without codes sends only these. */
const legacyTexts: ReadonlyMap<string, string> = new Map([
  ...(Object.entries(secondStepTexts) as [string, string][]).map(([code, text]) => [text, code] as const),
  ...(['invalidCredentials', 'invalidVerificationCode', 'loginVerificationFailed', 'userDoesNotExist'] as const).map(
    (code) => [matchedTexts[code](), code] as const,
  ),
]);

/**
 * The code a sign-in refusal stands for when its body names none: apollo `/login`'s 401 by its
 * `detail`, a legacy `auth` call's refusal by its text. Undefined for any other answer.
 */
export function signInRefusalCode(endpoint: string | undefined, status: number, body: unknown): string | undefined {
  if (!endpoint || !body || typeof body !== 'object') return undefined;
  if (endpoint === 'apollo.auth.login') {
    const { detail } = body as { detail?: unknown };
    return status === 401 && typeof detail === 'string' && Object.hasOwn(loginFailureCodes, detail)
      ? loginFailureCodes[detail as LoginFailureDetail]
      : undefined;
  }
  if (endpoint.startsWith('legacy.auth.')) {
    const { message } = body as { message?: unknown };
    return typeof message === 'string' ? legacyTexts.get(message) : undefined;
  }
  return undefined;
}
