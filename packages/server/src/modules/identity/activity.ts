/**
 * An account's own sign-in events, read from the audit log: what the portal's and apollo's sign-in
 * steps recorded with the account as actor. Only rows whose actor is the account are read, so an
 * address typed by someone else (an unknown account) or another account's events never appear.
 */
import type { SignInEvent } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { countSignInRows, listSignInRows, type SignInRow as Row } from './account-repository.js';
import type { Auth } from './sessions.js';
import { countOtherSessions } from './sessions-repository.js';

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

/**
 * One page of the user's sign-in events, newest first, with how many there are, and how many other
 * sessions of the user are signed in.
 */
export async function signInActivity(ctx: AppContext, auth: Auth, page: number, pageSize: number) {
  const events = async () => ({
    total: await countSignInRows(ctx.db, auth.user.id),
    rows: await listSignInRows(ctx.db, auth.user.id, page, pageSize),
  });
  const [{ total, rows }, otherSessions] = await Promise.all([
    events(),
    countOtherSessions(ctx.db, ctx.now(), auth.user.id, auth.family),
  ]);
  return {
    items: rows.map(signInEvent).filter((e): e is SignInEvent => e !== undefined),
    total,
    page,
    pageSize,
    otherSessions,
  };
}
