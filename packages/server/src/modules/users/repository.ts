import type { NotificationSettings } from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';
import { ownValue } from '../../http/list-query.js';

/** When the user was created, or undefined for an unknown id. */
export async function userCreatedAt(db: Queryable, userId: string): Promise<Date | undefined> {
  const [row] = await db.query<{ created_at: Date }>('select created_at from users where id = $1', [userId]);
  return row ? new Date(row.created_at) : undefined;
}

/** The settings the user stored, as stored (possibly only some of them), or undefined when none. */
export async function findNotificationSettings(
  db: Queryable,
  userId: string,
): Promise<Partial<NotificationSettings> | undefined> {
  const [row] = await db.query<{ settings: Partial<NotificationSettings> }>(
    'select settings from notification_settings where user_id = $1',
    [userId],
  );
  return row?.settings;
}

export async function saveNotificationSettings(
  db: Queryable,
  userId: string,
  settings: NotificationSettings,
): Promise<void> {
  await db.query(
    `insert into notification_settings (user_id, settings) values ($1, $2)
     on conflict (user_id) do update set settings = excluded.settings`,
    [userId, JSON.stringify(settings)],
  );
}

/** A portal user as the users list shows them. */
export interface PortalUserRow {
  id: string;
  email: string;
  display_name: string;
  role: 'admin' | 'partner' | 'operator';
  organisation_id: string;
  totp_enabled: boolean;
  ediscovery_manager: boolean;
  created_at: Date;
  status: 'invited' | 'active' | 'deactivated';
  last_sign_in_at: Date | null;
  invited_at: Date | null;
  deactivated_at: Date | null;
}

/**
 * A user's state: deactivated by an administrator; invited until they accept the invitation (choose a
 * password, or sign in otherwise); active otherwise (a user who was never invited registered or was
 * made with a password).
 */
const STATUS = `case when deactivated_at is not null then 'deactivated'
  when invited_at is not null and invitation_accepted_at is null then 'invited' else 'active' end`;

const PORTAL_USER_COLUMNS = `id, email, display_name, role, organisation_id, totp_enabled, ediscovery_manager, created_at,
  ${STATUS} as status, last_sign_in_at, invited_at, deactivated_at`;

/** The columns the users list sorts by, by the API's names. */
const USER_SORTS: Readonly<Record<string, string>> = {
  displayName: 'lower(display_name)',
  email: 'email',
  role: 'role',
  twoFactorEnabled: 'totp_enabled',
  ediscoveryManager: 'ediscovery_manager',
  createdAt: 'created_at',
  status: `(${STATUS})`,
  lastSignInAt: 'last_sign_in_at',
};

/** One page of an organisation's users, searched by name or address (case-insensitive). */
export async function listOrganisationUsers(
  db: Queryable,
  organisationId: string,
  args: {
    page: number;
    pageSize: number;
    sort?: string;
    order?: 'asc' | 'desc';
    search?: string;
    status?: PortalUserRow['status'];
  },
): Promise<{ rows: PortalUserRow[]; total: number }> {
  const params: unknown[] = [organisationId];
  let where = 'organisation_id = $1';
  const search = args.search?.trim().toLowerCase();
  if (search) {
    params.push(`%${search.replace(/[%_\\]/g, '\\$&')}%`);
    where += ` and (lower(display_name) like $${params.length} or email like $${params.length})`;
  }
  if (args.status) {
    params.push(args.status);
    where += ` and (${STATUS}) = $${params.length}`;
  }
  const sort = ownValue(USER_SORTS, args.sort, USER_SORTS.displayName as string);
  const direction = args.order === 'desc' ? 'desc' : 'asc';
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from users where ${where}`, params);
  const rows = await db.query<PortalUserRow>(
    `select ${PORTAL_USER_COLUMNS} from users where ${where}
      order by ${sort} ${direction} nulls last, email limit ${args.pageSize} offset ${(args.page - 1) * args.pageSize}`,
    params,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

/** The user as the users list shows them, or undefined. */
export async function findPortalUser(db: Queryable, userId: string): Promise<PortalUserRow | undefined> {
  const [row] = await db.query<PortalUserRow>(`select ${PORTAL_USER_COLUMNS} from users where id = $1`, [userId]);
  return row;
}

/** Gives or takes the eDiscovery manager role; whether it changed (the row locked to the transaction's end). */
export async function setEdiscoveryManager(tx: Queryable, userId: string, manager: boolean): Promise<boolean> {
  const [row] = await tx.query<{ ediscovery_manager: boolean }>(
    'select ediscovery_manager from users where id = $1 for update',
    [userId],
  );
  if (!row || row.ediscovery_manager === manager) return false;
  await tx.query('update users set ediscovery_manager = $2 where id = $1', [userId, manager]);
  return true;
}

/**
 * Locks every user of an organisation to the end of the transaction, so that two changes that each
 * leave another administrator (two administrators deactivating each other) run one after the other,
 * the second seeing the first's.
 */
export async function lockOrganisationUsers(tx: Queryable, organisationId: string): Promise<void> {
  await tx.query('select id from users where organisation_id = $1 order by id for update', [organisationId]);
}

/** How many active users (administrators: every user is one of their organisation) an organisation has besides one. */
export async function countOtherActiveUsers(tx: Queryable, organisationId: string, userId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `select count(*)::int as n from users where organisation_id = $1 and id <> $2 and (${STATUS}) = 'active'`,
    [organisationId, userId],
  );
  return Number(row?.n ?? 0);
}

/** Deactivates (`by` the actor's address) or reactivates (`by` null) a user; whether it changed. */
export async function setDeactivated(tx: Queryable, userId: string, at: Date | null, by: string | null) {
  const rows = await tx.query(
    `update users set deactivated_at = $2, deactivated_by = $3
      where id = $1 and (deactivated_at is null) = ($2::timestamptz is not null) returning id`,
    [userId, at, by],
  );
  return rows.length === 1;
}

/** Deletes a user; their sessions, codes and settings go with them (foreign keys). Whether it existed. */
export async function deleteUserRow(tx: Queryable, userId: string): Promise<boolean> {
  return (await tx.query('delete from users where id = $1 returning id', [userId])).length === 1;
}
