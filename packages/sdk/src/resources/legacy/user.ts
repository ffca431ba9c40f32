/** Legacy user administration: creating portal users and each user's notification settings. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { Role } from '../common.js';

/** Schema of the body of `POST /admin/user_create`. */
export const UserCreate = s.object({
  email: s.email(),
  displayName: s.string({ minLength: 1, maxLength: 120 }),
  role: Role,
  organisationId: s.optional(s.string({ description: "Default the caller's organisation." })),
});
/**
 * A portal user to create and invite by mail: address, display name (1 to 120 characters), role and
 * organisation (default the caller's). Only administrators, partners and operators create users, and
 * only operators create operators; an address already in use, whoever's account it is, is refused with
 * 409 `emailTaken`.
 */
export type UserCreate = s.Static<typeof UserCreate>;

/** Schema of the answer of `POST /admin/user_create`. */
export const PortalUser = s.object({
  userId: s.string(),
  email: s.string(),
  displayName: s.string(),
  role: Role,
  organisationId: s.string(),
  twoFactorEnabled: s.boolean(),
  createdAt: s.dateTime(),
});
/**
 * A portal user: address, name, role, organisation, whether two-factor sign-in is set up, and when the
 * user was created.
 */
export type PortalUser = s.Static<typeof PortalUser>;

/** Which mails a user receives. */
export const NotificationSettings = s.object({
  jobFailed: s.boolean('A run failed.'),
  jobFinished: s.boolean('A run finished.'),
  dailySummary: s.boolean(),
  weeklyReport: s.boolean(),
  licenseExpiry: s.boolean(),
  email: s.optional(s.email('Where they go; default the account email.')),
});
export type NotificationSettings = s.Static<typeof NotificationSettings>;

/**
 * The catalogue entries of legacy user administration: `create` (`POST /admin/user_create`) and the
 * caller's notification settings (`GET` and `PUT /admin/notifications`). {@link userApi} binds them.
 */
export const userEndpoints = defineResource('legacy', 'user', {
  create: {
    method: 'POST',
    path: '/admin/user_create',
    summary: 'Create a portal user (invited by mail)',
    body: UserCreate,
    response: PortalUser,
    successStatus: 201,
    refusals: { 409: 'A user with this email already exists (code emailTaken), whichever organisation has it.' },
  },
  notifications: {
    method: 'GET',
    path: '/admin/notifications',
    summary: "The caller's notification settings",
    response: NotificationSettings,
  },
  updateNotifications: {
    method: 'PUT',
    path: '/admin/notifications',
    summary: "Change the caller's notification settings",
    body: NotificationSettings,
    response: NotificationSettings,
  },
});

/**
 * Binds legacy user administration to a transport: creating portal users and the caller's notification
 * settings. The same methods as `client.legacy.user`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function userApi(transport: Transport) {
  return bindResource(transport, userEndpoints);
}
