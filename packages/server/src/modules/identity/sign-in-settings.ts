/**
 * How an organisation signs in, as its members read and change it (Account → Sign-in and security):
 * a tenant id set is pending until proved (entra-tenants.ts); every change is confirmed by the person
 * making it (the password and a code, or a recent sign-in with Microsoft), audited, and mailed to the
 * organisation's administrators.
 */
import type { SignInSettings, SignInSettingsChange } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { refusal } from '../../errors.js';
import { runAfterResponse } from './background.js';
import {
  administratorAddresses,
  clearTenant,
  holderOf,
  readSignInState,
  setPendingTenant,
  setSignInMethods,
} from './entra-repository.js';
import { isPendingLive, pendingStateOf, type SignInState } from './entra-tenants.js';
import { mailSignInChange, mailTime, type SignInChangeNotice } from './mails.js';
import { microsoftSignInUntil, reauthenticate } from './reauthentication.js';
import type { Auth } from './sessions.js';

function stateOf(state: SignInState | undefined, organisationId: string): SignInState {
  return (
    state ?? {
      organisationId,
      organisationName: '',
      microsoft: false,
      password: true,
      bound: null,
      pending: null,
    }
  );
}

/** The settings as the caller reads them: the methods, the tenant and where it stands, and whether a change must be confirmed. */
function signInSettingsAnswer(state: SignInState, auth: Auth, now: Date): SignInSettings {
  const until = microsoftSignInUntil(auth);
  const { bound, pending } = state;
  return {
    microsoft: state.microsoft,
    entraTenantId: bound?.tenantId ?? pending?.tenantId ?? null,
    password: state.password,
    entraTenant: bound
      ? {
          tenantId: bound.tenantId,
          state: 'bound',
          since: bound.at.toISOString(),
          expiresAt: null,
          by: bound.by,
          proof: bound.proof,
        }
      : pending
        ? {
            tenantId: pending.tenantId,
            state: pendingStateOf(pending, now),
            since: pending.since.toISOString(),
            expiresAt: pending.expiresAt.toISOString(),
            by: pending.setBy,
            proof: null,
          }
        : null,
    reauthentication: {
      needed: !until || until.getTime() < now.getTime(),
      microsoftUntil: until?.toISOString() ?? null,
      secondFactor: auth.user.totpEnabled,
    },
  };
}

export async function readSignInSettings(ctx: AppContext, auth: Auth): Promise<SignInSettings> {
  const organisationId = auth.user.organisationId;
  return signInSettingsAnswer(stateOf(await readSignInState(ctx.db, organisationId), organisationId), auth, ctx.now());
}

/** The tenant in words, for the audit and the mails. */
function tenantInWords(state: SignInState, now: Date): string {
  if (state.bound) return `${state.bound.tenantId} (confirmed)`;
  if (!state.pending) return 'none';
  return pendingStateOf(state.pending, now) === 'pending'
    ? `${state.pending.tenantId} (pending: confirmed when a member signs in with Microsoft from this tenant by ${mailTime(state.pending.expiresAt)})`
    : `${state.pending.tenantId} (expired unconfirmed)`;
}

/** What changed between two states, in words (before → after). */
export function signInChanges(before: SignInState, after: SignInState, now: Date): SignInChangeNotice['changes'] {
  const onOff = (value: boolean) => (value ? 'on' : 'off');
  const changes = [
    { what: 'Sign in with Microsoft', before: onOff(before.microsoft), after: onOff(after.microsoft) },
    { what: 'Entra tenant', before: tenantInWords(before, now), after: tenantInWords(after, now) },
    { what: 'Password sign-in', before: onOff(before.password), after: onOff(after.password) },
  ];
  return changes.filter((change) => change.before !== change.after);
}

/** The state in the audit log's terms: what it is, not how it reads. */
function auditState(state: SignInState, now: Date) {
  return {
    microsoft: state.microsoft,
    entraTenantId: state.bound?.tenantId ?? state.pending?.tenantId ?? null,
    entraTenantState: state.bound ? 'bound' : state.pending ? pendingStateOf(state.pending, now) : null,
    password: state.password,
  };
}

/**
 * Mails the organisation's administrators a change of its sign-in, after the answer (a slow mail
 * server does not hold the request up), or at once with `now` (an operator's command, which ends
 * when it is done).
 */
export async function notifyAdministrators(
  ctx: AppContext,
  organisationId: string,
  notice: SignInChangeNotice,
  { now = false } = {},
): Promise<void> {
  if (notice.changes.length === 0) return;
  const send = async () => mailSignInChange(ctx, await administratorAddresses(ctx.db, organisationId), notice);
  if (now) await send();
  else runAfterResponse(ctx, 'sign-in change mail', send);
}

/**
 * Changes how the caller's organisation signs in. At least one way stays: password sign-in goes off
 * only with Microsoft on, from a proved tenant, and by someone who has signed in with Microsoft, so
 * that the person changing it is not the first to be locked out. A tenant id set is pending until a
 * member proves it by signing in with Microsoft from it; one proved by another organisation is
 * refused. Saving what is already there changes nothing and needs no confirmation; any change does.
 */
export async function updateSignInSettings(
  ctx: AppContext,
  auth: Auth,
  ip: string,
  change: SignInSettingsChange,
): Promise<SignInSettings> {
  const { user } = auth;
  const organisationId = user.organisationId;
  const tenantId = change.entraTenantId?.trim().toLowerCase() || null;
  const now = ctx.now();
  if (change.microsoft && !tenantId) throw refusal(400, 'entraTenantRequired');
  const before = stateOf(await readSignInState(ctx.db, organisationId), organisationId);
  const keepsBound = before.bound !== null && before.bound.tenantId === tenantId;
  const keepsPending = !keepsBound && isPendingLive(before.pending, now) && before.pending.tenantId === tenantId;
  const keepsNone = tenantId === null && !before.bound && !before.pending;
  if (!change.password) {
    if (!change.microsoft || !user.entraObjectId) throw refusal(400, 'passwordOffNeedsMicrosoft');
    if (!keepsBound) throw refusal(400, 'passwordOffNeedsBoundTenant');
  }
  const newTenant = !(keepsBound || keepsPending || keepsNone);
  if (newTenant && tenantId && (await holderOf(ctx.db, tenantId, organisationId))) {
    throw refusal(409, 'entraTenantTaken');
  }
  if (!newTenant && before.microsoft === change.microsoft && before.password === change.password) {
    return signInSettingsAnswer(before, auth, now);
  }

  const refused = await reauthenticate(ctx, auth, change);
  if (refused) {
    await ctx.audit({
      ...actedBy(user, ip),
      organisationId,
      action: 'organisation.signIn.update',
      outcome: 'failure',
      details: {
        reason: refused,
        asked: { microsoft: change.microsoft, entraTenantId: tenantId, password: change.password },
      },
    });
    throw refusal(403, refused);
  }

  const { previous, after } = await ctx.db.transaction(async (tx) => {
    // Two changes of one organisation run one after the other, each on what the other left.
    const previous = stateOf(await readSignInState(tx, organisationId, { lock: true }), organisationId);
    const stillKept =
      (previous.bound !== null && previous.bound.tenantId === tenantId) ||
      (isPendingLive(previous.pending, now) && previous.pending.tenantId === tenantId) ||
      (tenantId === null && !previous.bound && !previous.pending);
    if (!stillKept) {
      if (tenantId && (await holderOf(tx, tenantId, organisationId))) throw refusal(409, 'entraTenantTaken');
      if (tenantId) {
        // Another directory than the bound one: its accounts are not the members' any more.
        if (previous.bound) await clearTenant(tx, organisationId);
        await setPendingTenant(tx, organisationId, tenantId, now, user.email);
      } else {
        await clearTenant(tx, organisationId);
      }
    }
    if (!change.password && !(previous.bound && previous.bound.tenantId === tenantId)) {
      throw refusal(400, 'passwordOffNeedsBoundTenant');
    }
    await setSignInMethods(tx, organisationId, { microsoft: change.microsoft, password: change.password });
    const after = stateOf(await readSignInState(tx, organisationId), organisationId);
    await ctx.audit(
      {
        ...actedBy(user, ip),
        organisationId,
        action: 'organisation.signIn.update',
        outcome: 'success',
        details: { before: auditState(previous, now), after: auditState(after, now) },
      },
      tx,
    );
    return { previous, after };
  });
  await notifyAdministrators(ctx, organisationId, {
    organisationName: after.organisationName,
    by: user.email,
    at: now,
    ip,
    changes: signInChanges(previous, after, now),
  });
  return signInSettingsAnswer(after, auth, now);
}
