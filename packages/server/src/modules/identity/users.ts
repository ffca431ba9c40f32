import type { User } from '../../access/actor.js';
import { validationProblem } from '../../errors.js';

export type { User };

/** Like .NET's EmailAddressAttribute: one @, not first or last. */
export const isEmail = (email: unknown): email is string =>
  typeof email === 'string' && /^[^@\s]+@[^@\s]+$/.test(email) && email.length <= 254;

/** ASP.NET Identity's refusal of an address its validator rejects. */
export const invalidEmail = (email: unknown) =>
  validationProblem({ InvalidEmail: [`Email '${String(email ?? '')}' is invalid.`] });

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The inner user of the session, as the web app stores it. */
export function sessionUser(user: User) {
  return { email: user.email, role: user.role, organisationId: user.organisationId, displayName: user.displayName };
}
