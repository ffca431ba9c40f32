import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2, a const enum that isolated modules cannot read. */
const ARGON2ID = 2;

/** Identity contract password rules; the portal asks for 8 characters rather than 6. */
const PASSWORD_MIN_LENGTH = 8;

export type PasswordRuleCode =
  | 'PasswordTooShort'
  | 'PasswordRequiresNonAlphanumeric'
  | 'PasswordRequiresDigit'
  | 'PasswordRequiresLower'
  | 'PasswordRequiresUpper';

export const passwordRuleMessages: Record<PasswordRuleCode, string> = {
  PasswordTooShort: `Passwords must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  PasswordRequiresNonAlphanumeric: 'Passwords must have at least one non alphanumeric character.',
  PasswordRequiresDigit: "Passwords must have at least one digit ('0'-'9').",
  PasswordRequiresLower: "Passwords must have at least one lowercase ('a'-'z').",
  PasswordRequiresUpper: "Passwords must have at least one uppercase ('A'-'Z').",
};

/** The rule codes a password breaks, in ASP.NET Identity's order; empty when it is acceptable. */
export function passwordProblems(password: string): PasswordRuleCode[] {
  const problems: PasswordRuleCode[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('PasswordTooShort');
  if (!/[^a-zA-Z0-9]/.test(password)) problems.push('PasswordRequiresNonAlphanumeric');
  if (!/[0-9]/.test(password)) problems.push('PasswordRequiresDigit');
  if (!/[a-z]/.test(password)) problems.push('PasswordRequiresLower');
  if (!/[A-Z]/.test(password)) problems.push('PasswordRequiresUpper');
  return problems;
}

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the email is unknown so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('dummy-password-for-timing-1A!');
  return dummyHash;
}
