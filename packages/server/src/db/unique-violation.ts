/**
 * PostgreSQL's unique_violation (SQLSTATE 23505), as both drivers report it: pg's DatabaseError and
 * PGlite's error (passed through pglite-thread.mjs as plain data) carry the SQLSTATE as `code` and the
 * violated constraint or unique index as `constraint`.
 *
 * A check before an insert is only a fast path: two requests can both pass it, and the unique index is
 * then what refuses the second. Services catch that refusal with this test and answer it as the check
 * would have, so a race never shows as a 500.
 */
export function isUniqueViolation(error: unknown, constraint?: string | readonly string[]): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
  if (code !== '23505') return false;
  if (constraint === undefined) return true;
  return (
    typeof violated === 'string' && (typeof constraint === 'string' ? [constraint] : constraint).includes(violated)
  );
}
