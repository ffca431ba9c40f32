/** The SQL of the account's own records: its sign-in events (read from the audit log) and the registration lock. */
import type { Queryable } from '../../db/database.js';

/** Serialises `first`-mode registrations, so that two sign-ups of an empty portal do not both pass. */
const FIRST_ORGANISATION_LOCK = 72365;

/** Takes the registrations' lock to the end of the transaction. */
export async function lockRegistrations(tx: Queryable): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1)', [FIRST_ORGANISATION_LOCK]);
}

/** The audit actions of signing in, on both APIs. */
const SIGN_IN_ACTIONS = [
  'auth.signin',
  'auth.2fa.verify',
  'auth.2fa.setup',
  'auth.2fa.recovery',
  'auth.login',
  'auth.refresh',
  'auth.microsoft',
];

/** An audit row of signing in. */
export interface SignInRow {
  at: Date;
  action: string;
  outcome: 'success' | 'failure';
  ip: string | null;
  details: Record<string, unknown> | null;
}

// Only rows whose actor is the account; successful refreshes are not sign-ins, only a replayed token
// (a failure) is shown.
const SIGN_IN_ROWS = `actor_user_id = $1 and action = any($2) and not (action = 'auth.refresh' and outcome = 'success')`;

export async function countSignInRows(db: Queryable, userId: string): Promise<number> {
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from audit_log where ${SIGN_IN_ROWS}`, [
    userId,
    SIGN_IN_ACTIONS,
  ]);
  return count?.n ?? 0;
}

/** One page of the user's sign-in rows, newest first. */
export async function listSignInRows(
  db: Queryable,
  userId: string,
  page: number,
  pageSize: number,
): Promise<SignInRow[]> {
  return db.query<SignInRow>(
    `select at, action, outcome, ip, details from audit_log where ${SIGN_IN_ROWS} order by seq desc limit $3 offset $4`,
    [userId, SIGN_IN_ACTIONS, pageSize, (page - 1) * pageSize],
  );
}
