/**
 * The query of the sign-up's pages: a module of its own, because the routes' search validation loads
 * with the router, before any page, and the pages need not.
 */

/** /signup/check-mail?email=: where the link went. */
export interface CheckMailSearch {
  email?: string;
}

/** /confirm-email?userId=&code=[&changedEmail=]: the mailed link. */
export interface ConfirmEmailSearch {
  userId?: string;
  code?: string;
  changedEmail?: string;
}

const text = (value: unknown, max: number) => (typeof value === 'string' && value.length <= max ? value : undefined);

export function validateCheckMailSearch(search: Record<string, unknown>): CheckMailSearch {
  const email = text(search.email, 320);
  return email ? { email } : {};
}

export function validateConfirmEmailSearch(search: Record<string, unknown>): ConfirmEmailSearch {
  const out: ConfirmEmailSearch = {};
  const userId = text(search.userId, 100);
  const code = text(search.code, 512);
  const changedEmail = text(search.changedEmail, 320);
  if (userId) out.userId = userId;
  if (code) out.code = code;
  if (changedEmail) out.changedEmail = changedEmail;
  return out;
}
