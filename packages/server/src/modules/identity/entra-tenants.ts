/**
 * Which Entra tenant an organisation signs in with, and whether it has proved that it controls it.
 * A tenant id an organisation sets waits as pending for 7 days; several organisations may have the
 * same one pending, so setting an id claims nothing. It becomes bound (unique: migration 23's index)
 * when a member of the organisation completes a sign-in with Microsoft from it (entra.ts), or when the
 * operator binds it (`entra:reassign`); binding it ends every other organisation's pending claim.
 * The states and their rules; their SQL is in entra-repository.ts, the changes in entra.ts,
 * sign-in-settings.ts and entra-reassign.ts.
 */

/** How long a set tenant id waits for the sign-in that proves it. */
export const PENDING_TENANT_MS = 7 * 24 * 3600_000;

/** A proved binding: since when, by whose sign-in (their address) or by the operator. */
export interface BoundTenant {
  tenantId: string;
  at: Date;
  by: string | null;
  proof: 'microsoftSignIn' | 'operator';
}

/** A tenant id set and waiting for its proof until `expiresAt` (not used after it). */
export interface PendingTenant {
  tenantId: string;
  since: Date;
  expiresAt: Date;
  setBy: string | null;
}

/** How an organisation signs in. An organisation has a bound tenant or a pending one, never both. */
export interface SignInState {
  organisationId: string;
  organisationName: string;
  microsoft: boolean;
  password: boolean;
  bound: BoundTenant | null;
  pending: PendingTenant | null;
}

export const isPendingLive = (pending: PendingTenant | null, now: Date): pending is PendingTenant =>
  pending !== null && pending.expiresAt.getTime() > now.getTime();

/** Where a pending tenant stands: still waiting for its proof, or past its 7 days. */
export const pendingStateOf = (pending: PendingTenant, now: Date): 'pending' | 'expired' =>
  isPendingLive(pending, now) ? 'pending' : 'expired';

/** The tenant a sign-in with Microsoft goes to: the bound one, else a pending one not expired; null when off. */
export function signInTenantOf(state: SignInState | undefined, now: Date): string | null {
  if (!state?.microsoft) return null;
  if (state.bound) return state.bound.tenantId;
  return isPendingLive(state.pending, now) ? state.pending.tenantId : null;
}
