/**
 * An account's own sign-in events, read from the audit log: what the portal's and apollo's sign-in
 * steps recorded with the account as actor. Only rows whose actor is the account are read, so an
 * address typed by someone else (an unknown account) or another account's events never appear.
 */
import type { SignInEvent } from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';

/** The audit actions of signing in, on both APIs. */
const SIGN_IN_ACTIONS = [
  'auth.signin',
  'auth.2fa.verify',
  'auth.2fa.setup',
  'auth.2fa.recovery',
  'auth.login',
  'auth.refresh',
  'auth.microsoft',
] as const;

interface Row {
  at: Date;
  action: string;
  outcome: 'success' | 'failure';
  ip: string | null;
  details: Record<string, unknown> | null;
}

type Kind = SignInEvent['kind'];

function event(row: Row, api: SignInEvent['api'], kind: Kind, method?: SignInEvent['method']): SignInEvent {
  return {
    at: new Date(row.at).toISOString(),
    kind,
    outcome: kind === 'signedIn' || kind === 'passwordAccepted' ? 'success' : 'failure',
    api,
    ...(method ? { method } : {}),
    ip: row.ip,
  };
}

/** The event an audit row records; undefined for a row that is not about signing in. */
function signInEvent(row: Row): SignInEvent | undefined {
  const details = row.details ?? {};
  const ok = row.outcome === 'success';
  switch (row.action) {
    case 'auth.signin': {
      if (ok) return event(row, 'legacy', 'passwordAccepted');
      const reason = details.reason;
      if (reason === 'lockedOut') return event(row, 'legacy', 'lockedOut');
      if (reason === 'notAllowed' || reason === 'deactivated') return event(row, 'legacy', 'notAllowed');
      return event(row, 'legacy', 'passwordRefused');
    }
    case 'auth.2fa.verify':
      return event(row, 'legacy', ok ? 'signedIn' : 'codeRefused', ok ? 'authenticator' : undefined);
    case 'auth.2fa.setup':
      return event(row, 'legacy', ok ? 'signedIn' : 'codeRefused', ok ? 'setup' : undefined);
    case 'auth.2fa.recovery':
      return ok ? event(row, 'legacy', 'signedIn', 'recoveryCode') : event(row, 'legacy', 'codeRefused');
    case 'auth.login': {
      if (ok) return event(row, 'apollo', 'signedIn', details.recoveryCode ? 'recoveryCode' : 'authenticator');
      const detail = details.detail;
      if (detail === 'Lockedout') return event(row, 'apollo', 'lockedOut');
      if (detail === 'NotAllowed') return event(row, 'apollo', 'notAllowed');
      // The password was right; the code was not given.
      if (detail === 'RequiresTwoFactor') return event(row, 'apollo', 'passwordAccepted');
      return event(row, 'apollo', details.step === 'password' ? 'passwordRefused' : 'codeRefused');
    }
    case 'auth.refresh':
      return ok ? undefined : event(row, 'apollo', 'tokenReplayed');
    case 'auth.microsoft':
      return ok ? event(row, 'legacy', 'signedIn', 'microsoft') : event(row, 'legacy', 'microsoftRefused');
    default:
      return undefined;
  }
}

/** One page of a user's sign-in events, newest first, with how many there are. */
export async function listSignInEvents(
  db: Queryable,
  userId: string,
  page: number,
  pageSize: number,
): Promise<{ items: SignInEvent[]; total: number }> {
  const actions = [...SIGN_IN_ACTIONS];
  // Successful refreshes are not sign-ins; only a replayed token (a failure) is shown.
  const where = `actor_user_id = $1 and action = any($2) and not (action = 'auth.refresh' and outcome = 'success')`;
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from audit_log where ${where}`, [
    userId,
    actions,
  ]);
  const rows = await db.query<Row>(
    `select at, action, outcome, ip, details from audit_log where ${where} order by seq desc limit $3 offset $4`,
    [userId, actions, pageSize, (page - 1) * pageSize],
  );
  return {
    items: rows.map(signInEvent).filter((e): e is SignInEvent => e !== undefined),
    total: count?.n ?? 0,
  };
}
