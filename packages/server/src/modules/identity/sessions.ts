import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { newToken, sha256 } from '../../crypto/tokens.js';
import type { Queryable } from '../../db/database.js';
import type { User } from './users.js';
import { findUserOfToken } from './users-repository.js';

export type TokenKind = 'signin' | 'access' | 'refresh' | 'session';

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

/** How a session signed in, and when: kept by every token the sign-in leads to, refreshed ones included. */
export interface SignedIn {
  method: 'password' | 'microsoft';
  at: Date;
}

export interface Auth {
  user: User;
  kind: TokenKind;
  tokenHash: string;
  /** Tokens issued together (and by refreshing them) share a family, revoked as one at logout. */
  family: string;
  /** Null for tokens issued before sign-ins were recorded (migration 24). */
  signedIn: SignedIn | null;
}

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
  await tx.query(
    `insert into sessions (token_hash, user_id, kind, family, expires_at, created_at, ip, sign_in_method, signed_in_at, user_agent, last_seen_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $6)`,
    [
      sha256(token),
      userId,
      kind,
      tokenFamily,
      expiresAt,
      now,
      ip ?? null,
      signedIn.method,
      signedIn.at,
      storedUserAgent(userAgent),
    ],
  );
  // A legacy session token is always a new sign-in (the legacy API does not refresh); an apollo access
  // token is one when it starts a family (a refresh continues the family it was given). An invited
  // user who signs in (with Microsoft, not needing the invitation's password) has accepted it.
  if (kind === 'session' || (kind === 'access' && family === undefined)) {
    await tx.query(
      `update users set last_sign_in_at = $2,
              invitation_accepted_at = case when invited_at is not null then coalesce(invitation_accepted_at, $2) end
        where id = $1`,
      [userId, now],
    );
  }
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

interface SignedInRow {
  sign_in_method: SignedIn['method'] | null;
  signed_in_at: Date | null;
}

function signedInOf(row: SignedInRow): SignedIn | null {
  return row.sign_in_method && row.signed_in_at ? { method: row.sign_in_method, at: new Date(row.signed_in_at) } : null;
}

/**
 * Uses a refresh token once. A refresh token presented again after its rotation means that two
 * parties hold it (the user and a thief, who cannot be told apart), so its whole family is revoked:
 * `replayed` when that ended a family still alive.
 */
export async function rotateRefreshToken(tx: Queryable, now: Date, token: string): Promise<RefreshOutcome> {
  const tokenHash = sha256(token);
  const [live] = await tx.query<{ user_id: string; family: string; user_agent: string | null } & SignedInRow>(
    `update sessions set revoked_at = $2 where token_hash = $1 and kind = 'refresh' and revoked_at is null and expires_at > $2
     returning user_id, family, sign_in_method, signed_in_at, user_agent`,
    [tokenHash, now],
  );
  if (live) {
    return {
      outcome: 'rotated',
      userId: live.user_id,
      family: live.family,
      signedIn: signedInOf(live) ?? undefined,
      userAgent: live.user_agent,
    };
  }
  const [used] = await tx.query<{ user_id: string; family: string }>(
    "select user_id, family from sessions where token_hash = $1 and kind = 'refresh' and revoked_at is not null",
    [tokenHash],
  );
  if (used && (await revokeFamily(tx, now, used.family)) > 0) {
    return { outcome: 'replayed', userId: used.user_id, family: used.family };
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
  if (!found.last_seen_at || now.getTime() - new Date(found.last_seen_at).getTime() >= LAST_SEEN_STEP_MS) {
    await ctx.db.query('update sessions set last_seen_at = $2 where token_hash = $1', [tokenHash, now]);
  }
  return {
    user: found.user,
    kind: found.kind as TokenKind,
    tokenHash,
    family: found.family,
    signedIn: signedInOf(found),
  };
}

export async function revokeToken(tx: Queryable, now: Date, tokenHash: string) {
  await tx.query('update sessions set revoked_at = $2 where token_hash = $1 and revoked_at is null', [tokenHash, now]);
}

/** Revokes every token of a family; how many were still alive. */
export async function revokeFamily(tx: Queryable, now: Date, family: string): Promise<number> {
  const rows = await tx.query(
    'update sessions set revoked_at = $2 where family = $1 and revoked_at is null returning token_hash',
    [family, now],
  );
  return rows.length;
}

/**
 * Revokes every token of a user, except those of `keepFamily` when given; answers how many signed-in
 * sessions (families with a live session, access or refresh token) that ended.
 */
export async function revokeAllForUser(tx: Queryable, now: Date, userId: string, keepFamily?: string): Promise<number> {
  const rows = await tx.query<{ family: string; kind: TokenKind; expires_at: Date }>(
    `update sessions set revoked_at = $2
     where user_id = $1 and revoked_at is null and ($3::text is null or family <> $3)
     returning family, kind, expires_at`,
    [userId, now, keepFamily ?? null],
  );
  const ended = rows.filter((row) => row.kind !== 'signin' && new Date(row.expires_at).getTime() > now.getTime());
  return new Set(ended.map((row) => row.family)).size;
}

/** How many signed-in sessions of a user are alive besides `family` (the asking one). */
export async function countOtherSessions(db: Queryable, now: Date, userId: string, family: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(distinct family)::int as n from sessions
     where user_id = $1 and revoked_at is null and expires_at > $2 and kind <> 'signin' and family <> $3`,
    [userId, now, family],
  );
  return row?.n ?? 0;
}

/** One signed-in session of a user (a token family with a live access, session or refresh token). */
export interface LiveSession {
  family: string;
  signInMethod: SignedIn['method'] | null;
  /** When the family signed in (its first token, for families from before sign-ins were recorded). */
  signedInAt: Date;
  lastSeenAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/**
 * The user's signed-in sessions, the most recently used first: one per token family that still has a
 * live token other than a sign-in token (a password accepted but no second factor yet is no session).
 * The address and browser are those of the sign-in (its first token).
 */
export async function listLiveSessions(db: Queryable, now: Date, userId: string): Promise<LiveSession[]> {
  const rows = await db.query<{
    family: string;
    sign_in_method: SignedIn['method'] | null;
    signed_in_at: Date;
    last_seen_at: Date;
    ip: string | null;
    user_agent: string | null;
  }>(
    `select family,
            (array_agg(sign_in_method order by created_at))[1] as sign_in_method,
            coalesce(min(signed_in_at), min(created_at)) as signed_in_at,
            max(coalesce(last_seen_at, created_at)) as last_seen_at,
            (array_agg(ip order by created_at))[1] as ip,
            (array_agg(user_agent order by created_at))[1] as user_agent
       from sessions
      where user_id = $1 and kind <> 'signin'
      group by family
     having bool_or(revoked_at is null and expires_at > $2)
      order by last_seen_at desc, family`,
    [userId, now],
  );
  return rows.map((row) => ({
    family: row.family,
    signInMethod: row.sign_in_method,
    signedInAt: new Date(row.signed_in_at),
    lastSeenAt: new Date(row.last_seen_at),
    ip: row.ip,
    userAgent: row.user_agent,
  }));
}

/** Ends one signed-in session of the user; false when the user has no live session of that family. */
export async function revokeUserFamily(tx: Queryable, now: Date, userId: string, family: string): Promise<boolean> {
  const rows = await tx.query<{ kind: TokenKind; expires_at: Date }>(
    `update sessions set revoked_at = $3 where user_id = $1 and family = $2 and revoked_at is null
     returning kind, expires_at`,
    [userId, family, now],
  );
  return rows.some((row) => row.kind !== 'signin' && new Date(row.expires_at).getTime() > now.getTime());
}
