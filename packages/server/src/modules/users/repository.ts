import type { NotificationSettings } from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';

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
