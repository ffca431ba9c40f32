/**
 * Sign-in with Microsoft Entra ID: the portal as an OpenID Connect relying party through openid-client
 * (jose underneath). An organisation that allows it signs in from one Entra tenant, bound or pending
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
import { refusal } from '../../http/errors.js';
import {
  bindTenant,
  holderOf,
  isPendingLive,
  readSignInState,
  type SignInState,
  signInTenantOf,
} from './entra-tenants.js';
import { issueToken } from './sessions.js';
import { notifyAdministrators, signInChanges } from './sign-in-settings.js';
import { sessionUser, type User } from './users.js';
import { findUserByEmail } from './users-repository.js';

/** How long a started sign-in may take to come back (Entra ID's codes live 10 minutes too). */
const SIGN_IN_LIFETIME_MS = 10 * 60_000;
/** A tenant's OpenID configuration is read again after this long (its keys rotate). */
const CONFIGURATION_TTL_MS = 10 * 60_000;
const SCOPE = 'openid profile email';

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

const configurations = new Map<string, { config: oidc.Configuration; at: number }>();

/** The relying party's configuration for one tenant, from that tenant's OpenID configuration document. */
async function tenantConfiguration(app: EntraApp, tenantId: string): Promise<oidc.Configuration> {
  const key = `${app.authority}|${app.clientId}|${tenantId}`;
  const cached = configurations.get(key);
  if (cached && Date.now() - cached.at < CONFIGURATION_TTL_MS) return cached.config;
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(
      new URL(`${app.authority}/${tenantId}/v2.0`),
      app.clientId,
      { client_secret: app.clientSecret, id_token_signed_response_alg: 'RS256' },
      oidc.ClientSecretPost(app.clientSecret),
      // The ID token's signature is checked against the tenant's keys, not only trusted for the TLS
      // it came over: a token that does not verify is refused.
      { execute: [oidc.enableNonRepudiationChecks], timeout: 15 },
    );
  } catch (error) {
    throw Object.assign(refusal(503, 'entraUnavailable'), { cause: error });
  }
  configurations.set(key, { config, at: Date.now() });
  return config;
}

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
  await ctx.db.query('delete from entra_sign_ins where expires_at < $1', [
    new Date(now.getTime() - SIGN_IN_LIFETIME_MS),
  ]);
  await ctx.db.query(
    `insert into entra_sign_ins (state_hash, organisation_id, tenant_id, code_verifier_sealed, nonce, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      sha256(state),
      user.organisationId,
      tenantId,
      ctx.secrets.seal(verifier),
      nonce,
      now,
      new Date(now.getTime() + SIGN_IN_LIFETIME_MS),
    ],
  );
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUriOf(ctx),
    scope: SCOPE,
    response_type: 'code',
    response_mode: 'query',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: user.email,
  });
  return { authorizationUrl: url.href };
}

interface PendingRow {
  organisation_id: string;
  tenant_id: string;
  code_verifier_sealed: string;
  nonce: string;
  expires_at: Date;
  used_at: Date | null;
}

type EntraRefusal =
  | 'accountDeactivated'
  | 'entraOtherTenant'
  | 'entraWrongAudience'
  | 'entraExpired'
  | 'entraReplayed'
  | 'entraBadSignature'
  | 'entraNoVerifiedEmail'
  | 'entraNoAccount'
  | 'entraNotAvailable'
  | 'entraTenantTaken';

/** A failed sign-in: refused with its code and audited with the reason openid-client gave. */
class SignInRefused extends Error {
  constructor(
    readonly code: EntraRefusal,
    readonly reason: string,
    readonly status = 400,
  ) {
    super(reason);
  }
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
 * What openid-client's refusal of an answer means for the person signing in. Its errors wrap
 * oauth4webapi's, whose `cause` names the claim that did not compare (`iss`, `aud`, `nonce`) or holds
 * the signature that did not verify; anything else (a network failure, a malformed answer) is not a
 * refusal of the sign-in and passes through.
 */
function refusalOf(error: unknown): SignInRefused {
  const chain: { code?: string; message?: string; claim?: string; error?: string }[] = [];
  for (let e: unknown = error; e && typeof e === 'object' && chain.length < 6; e = (e as { cause?: unknown }).cause) {
    chain.push(e as (typeof chain)[number]);
  }
  const codes = new Set(chain.map((e) => e.code));
  const claim = chain.find((e) => typeof e.claim === 'string')?.claim;
  const reason = chain
    .map((e) => e.message)
    .filter(Boolean)
    .join(': ');
  if (codes.has('OAUTH_JWT_CLAIM_COMPARISON_FAILED')) {
    if (claim === 'iss' || claim === 'tid') return new SignInRefused('entraOtherTenant', reason);
    if (claim === 'aud' || claim === 'azp') return new SignInRefused('entraWrongAudience', reason);
    if (claim === 'nonce') return new SignInRefused('entraReplayed', reason);
  }
  if (codes.has('OAUTH_JWT_TIMESTAMP_CHECK_FAILED')) return new SignInRefused('entraExpired', reason);
  if (chain.some((e) => /signature verification failed/i.test(e.message ?? ''))) {
    return new SignInRefused('entraBadSignature', reason);
  }
  // The token endpoint's own refusal of the code (redeemed before, expired): a sign-in to start again.
  if (codes.has('OAUTH_RESPONSE_BODY_ERROR') && chain.some((e) => e.error === 'invalid_grant')) {
    return new SignInRefused('entraExpired', reason);
  }
  throw error;
}

/** The address the ID token vouches for: `email` when Entra ID marks its domain as verified (`xms_edov`). */
function verifiedEmail(claims: oidc.IDToken): string | undefined {
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return email && claims.xms_edov === true ? email : undefined;
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
    const [linked] = await tx.query(
      'update users set entra_object_id = $2 where id = $1 and entra_object_id is null returning 1',
      [user.id, from.oid],
    );
    if (!linked) throw new SignInRefused('entraNoAccount', 'the user was linked to an Entra account meanwhile');
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
  const [pending] = await ctx.db.query<PendingRow>(
    `update entra_sign_ins set used_at = $2 where state_hash = $1 and used_at is null
     returning organisation_id, tenant_id, code_verifier_sealed, nonce, expires_at, used_at`,
    [sha256(input.state), now],
  );
  const organisationId = pending?.organisation_id ?? null;
  let tokenEmail: string | undefined;
  try {
    if (!pending) throw new SignInRefused('entraReplayed', 'unknown or used state');
    if (new Date(pending.expires_at) < now) throw new SignInRefused('entraExpired', 'sign-in request expired');
    const config = await tenantConfiguration(app, pending.tenant_id);
    const callback = new URL(redirectUriOf(ctx));
    callback.searchParams.set('code', input.code);
    callback.searchParams.set('state', input.state);
    let verifier: string;
    try {
      verifier = ctx.secrets.open(pending.code_verifier_sealed);
    } catch {
      // Sealed under a key rotated away since (secrets:rotate leaves sign-ins of a few minutes be).
      throw new SignInRefused('entraExpired', 'the sign-in was begun under another secret key');
    }
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: input.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw refusalOf(error);
    }
    if (!claims) throw new SignInRefused('entraBadSignature', 'no ID token');
    // The issuer is the tenant's already; the claim is checked too, as Microsoft advises.
    if (String(claims.tid ?? '').toLowerCase() !== pending.tenant_id.toLowerCase()) {
      throw new SignInRefused('entraOtherTenant', `tid ${String(claims.tid)}`);
    }
    tokenEmail = verifiedEmail(claims);
    if (!tokenEmail) throw new SignInRefused('entraNoVerifiedEmail', 'no verified email claim');
    const oid = typeof claims.oid === 'string' ? claims.oid : '';
    const before = await readSignInState(ctx.db, pending.organisation_id);
    const proof = proofOf(before, pending.tenant_id, now);
    const user = await findUserByEmail(ctx.db, tokenEmail);
    // Within the organisation only: an address of another organisation's user is no match.
    if (!user || user.organisationId !== pending.organisation_id || !oid) {
      throw new SignInRefused('entraNoAccount', 'no user of the organisation has this email');
    }
    if (user.entraObjectId && user.entraObjectId !== oid) {
      throw new SignInRefused('entraNoAccount', 'the user is linked to another Entra account');
    }
    if (user.deactivatedAt) throw new SignInRefused('accountDeactivated', 'the account is deactivated', 403);
    const tenantId = pending.tenant_id.toLowerCase();
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
