/** The SQL of the users' rows: reading, creating and changing an account. */
import type { Queryable } from '../../db/database.js';
import { normaliseEmail, type User } from './users.js';

export interface UserRow {
  id: string;
  email: string;
  display_name: string;
  password_hash: string;
  role: User['role'];
  organisation_id: string;
  email_confirmed: boolean;
  totp_secret: string | null;
  totp_enabled: boolean;
  totp_last_step: number;
  failed_attempts: number;
  lockout_until: Date | null;
  entra_object_id: string | null;
  ediscovery_manager: boolean;
  deactivated_at: Date | null;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    role: row.role,
    organisationId: row.organisation_id,
    emailConfirmed: row.email_confirmed,
    totpSecret: row.totp_secret,
    totpEnabled: row.totp_enabled,
    totpLastStep: Number(row.totp_last_step),
    failedAttempts: row.failed_attempts,
    lockoutUntil: row.lockout_until ? new Date(row.lockout_until) : null,
    entraObjectId: row.entra_object_id,
    ediscoveryManager: row.ediscovery_manager,
    deactivatedAt: row.deactivated_at ? new Date(row.deactivated_at) : null,
  };
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | undefined> {
  const [row] = await db.query<UserRow>('select * from users where email = $1', [normaliseEmail(email)]);
  return row ? toUser(row) : undefined;
}

export async function findUserById(db: Queryable, id: string): Promise<User | undefined> {
  const [row] = await db.query<UserRow>('select * from users where id = $1', [id]);
  return row ? toUser(row) : undefined;
}

/**
 * Stores a new user; false (and nothing stored) when the address is already an account's. The unique
 * index on the address decides, so two concurrent creations of one address store it once.
 */
export async function insertUser(
  db: Queryable,
  user: Pick<User, 'id' | 'email' | 'displayName' | 'passwordHash' | 'role' | 'organisationId' | 'emailConfirmed'>,
): Promise<boolean> {
  const rows = await db.query(
    `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
     values ($1, $2, $3, $4, $5, $6, $7) on conflict (email) do nothing returning id`,
    [
      user.id,
      normaliseEmail(user.email),
      user.displayName,
      user.passwordHash,
      user.role,
      user.organisationId,
      user.emailConfirmed,
    ],
  );
  return rows.length === 1;
}

/** Locks the user's row to the end of the transaction, so two changes of one account run one after the other. */
export async function lockUser(tx: Queryable, id: string): Promise<void> {
  await tx.query('select id from users where id = $1 for update', [id]);
}

/** A new password hash; a lockout ends with it. */
export async function updatePasswordHash(tx: Queryable, id: string, passwordHash: string): Promise<void> {
  await tx.query('update users set password_hash = $2, failed_attempts = 0, lockout_until = null where id = $1', [
    id,
    passwordHash,
  ]);
}

export async function markEmailConfirmed(tx: Queryable, id: string, email?: string): Promise<void> {
  if (email) {
    await tx.query('update users set email = $2, email_confirmed = true where id = $1', [id, normaliseEmail(email)]);
  } else {
    await tx.query('update users set email_confirmed = true where id = $1', [id]);
  }
}

/** The user counts as invited from `now`. */
export async function markInvited(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query('update users set invited_at = $2 where id = $1', [id, now]);
}

/** The invitation is accepted (the first acceptance's time is kept). */
export async function markInvitationAccepted(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query('update users set invitation_accepted_at = coalesce(invitation_accepted_at, $2) where id = $1', [
    id,
    now,
  ]);
}

/** An invited user who has not accepted the invitation has accepted it now (by choosing a password by a reset link). */
export async function acceptPendingInvitation(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query(
    'update users set invitation_accepted_at = $2 where id = $1 and invited_at is not null and invitation_accepted_at is null',
    [id, now],
  );
}
