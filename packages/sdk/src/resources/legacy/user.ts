/**
 * Legacy user administration: creating and listing portal users, the eDiscovery manager role, and each
 * user's notification settings.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { listQueryProperties, page, Role } from '../common.js';

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
  ediscoveryManager: s.boolean('Places and releases eDiscovery legal holds.'),
  createdAt: s.dateTime(),
});
/**
 * A portal user: address, name, role, organisation, whether two-factor sign-in is set up, whether they
 * are an eDiscovery manager (who places and releases legal holds), and when the user was created.
 */
export type PortalUser = s.Static<typeof PortalUser>;

/** The fields `GET /admin/users` sorts by. */
const PORTAL_USER_SORTS = [
  'displayName',
  'email',
  'role',
  'twoFactorEnabled',
  'ediscoveryManager',
  'createdAt',
] as const;

/** Schema of the query of `GET /admin/users`. */
export const PortalUserListQuery = s.object({
  ...listQueryProperties,
  sort: s.optional(s.oneOfStrings(PORTAL_USER_SORTS, 'Default displayName.')),
  organisationId: s.optional(
    s.string({ maxLength: 200, description: "An organisation the caller may act for; default the caller's." }),
  ),
});
/**
 * Which portal users to list: those of one organisation the caller may act for (their own by default;
 * another's is 404), searched by name or address, sorted by a column of {@link PortalUser} and paged.
 */
export type PortalUserListQuery = s.Static<typeof PortalUserListQuery>;

const userParams = s.object({ userId: s.string({ minLength: 1, maxLength: 200 }) });

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
 * The catalogue entries of legacy user administration: `create` (`POST /admin/user_create`), the
 * organisation's users (`GET /admin/users`) with the eDiscovery manager role (`PUT` and `DELETE
 * /admin/users/{userId}/ediscovery-manager`), and the caller's notification settings (`GET` and `PUT
 * /admin/notifications`). {@link userApi} binds them.
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
  users: {
    method: 'GET',
    path: '/admin/users',
    summary: "An organisation's portal users, paged, sorted and searched",
    query: PortalUserListQuery,
    response: page(PortalUser),
  },
  grantEdiscoveryManager: {
    method: 'PUT',
    path: '/admin/users/{userId}/ediscovery-manager',
    summary: 'Make a user an eDiscovery manager (audited); a manager already stays one',
    params: userParams,
    response: PortalUser,
  },
  revokeEdiscoveryManager: {
    method: 'DELETE',
    path: '/admin/users/{userId}/ediscovery-manager',
    summary: "Take a user's eDiscovery manager role (audited)",
    params: userParams,
    response: PortalUser,
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
 * Binds legacy user administration to a transport: creating and listing portal users, granting and
 * taking the eDiscovery manager role, and the caller's notification settings. The same methods as
 * `client.legacy.user`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function userApi(transport: Transport) {
  return bindResource(transport, userEndpoints);
}
