/**
 * What apollo /register refused, by field: ASP.NET Identity's error codes of its validation problem
 * (never its English text), a 429, a missing network. The sign-up form shows each next to its field.
 */
import { ApiError, NetworkError } from '@compliance-portal/sdk';

/** The password rules' codes, in ASP.NET Identity's order. */
const PASSWORD_RULES = [
  'PasswordTooShort',
  'PasswordRequiresNonAlphanumeric',
  'PasswordRequiresDigit',
  'PasswordRequiresLower',
  'PasswordRequiresUpper',
] as const;
type PasswordRule = (typeof PASSWORD_RULES)[number];

export interface SignUpRefusal {
  /** The address is taken or not accepted (namespace `signUp`, key under `errors`). */
  email?: 'DuplicateUserName' | 'InvalidEmail';
  /** The rules the password breaks. */
  password?: PasswordRule[];
  /** The server takes no sign-ups (PORTAL_SELF_REGISTRATION). */
  closed?: true;
  /** Anything else, for the whole form. */
  form?: 'tooMany' | 'failed' | 'network';
}

export function signUpRefusal(error: unknown): SignUpRefusal {
  if (error instanceof NetworkError) return { form: 'network' };
  if (!(error instanceof ApiError)) return { form: 'failed' };
  if (error.status === 429) return { form: 'tooMany' };
  const codes = Object.keys((error.body as { errors?: Record<string, unknown> } | undefined)?.errors ?? {});
  if (error.code === 'registrationClosed' || codes.includes('RegistrationClosed')) return { closed: true };
  const refusal: SignUpRefusal = {};
  if (codes.includes('DuplicateUserName')) refusal.email = 'DuplicateUserName';
  else if (codes.includes('InvalidEmail')) refusal.email = 'InvalidEmail';
  const rules = PASSWORD_RULES.filter((rule) => codes.includes(rule));
  if (rules.length > 0) refusal.password = rules;
  return refusal.email || refusal.password ? refusal : { form: 'failed' };
}
