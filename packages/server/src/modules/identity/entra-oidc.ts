/**
 * The portal as an OpenID Connect relying party of one Entra tenant, through openid-client (jose
 * underneath): the tenant's configuration (its issuer exactly `{authority}/{tenantId}/v2.0`), the
 * authorization URL with PKCE, the code's redemption with the ID token's checks, and what
 * openid-client's refusals mean for the person signing in.
 */
import * as oidc from 'openid-client';
import type { EntraApp } from '../../config.js';
import { refusal } from '../../errors.js';

/** A tenant's OpenID configuration is read again after this long (its keys rotate). */
const CONFIGURATION_TTL_MS = 10 * 60_000;
const SCOPE = 'openid profile email';

const configurations = new Map<string, { config: oidc.Configuration; at: number }>();

/** The relying party's configuration for one tenant, from that tenant's OpenID configuration document. */
export async function tenantConfiguration(app: EntraApp, tenantId: string): Promise<oidc.Configuration> {
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

/** The authorization URL of a sign-in: its PKCE challenge, state, nonce and the account's address as hint. */
export async function authorizationUrl(
  config: oidc.Configuration,
  request: { redirectUri: string; verifier: string; state: string; nonce: string; loginHint: string },
): Promise<URL> {
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: request.redirectUri,
    scope: SCOPE,
    response_type: 'code',
    response_mode: 'query',
    code_challenge: await oidc.calculatePKCECodeChallenge(request.verifier),
    code_challenge_method: 'S256',
    state: request.state,
    nonce: request.nonce,
    login_hint: request.loginHint,
  });
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
export class SignInRefused extends Error {
  constructor(
    readonly code: EntraRefusal,
    readonly reason: string,
    readonly status = 400,
  ) {
    super(reason);
  }
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
export function verifiedEmail(claims: oidc.IDToken): string | undefined {
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return email && claims.xms_edov === true ? email : undefined;
}

/**
 * Redeems the code with the PKCE verifier; the ID token's signature, issuer, audience, expiry and
 * nonce are checked by openid-client. Answers the token's claims (undefined without an ID token), or
 * throws the refusal its failure means.
 */
export async function redeemCode(
  config: oidc.Configuration,
  callback: URL,
  expected: { verifier: string; state: string; nonce: string },
): Promise<oidc.IDToken | undefined> {
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: expected.verifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    return tokens.claims();
  } catch (error) {
    throw refusalOf(error);
  }
}
