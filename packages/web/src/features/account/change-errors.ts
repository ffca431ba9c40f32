/**
 * Why a change of the account was refused, in the user's words: by the validation problem's codes
 * (ASP.NET Identity's, never its English text), a 429 or a missing network; else a general failure.
 */
import { ApiError, NetworkError } from '@compliance-portal/sdk';

/** The refusal codes of /manage/info and /manage/2fa that have their own text (namespace `accountSecurity`). */
const OWN_TEXT = [
  'OldPasswordRequired',
  'PasswordMismatch',
  'RequiresTwoFactor',
  'InvalidTwoFactorCode',
  'Lockedout',
  'InvalidEmail',
] as const;

export type ChangeErrorKey =
  | `errors.${(typeof OWN_TEXT)[number]}`
  | 'errors.passwordRules'
  | 'errors.tooMany'
  | 'errors.failed';

/** The i18n key (namespace `accountSecurity`) of the reason a change failed, or `errors:network` offline. */
export function changeErrorKey(error: unknown): `accountSecurity:${ChangeErrorKey}` | 'errors:network' {
  if (error instanceof NetworkError) return 'errors:network';
  if (error instanceof ApiError) {
    if (error.status === 429) return 'accountSecurity:errors.tooMany';
    const codes = Object.keys((error.body as { errors?: Record<string, unknown> } | undefined)?.errors ?? {});
    const own = OWN_TEXT.find((code) => codes.includes(code));
    if (own) return `accountSecurity:errors.${own}`;
    if (codes.some((code) => code.startsWith('Password'))) return 'accountSecurity:errors.passwordRules';
  }
  return 'accountSecurity:errors.failed';
}
