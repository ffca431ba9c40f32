/** The SQL of reset, confirmation and invitation codes (`one_time_codes`). */
import type { Queryable } from '../../db/database.js';

/** Reset, confirmation and invitation codes, stored as hashes; each is used once. */
export type CodePurpose = 'reset' | 'confirm' | 'invite';

export async function insertOneTimeCode(
  db: Queryable,
  code: { hash: string; userId: string; purpose: CodePurpose; expiresAt: Date },
): Promise<void> {
  await db.query('insert into one_time_codes (code_hash, user_id, purpose, expires_at) values ($1, $2, $3, $4)', [
    code.hash,
    code.userId,
    code.purpose,
    code.expiresAt,
  ]);
}

/** The user of an unused, unexpired code, without using it. */
export async function findLiveOneTimeCode(
  db: Queryable,
  hash: string,
  purpose: CodePurpose,
  now: Date,
  userId?: string,
): Promise<string | undefined> {
  const [row] = await db.query<{ user_id: string }>(
    `select user_id from one_time_codes where code_hash = $1 and purpose = $2 and used_at is null and expires_at > $3
     ${userId ? 'and user_id = $4' : ''}`,
    userId ? [hash, purpose, now, userId] : [hash, purpose, now],
  );
  return row?.user_id;
}

/** A user's code in whatever state it is (live, used or expired), or undefined when the user has no such code. */
export async function findOneTimeCode(
  db: Queryable,
  hash: string,
  purpose: CodePurpose,
  userId: string,
): Promise<{ usedAt: Date | null; expiresAt: Date } | undefined> {
  const [row] = await db.query<{ used_at: Date | null; expires_at: Date }>(
    'select used_at, expires_at from one_time_codes where code_hash = $1 and purpose = $2 and user_id = $3',
    [hash, purpose, userId],
  );
  return row
    ? { usedAt: row.used_at === null ? null : new Date(row.used_at), expiresAt: new Date(row.expires_at) }
    : undefined;
}

/** Marks an unused, unexpired code used; its user, or undefined when it was not live. */
export async function useOneTimeCode(
  tx: Queryable,
  hash: string,
  purpose: CodePurpose,
  now: Date,
  userId?: string,
): Promise<string | undefined> {
  const [row] = await tx.query<{ user_id: string }>(
    `update one_time_codes set used_at = $3 where code_hash = $1 and purpose = $2 and used_at is null and expires_at > $3
     ${userId ? 'and user_id = $4' : ''} returning user_id`,
    userId ? [hash, purpose, now, userId] : [hash, purpose, now],
  );
  return row?.user_id;
}

/** Ends every outstanding reset, confirmation and invitation code of a user. */
export async function voidOneTimeCodes(tx: Queryable, userId: string, now: Date): Promise<number> {
  const rows = await tx.query(
    'update one_time_codes set used_at = $2 where user_id = $1 and used_at is null returning code_hash',
    [userId, now],
  );
  return rows.length;
}

/** Ends the user's outstanding invitation codes (a new invitation replaces them). */
export async function voidInvitationCodes(tx: Queryable, userId: string, now: Date): Promise<void> {
  await tx.query(
    "update one_time_codes set used_at = $2 where user_id = $1 and purpose = 'invite' and used_at is null",
    [userId, now],
  );
}

/** An invitation as its page shows it. */
interface InvitationRow {
  user_id: string;
  email: string;
  display_name: string;
  organisation_name: string;
  expires_at: Date;
}

/** The live invitation of a code's hash, of a user who is not deactivated. */
export async function findLiveInvitation(db: Queryable, hash: string, now: Date): Promise<InvitationRow | undefined> {
  const [row] = await db.query<InvitationRow>(
    `select u.id as user_id, u.email, u.display_name, o.name as organisation_name, c.expires_at
       from one_time_codes c join users u on u.id = c.user_id join organisations o on o.id = u.organisation_id
      where c.code_hash = $1 and c.purpose = 'invite' and c.used_at is null and c.expires_at > $2
        and u.deactivated_at is null`,
    [hash, now],
  );
  return row;
}
