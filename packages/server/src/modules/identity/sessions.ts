import { randomUUID } from 'node:crypto';
import type { Auth, SignedIn, TokenKind } from '../../access/actor.js';
import type { AppContext } from '../../context.js';
import { newToken, sha256 } from '../../crypto/tokens.js';
import type { Queryable } from '../../db/database.js';
import { isLockedOut } from './password.js';
import {
  findRevokedRefreshToken,
  findUserOfToken,
  insertToken,
  type RevokedToken,
  recordSignIn,
  revokeFamily,
  revokeUserFamilyTokens,
  revokeUserTokens,
  takeRefreshToken,
  touchToken,
} from './sessions-repository.js';
import { findUserById } from './users-repository.js';

/**
 * Identity contract: apollo access tokens live 1 hour, refresh tokens 14 days. The legacy sign-in
 * token (between password and second factor) lives 10 minutes; a legacy session 12 hours, since the
 * legacy API has no refresh call and the web app logs out after 15 idle minutes anyway.
 */
export const TOKEN_LIFETIME_MS: Record<TokenKind, number> = {
  signin: 10 * 60_000,
  access: 3600_000,
  refresh: 14 * 24 * 3600_000,
  session: 12 * 3600_000,
};

/** Token kinds that mean a signed-in user on both APIs. */
export const SESSION_KINDS: readonly TokenKind[] = ['access', 'session'];

export type { Auth };

export async function issueToken(
  tx: Queryable,
  now: Date,
  userId: string,
  kind: TokenKind,
  family?: string,
  ip?: string,
  signedIn: SignedIn = { method: 'password', at: now },
  userAgent?: string | null,
): Promise<{ token: string; expiresAt: Date; family: string }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[kind]);
  const tokenFamily = family ?? randomUUID();
  await insertToken(tx, {
    tokenHash: sha256(token),
    userId,
    kind,
    family: tokenFamily,
    expiresAt,
    createdAt: now,
    ip: ip ?? null,
    signedIn,
    userAgent: storedUserAgent(userAgent),
  });
  // A legacy session token is always a new sign-in (the legacy API does not refresh); an apollo access
  // token is one when it starts a family (a refresh continues the family it was given). An invited
  // user who signs in (with Microsoft, not needing the invitation's password) has accepted it.
  if (kind === 'session' || (kind === 'access' && family === undefined)) await recordSignIn(tx, userId, now);
  return { token, expiresAt, family: tokenFamily };
}

/** The longest user agent kept: enough for any browser's, bounded against a hostile header. */
const USER_AGENT_MAX = 512;

/** The user agent as stored: trimmed and bounded, null when none was sent. */
function storedUserAgent(userAgent: string | string[] | null | undefined): string | null {
  const text = (Array.isArray(userAgent) ? userAgent[0] : userAgent)?.trim();
  return text ? text.slice(0, USER_AGENT_MAX) : null;
}

/**
 * Issues the access and refresh tokens of a signed-in session: a new family at sign-in, the
 * refreshed token's family (and its sign-in) at a refresh, so that a logout ends every token the
 * sign-in led to.
 */
export async function issueSession(
  tx: Queryable,
  now: Date,
  userId: string,
  ip?: string,
  family?: string,
  signedIn?: SignedIn,
  userAgent?: string | null,
) {
  const access = await issueToken(tx, now, userId, 'access', family, ip, signedIn, userAgent);
  const refresh = await issueToken(tx, now, userId, 'refresh', access.family, ip, signedIn, userAgent);
  return { accessToken: access.token, refreshToken: refresh.token, family: access.family };
}

export type RefreshOutcome =
  | {
      outcome: 'rotated';
      userId: string;
      family: string;
      signedIn: SignedIn | undefined;
      /** The browser the family signed in from, kept by its refreshed tokens. */
      userAgent: string | null;
    }
  | { outcome: 'replayed'; userId: string; family: string }
  | { outcome: 'invalid' };

/**
 * Uses a refresh token once. A refresh token presented again after its rotation means that two
 * parties hold it (the user and a thief, who cannot be told apart), so its whole family is revoked:
 * `replayed` when that ended a family still alive.
 */
async function rotateRefreshToken(tx: Queryable, now: Date, token: string): Promise<RefreshOutcome> {
  const tokenHash = sha256(token);
  const live = await takeRefreshToken(tx, tokenHash, now);
  if (live) {
    return {
      outcome: 'rotated',
      userId: live.userId,
      family: live.family,
      signedIn: live.signedIn ?? undefined,
      userAgent: live.userAgent,
    };
  }
  const used = await findRevokedRefreshToken(tx, tokenHash);
  if (used && (await revokeFamily(tx, now, used.family)) > 0) {
    return { outcome: 'replayed', userId: used.userId, family: used.family };
  }
  return { outcome: 'invalid' };
}

/**
 * How often a token's last use is written: at most once a minute, so that a busy session costs one
 * write a minute, not one per request. The sessions list shows the last activity to the minute.
 */
const LAST_SEEN_STEP_MS = 60_000;

export async function resolveToken(ctx: AppContext, token: string, kinds: readonly TokenKind[]): Promise<Auth | null> {
  const tokenHash = sha256(token);
  // The session and its user in one query (a session's user is never missing: deleting a user deletes
  // its sessions, and a token of a missing user is refused as before).
  const now = ctx.now();
  const found = await findUserOfToken(ctx.db, tokenHash, now);
  if (!found || !kinds.includes(found.kind as TokenKind)) return null;
  if (!found.lastSeenAt || now.getTime() - found.lastSeenAt.getTime() >= LAST_SEEN_STEP_MS) {
    await touchToken(ctx.db, tokenHash, now);
  }
  return {
    user: found.user,
    kind: found.kind as TokenKind,
    tokenHash,
    family: found.family,
    signedIn: found.signedIn,
  };
}

/**
 * Revokes every token of a user, except those of `keepFamily` when given; answers how many signed-in
 * sessions (families with a live session, access or refresh token) that ended.
 */
export async function revokeAllForUser(tx: Queryable, now: Date, userId: string, keepFamily?: string): Promise<number> {
  return endedSessions(await revokeUserTokens(tx, now, userId, keepFamily), now);
}

/** How many signed-in sessions (families with a live session, access or refresh token) revoked tokens ended. */
function endedSessions(revoked: RevokedToken[], now: Date): number {
  const ended = revoked.filter((token) => token.kind !== 'signin' && token.expiresAt.getTime() > now.getTime());
  return new Set(ended.map((token) => token.family)).size;
}

/** Ends one signed-in session of the user; false when the user has no live session of that family. */
export async function revokeUserFamily(tx: Queryable, now: Date, userId: string, family: string): Promise<boolean> {
  return endedSessions(await revokeUserFamilyTokens(tx, now, userId, family), now) > 0;
}

/** Signs a user in with a refresh token, in the token's family; undefined when it is refused. */
export async function refreshSession(ctx: AppContext, refreshToken: string, ip: string) {
  return ctx.db.transaction(async (tx) => {
    const rotated = await rotateRefreshToken(tx, ctx.now(), refreshToken);
    if (rotated.outcome === 'invalid') return undefined;
    const user = await findUserById(tx, rotated.userId);
    if (rotated.outcome === 'replayed') {
      await ctx.audit(
        {
          actorUserId: rotated.userId,
          actorEmail: user?.email ?? null,
          organisationId: user?.organisationId ?? null,
          action: 'auth.refresh',
          outcome: 'failure',
          ip,
          details: { reason: 'replayed' },
        },
        tx,
      );
      return undefined;
    }
    if (!user || isLockedOut(user, ctx.now()) || user.deactivatedAt) return undefined;
    return issueSession(tx, ctx.now(), user.id, ip, rotated.family, rotated.signedIn, rotated.userAgent);
  });
}
