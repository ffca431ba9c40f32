/**
 * Refresh tokens as Entra ID issues them to a web app that asked `offline_access`: opaque strings,
 * bound to the client, the user and the tenant, good for 90 days (Entra ID's default lifetime for
 * every app but a single-page one). Redeeming one answers a new one with 90 days of its own; the old
 * one stays good until its own end, as Entra ID does not revoke a refresh token when it is used (a
 * client is expected to keep the newest). They live in the simulator's memory, like its tenants.
 */
import { randomBytes } from 'node:crypto';
import type { OidcScope } from './scopes.js';

/** Entra ID's default lifetime of a refresh token outside single-page apps. */
const REFRESH_TOKEN_LIFETIME_MS = 90 * 24 * 3600_000;

/** What a refresh token stands for: a user's sign-in to a client in a tenant, and its OpenID scopes. */
export interface RefreshGrant {
  tenantId: string;
  clientId: string;
  userId: string;
  oidc: ReadonlySet<OidcScope>;
  issuedAt: number;
  expiresAt: number;
}

/** Why a refresh token is not redeemed: not one of ours in form, unknown, another client's or tenant's, expired. */
export type RefreshRefusal = 'malformed' | 'unknown' | 'otherClient' | 'expired';

/** The shape of the tokens issued: a version, then 64 random bytes; anything else is malformed. */
const FORM = /^1\.[\w-]{86}$/;

export function createRefreshTokens() {
  const tokens = new Map<string, RefreshGrant>();

  /** Forgets tokens that ended a lifetime ago: until then an expired one is told apart from an unknown one. */
  function forget(now: number) {
    for (const [token, grant] of tokens) if (grant.expiresAt < now - REFRESH_TOKEN_LIFETIME_MS) tokens.delete(token);
  }

  return {
    /** A new refresh token for the grant, good from `now` for 90 days. */
    issue(grant: Omit<RefreshGrant, 'issuedAt' | 'expiresAt'>, now: number): string {
      forget(now);
      const token = `1.${randomBytes(64).toString('base64url')}`;
      tokens.set(token, { ...grant, issuedAt: now, expiresAt: now + REFRESH_TOKEN_LIFETIME_MS });
      return token;
    },
    /** The grant of `token` for this client in this tenant, or why it is refused (with its grant when known). */
    redeem(
      token: string,
      tenantId: string,
      clientId: string,
      now: number,
    ): { grant: RefreshGrant } | { refusal: RefreshRefusal; grant?: RefreshGrant } {
      if (!FORM.test(token)) return { refusal: 'malformed' };
      const grant = tokens.get(token);
      if (!grant) return { refusal: 'unknown' };
      if (grant.clientId !== clientId || grant.tenantId !== tenantId) return { refusal: 'otherClient' };
      if (grant.expiresAt <= now) return { refusal: 'expired', grant };
      return { grant };
    },
    /** Ends every refresh token issued so far now, as 90 days unused would; answers how many were good. */
    expireAll(now: number): number {
      let ended = 0;
      for (const grant of tokens.values()) {
        if (grant.expiresAt > now) ended += 1;
        grant.expiresAt = Math.min(grant.expiresAt, now);
      }
      return ended;
    },
  };
}
