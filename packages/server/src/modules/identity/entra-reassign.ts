/**
 * The operator's word on an Entra tenant (`entra:reassign`): binds it to an organisation as proved,
 * taking it from whichever organisation had it, or releases it. For the owner of a directory that
 * cannot prove it by signing in (another organisation proved it first, by mistake or not), after the
 * operator has checked who owns it by other means. Audited with the command as the actor; the
 * administrators of each organisation concerned are mailed what changed.
 */
import type { AppContext } from '../../context.js';
import {
  bindTenant,
  clearTenant,
  holderOf,
  readSignInState,
  setSignInMethods,
  unlinkMembers,
} from './entra-repository.js';
import type { SignInState } from './entra-tenants.js';
import { notifyAdministrators, signInChanges } from './sign-in-settings.js';

/** The actor the audit log and the mails name for the command. */
const OPERATOR = 'operator (entra:reassign)';

interface Named {
  id: string;
  name: string;
}

/** What `entra:reassign` did. */
export type Reassignment =
  | { outcome: 'bound'; organisation: Named; releasedFrom: (Named & { unlinked: number }) | null; pendingEnded: number }
  | { outcome: 'alreadyBound'; organisation: Named }
  | { outcome: 'released'; organisation: Named & { unlinked: number } }
  | { outcome: 'notBound' }
  | { outcome: 'noOrganisation' };

const named = (state: SignInState): Named => ({ id: state.organisationId, name: state.organisationName });

/**
 * Takes the tenant from the organisation that has it bound: its members' links to the directory end,
 * sign-in with Microsoft goes off and password sign-in on (else nobody of it could sign in).
 */
async function release(ctx: AppContext, tx: Parameters<typeof clearTenant>[0], holder: SignInState, to?: string) {
  const tenantId = holder.bound?.tenantId ?? '';
  const unlinked = await clearTenant(tx, holder.organisationId);
  await setSignInMethods(tx, holder.organisationId, { microsoft: false, password: true });
  await ctx.audit(
    {
      actorEmail: OPERATOR,
      organisationId: holder.organisationId,
      action: 'organisation.entraTenant.released',
      target: tenantId,
      outcome: 'success',
      details: { tenantId, unlinked, ...(to ? { reassignedTo: to } : {}) },
    },
    tx,
  );
  return unlinked;
}

/**
 * Binds `tenantId` to `organisationId` as proved by the operator (sign-in with Microsoft on), or with
 * `organisationId` null releases it from the organisation that has it.
 */
export async function reassignEntraTenant(
  ctx: AppContext,
  tenantIdGiven: string,
  organisationId: string | null,
): Promise<Reassignment> {
  const tenantId = tenantIdGiven.trim().toLowerCase();
  const now = ctx.now();
  const changed: { before: SignInState; organisationId: string }[] = [];
  const result = await ctx.db.transaction(async (tx): Promise<Reassignment> => {
    const holder = await holderOf(tx, tenantId, organisationId ?? undefined);
    const heldBefore = holder && (await readSignInState(tx, holder.organisationId, { lock: true }));
    if (organisationId === null) {
      if (!heldBefore) return { outcome: 'notBound' };
      changed.push({ before: heldBefore, organisationId: heldBefore.organisationId });
      return {
        outcome: 'released',
        organisation: { ...named(heldBefore), unlinked: await release(ctx, tx, heldBefore) },
      };
    }
    const target = await readSignInState(tx, organisationId, { lock: true });
    if (!target) return { outcome: 'noOrganisation' };
    if (target.bound?.tenantId === tenantId) return { outcome: 'alreadyBound', organisation: named(target) };
    let releasedFrom: (Named & { unlinked: number }) | null = null;
    if (heldBefore) {
      changed.push({ before: heldBefore, organisationId: heldBefore.organisationId });
      releasedFrom = { ...named(heldBefore), unlinked: await release(ctx, tx, heldBefore, organisationId) };
    }
    // Another directory than the one it had: its members' links to that one's accounts end.
    if (target.bound) await unlinkMembers(tx, organisationId);
    const ended = await bindTenant(tx, organisationId, tenantId, { at: now, by: null, proof: 'operator' });
    await setSignInMethods(tx, organisationId, { microsoft: true, password: target.password });
    changed.push({ before: target, organisationId });
    await ctx.audit(
      {
        actorEmail: OPERATOR,
        organisationId,
        action: 'organisation.entraTenant.bound',
        target: tenantId,
        outcome: 'success',
        details: { tenantId, proof: 'operator', releasedFrom: releasedFrom?.id ?? null, pendingEnded: ended },
      },
      tx,
    );
    for (const other of ended) {
      await ctx.audit(
        {
          actorEmail: OPERATOR,
          organisationId: other,
          action: 'organisation.entraTenant.pendingEnded',
          target: tenantId,
          outcome: 'success',
          details: { tenantId, boundTo: organisationId },
        },
        tx,
      );
    }
    return { outcome: 'bound', organisation: named(target), releasedFrom, pendingEnded: ended.length };
  });
  for (const { before, organisationId: id } of changed) {
    const after = await readSignInState(ctx.db, id);
    if (!after) continue;
    await notifyAdministrators(
      ctx,
      id,
      {
        organisationName: after.organisationName,
        by: OPERATOR,
        at: now,
        ip: null,
        changes: signInChanges(before, after, now),
      },
      { now: true },
    );
  }
  return result;
}
