/**
 * Sign-in with Microsoft Entra ID: the portal as an OpenID Connect relying party through openid-client
 * (entra-oidc.ts). An organisation that allows it signs in from one Entra tenant, bound or pending
 * (entra-tenants.ts); a sign-in starts with the account's address, which names the organisation and
 * so the tenant whose authority is asked (its issuer is exactly `{authority}/{tenantId}/v2.0`, never a
 * multi-tenant template). The code is redeemed with the PKCE verifier; the ID token's signature is
 * checked against the tenant's JWKS, and its issuer, audience, expiry and nonce by openid-client; then
 * its `tid` against the organisation's tenant, and its verified email against the organisation's
 * users. The first sign-in links the user to the token's `oid`; later ones must come from that same
 * Entra account. While the tenant is pending, the first sign-in that passes all of this proves that
 * the organisation controls the directory, and binds it.
 */
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { actedBy } from '../../audit/audit-by.js';
import type { EntraApp } from '../../config.js';
import type { AppContext } from '../../context.js';
import { sha256 } from '../../crypto/tokens.js';
import type { Queryable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { refusal } from '../../errors.js';
import { authorizationUrl, redeemCode, SignInRefused, tenantConfiguration, verifiedEmail } from './entra-oidc.js';
import {
  bindTenant,
  forgetEntraSignIns,
  holderOf,
  insertEntraSignIn,
  linkEntraAccount,
  readSignInState,
  takeEntraSignIn,
} from './entra-repository.js';
import { isPendingLive, type SignInState, signInTenantOf } from './entra-tenants.js';
import { issueToken } from './sessions.js';
import { notifyAdministrators, signInChanges } from './sign-in-settings.js';
import { sessionUser, type User } from './users.js';
import { findUserByEmail } from './users-repository.js';

/** How long a started sign-in may take to come back (Entra ID's codes live 10 minutes too). */
const SIGN_IN_LIFETIME_MS = 10 * 60_000;

/** The app registration each context signs in with: its configuration's, or the demo simulator's. */
const apps = new WeakMap<AppContext, EntraApp>();

/** Sets the app registration of `ctx` (the demo's, registered with its simulator). */
export function useEntraApp(ctx: AppContext, app: EntraApp): void {
  apps.set(ctx, app);
}

/** The app registration "Sign in with Microsoft" uses, if the server has one. */
export function entraAppOf(ctx: AppContext): EntraApp | undefined {
  return ctx.config.entra ?? apps.get(ctx);
}

export const redirectUriOf = (ctx: AppContext) => `${ctx.config.publicUrl}/signin/microsoft`;

/**
 * Starts a sign-in for the account at `email`: the authorization URL of its organisation's tenant.
 * An address without an account reads as one whose organisation does not sign in with Microsoft, so
 * the answer does not tell which addresses have accounts.
 */
export async function startMicrosoftSignIn(ctx: AppContext, email: string): Promise<{ authorizationUrl: string }> {
  const app = entraAppOf(ctx);
  const user = await findUserByEmail(ctx.db, email);
  const now = ctx.now();
  const tenantId = user ? signInTenantOf(await readSignInState(ctx.db, user.organisationId), now) : null;
  if (!app || !user || !tenantId) throw refusal(400, 'entraNotAvailable');
  const config = await tenantConfiguration(app, tenantId);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await forgetEntraSignIns(ctx.db, new Date(now.getTime() - SIGN_IN_LIFETIME_MS));
  await insertEntraSignIn(ctx.db, sha256(state), {
    organisationId: user.organisationId,
    tenantId,
    codeVerifierSealed: ctx.secrets.seal(verifier),
    nonce,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_IN_LIFETIME_MS),
  });
  const url = await authorizationUrl(config, {
    redirectUri: redirectUriOf(ctx),
    verifier,
    state,
    nonce,
    loginHint: user.email,
  });
  return { authorizationUrl: url.href };
}

/** Whether the sign-in proves the organisation's pending tenant (else it signs in from the bound one). */
function proofOf(state: SignInState | undefined, tenantId: string, now: Date): 'bound' | 'proves' {
  const tenant = tenantId.toLowerCase();
  if (state?.microsoft && state.bound?.tenantId === tenant) return 'bound';
  if (state?.microsoft && state.pending?.tenantId === tenant) {
    if (!isPendingLive(state.pending, now)) {
      throw new SignInRefused('entraNotAvailable', 'the pending tenant expired before it was proved');
    }
    return 'proves';
  }
  throw new SignInRefused('entraNotAvailable', 'the organisation no longer signs in with this tenant');
}

/**
 * Binds the organisation's pending tenant, proved by `user`'s sign-in from it, and ends the other
 * organisations' pending claims of it; audited. False when the settings changed meanwhile (the
 * sign-in then goes on from the tenant they name, or is refused).
 */
async function proveTenant(ctx: AppContext, tx: Queryable, user: User, tenantId: string, ip: string) {
  const now = ctx.now();
  // Held to the end: a change of the settings meanwhile waits for this, or is seen here.
  const current = await readSignInState(tx, user.organisationId, { lock: true });
  if (proofOf(current, tenantId, now) !== 'proves') return false;
  if (await holderOf(tx, tenantId, user.organisationId)) {
    throw new SignInRefused('entraTenantTaken', 'another organisation proved the tenant first', 409);
  }
  const ended = await bindTenant(tx, user.organisationId, tenantId, {
    at: now,
    by: user.email,
    proof: 'microsoftSignIn',
  });
  await ctx.audit(
    {
      ...actedBy(user, ip),
      organisationId: user.organisationId,
      action: 'organisation.entraTenant.bound',
      target: tenantId,
      outcome: 'success',
      details: { tenantId, proof: 'microsoftSignIn', pendingEnded: ended },
    },
    tx,
  );
  for (const other of ended) {
    await ctx.audit(
      {
        ...actedBy(user, ip),
        organisationId: other,
        action: 'organisation.entraTenant.pendingEnded',
        target: tenantId,
        outcome: 'success',
        details: { tenantId, boundTo: user.organisationId },
      },
      tx,
    );
  }
  return true;
}

/** Links the user to the Entra account at the first sign-in, and issues the session; audited. */
async function startSession(
  ctx: AppContext,
  tx: Queryable,
  user: User,
  from: { oid: string; tenantId: string; ip: string; userAgent: string | undefined },
) {
  const now = ctx.now();
  if (!user.entraObjectId) {
    // Linked once: of two first sign-ins at the same moment, the second finds the link taken.
    if (!(await linkEntraAccount(tx, user.id, from.oid)))
      throw new SignInRefused('entraNoAccount', 'the user was linked to an Entra account meanwhile');
  }
  const { token } = await issueToken(
    tx,
    now,
    user.id,
    'session',
    randomUUID(),
    from.ip,
    { method: 'microsoft', at: now },
    from.userAgent,
  );
  await ctx.audit(
    {
      ...actedBy(user, from.ip),
      organisationId: user.organisationId,
      action: 'auth.microsoft',
      outcome: 'success',
      details: { tenantId: from.tenantId, linked: !user.entraObjectId },
    },
    tx,
  );
  return { token, user: sessionUser(user) };
}

/**
 * Finishes a sign-in: the state must be one this server issued and not used; the code is redeemed and
 * the ID token checked; the user is the organisation's user with the token's verified email (linked
 * to the token's oid at the first sign-in). Answers the session as the second factor's check does.
 */
export async function completeMicrosoftSignIn(
  ctx: AppContext,
  input: { code: string; state: string },
  ip: string,
  userAgent?: string,
): Promise<{ token: string; user: ReturnType<typeof sessionUser> }> {
  const app = entraAppOf(ctx);
  if (!app) throw refusal(400, 'entraNotAvailable');
  const now = ctx.now();
  // Taken once: a second use of the same state (a replayed callback) finds it used.
  const pending = await takeEntraSignIn(ctx.db, sha256(input.state), now);
  const organisationId = pending?.organisationId ?? null;
  let tokenEmail: string | undefined;
  try {
    if (!pending) throw new SignInRefused('entraReplayed', 'unknown or used state');
    if (pending.expiresAt < now) throw new SignInRefused('entraExpired', 'sign-in request expired');
    const config = await tenantConfiguration(app, pending.tenantId);
    const callback = new URL(redirectUriOf(ctx));
    callback.searchParams.set('code', input.code);
    callback.searchParams.set('state', input.state);
    let verifier: string;
    try {
      verifier = ctx.secrets.open(pending.codeVerifierSealed);
    } catch {
      // Sealed under a key rotated away since (secrets:rotate leaves sign-ins of a few minutes be).
      throw new SignInRefused('entraExpired', 'the sign-in was begun under another secret key');
    }
    const claims = await redeemCode(config, callback, { verifier, state: input.state, nonce: pending.nonce });
    if (!claims) throw new SignInRefused('entraBadSignature', 'no ID token');
    // The issuer is the tenant's already; the claim is checked too, as Microsoft advises.
    if (String(claims.tid ?? '').toLowerCase() !== pending.tenantId.toLowerCase()) {
      throw new SignInRefused('entraOtherTenant', `tid ${String(claims.tid)}`);
    }
    tokenEmail = verifiedEmail(claims);
    if (!tokenEmail) throw new SignInRefused('entraNoVerifiedEmail', 'no verified email claim');
    const oid = typeof claims.oid === 'string' ? claims.oid : '';
    const before = await readSignInState(ctx.db, pending.organisationId);
    const proof = proofOf(before, pending.tenantId, now);
    const user = await findUserByEmail(ctx.db, tokenEmail);
    // Within the organisation only: an address of another organisation's user is no match.
    if (!user || user.organisationId !== pending.organisationId || !oid) {
      throw new SignInRefused('entraNoAccount', 'no user of the organisation has this email');
    }
    if (user.entraObjectId && user.entraObjectId !== oid) {
      throw new SignInRefused('entraNoAccount', 'the user is linked to another Entra account');
    }
    if (user.deactivatedAt) throw new SignInRefused('accountDeactivated', 'the account is deactivated', 403);
    const tenantId = pending.tenantId.toLowerCase();
    const signedIn = await ctx.db
      .transaction(async (tx) => {
        const bound = proof === 'proves' && (await proveTenant(ctx, tx, user, tenantId, ip));
        return { session: await startSession(ctx, tx, user, { oid, tenantId, ip, userAgent }), bound };
      })
      .catch((error: unknown) => {
        // Two organisations proving the same tenant at once: the unique index lets one through.
        if (isUniqueViolation(error, 'organisations_entra_tenant')) {
          throw new SignInRefused('entraTenantTaken', 'another organisation proved the tenant', 409);
        }
        throw error;
      });
    const after = signedIn.bound ? await readSignInState(ctx.db, user.organisationId) : undefined;
    if (before && after) {
      await notifyAdministrators(ctx, user.organisationId, {
        organisationName: after.organisationName,
        by: user.email,
        at: now,
        ip,
        changes: signInChanges(before, after, now),
      });
    }
    return signedIn.session;
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    const user = tokenEmail ? await findUserByEmail(ctx.db, tokenEmail) : undefined;
    const own = user && user.organisationId === organisationId ? user : undefined;
    await ctx.audit({
      actorUserId: own?.id ?? null,
      actorEmail: own?.email ?? tokenEmail ?? '',
      organisationId,
      action: 'auth.microsoft',
      outcome: 'failure',
      ip,
      details: { code: error.code, reason: error.reason.slice(0, 300) },
    });
    throw refusal(error.status, error.code);
  }
}
