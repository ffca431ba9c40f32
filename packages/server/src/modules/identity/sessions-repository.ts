/** The SQL of tokens and sessions (`sessions`): one row per token, a token family per sign-in. */
import type { SignedIn, TokenKind } from '../../access/actor.js';
import type { Queryable } from '../../db/database.js';
import type { User } from './users.js';
import { toUser, type UserRow } from './users-repository.js';

interface SignedInRow {
  sign_in_method: SignedIn['method'] | null;
  signed_in_at: Date | null;
}

function signedInOf(row: SignedInRow): SignedIn | null {
  return row.sign_in_method && row.signed_in_at ? { method: row.sign_in_method, at: new Date(row.signed_in_at) } : null;
}

export async function insertToken(
  tx: Queryable,
  token: {
    tokenHash: string;
    userId: string;
    kind: TokenKind;
    family: string;
    expiresAt: Date;
    createdAt: Date;
    ip: string | null;
    signedIn: SignedIn;
    userAgent: string | null;
  },
): Promise<void> {
  await tx.query(
    `insert into sessions (token_hash, user_id, kind, family, expires_at, created_at, ip, sign_in_method, signed_in_at, user_agent, last_seen_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $6)`,
    [
      token.tokenHash,
      token.userId,
      token.kind,
      token.family,
      token.expiresAt,
      token.createdAt,
      token.ip,
      token.signedIn.method,
      token.signedIn.at,
      token.userAgent,
    ],
  );
}

/** The user signed in at `now`; an invited user who signs in has accepted the invitation. */
export async function recordSignIn(tx: Queryable, userId: string, now: Date): Promise<void> {
  await tx.query(
    `update users set last_sign_in_at = $2,
            invitation_accepted_at = case when invited_at is not null then coalesce(invitation_accepted_at, $2) end
      where id = $1`,
    [userId, now],
  );
}

/** Revokes a live refresh token and answers what it carried; undefined when it was not live. */
export async function takeRefreshToken(
  tx: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; family: string; signedIn: SignedIn | null; userAgent: string | null } | undefined> {
  const [live] = await tx.query<{ user_id: string; family: string; user_agent: string | null } & SignedInRow>(
    `update sessions set revoked_at = $2 where token_hash = $1 and kind = 'refresh' and revoked_at is null and expires_at > $2
     returning user_id, family, sign_in_method, signed_in_at, user_agent`,
    [tokenHash, now],
  );
  return live
    ? { userId: live.user_id, family: live.family, signedIn: signedInOf(live), userAgent: live.user_agent }
    : undefined;
}

/** A refresh token that was revoked (rotated or ended), with its user and family. */
export async function findRevokedRefreshToken(
  tx: Queryable,
  tokenHash: string,
): Promise<{ userId: string; family: string } | undefined> {
  const [used] = await tx.query<{ user_id: string; family: string }>(
    "select user_id, family from sessions where token_hash = $1 and kind = 'refresh' and revoked_at is not null",
    [tokenHash],
  );
  return used ? { userId: used.user_id, family: used.family } : undefined;
}

/**
 * The user of a live token (not revoked, not expired, its user not deactivated) with the token's kind,
 * family and last use, in one query: every authenticated request asks this first.
 */
export async function findUserOfToken(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<
  { user: User; kind: string; family: string; signedIn: SignedIn | null; lastSeenAt: Date | null } | undefined
> {
  const [row] = await db.query<
    UserRow & { token_kind: string; token_family: string; last_seen_at: Date | null } & SignedInRow
  >(
    `select u.*, s.kind as token_kind, s.family as token_family, s.sign_in_method, s.signed_in_at, s.last_seen_at
       from sessions s join users u on u.id = s.user_id
      where s.token_hash = $1 and s.revoked_at is null and s.expires_at > $2 and u.deactivated_at is null`,
    [tokenHash, now],
  );
  return row
    ? {
        user: toUser(row),
        kind: row.token_kind,
        family: row.token_family,
        signedIn: signedInOf(row),
        lastSeenAt: row.last_seen_at ? new Date(row.last_seen_at) : null,
      }
    : undefined;
}

/** Records the token's last use. */
export async function touchToken(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('update sessions set last_seen_at = $2 where token_hash = $1', [tokenHash, now]);
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

/** A token a revocation ended: enough to tell whether it was a live session's. */
export interface RevokedToken {
  family: string;
  kind: TokenKind;
  expiresAt: Date;
}

const toRevoked = (row: { family: string; kind: TokenKind; expires_at: Date }): RevokedToken => ({
  family: row.family,
  kind: row.kind,
  expiresAt: new Date(row.expires_at),
});

/** Revokes every live token of a user, except those of `keepFamily` when given. */
export async function revokeUserTokens(
  tx: Queryable,
  now: Date,
  userId: string,
  keepFamily?: string,
): Promise<RevokedToken[]> {
  const rows = await tx.query<{ family: string; kind: TokenKind; expires_at: Date }>(
    `update sessions set revoked_at = $2
     where user_id = $1 and revoked_at is null and ($3::text is null or family <> $3)
     returning family, kind, expires_at`,
    [userId, now, keepFamily ?? null],
  );
  return rows.map(toRevoked);
}

/** Revokes the live tokens of one family of a user. */
export async function revokeUserFamilyTokens(
  tx: Queryable,
  now: Date,
  userId: string,
  family: string,
): Promise<RevokedToken[]> {
  const rows = await tx.query<{ family: string; kind: TokenKind; expires_at: Date }>(
    `update sessions set revoked_at = $3 where user_id = $1 and family = $2 and revoked_at is null
     returning family, kind, expires_at`,
    [userId, family, now],
  );
  return rows.map(toRevoked);
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
