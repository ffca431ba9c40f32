/**
 * Legacy user administration: creating (inviting) and listing portal users, the eDiscovery manager
 * role, deactivating, reactivating and deleting users, sending an invitation again, and each user's
 * notification settings.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import { LANGUAGES } from '../../core/languages.js';
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

/** A portal user's state: invited (no password chosen yet), active, or deactivated (cannot sign in). */
export const USER_STATUSES = ['invited', 'active', 'deactivated'] as const;
/** Schema of a portal user's {@link USER_STATUSES | state}. */
export const UserStatus = s.oneOfStrings(USER_STATUSES);
/** Invited (the invitation not accepted yet), active, or deactivated (sign-in refused). */
export type UserStatus = s.Static<typeof UserStatus>;

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
  status: UserStatus,
  lastSignInAt: s.nullable(s.dateTime('The last completed sign-in; null when never.')),
  invitedAt: s.nullable(s.dateTime('When the (last) invitation was sent; null for a user who was not invited.')),
  deactivatedAt: s.nullable(s.dateTime()),
});
/**
 * A portal user: address, name, role, organisation, whether two-factor sign-in is set up, whether they
 * are an eDiscovery manager (who places and releases legal holds), when the user was created, their
 * state (invited, active, deactivated), the last sign-in, and when they were invited and deactivated.
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
  'status',
  'lastSignInAt',
] as const;

/** Schema of the query of `GET /admin/users`. */
export const PortalUserListQuery = s.object({
  ...listQueryProperties,
  sort: s.optional(s.oneOfStrings(PORTAL_USER_SORTS, 'Default displayName.')),
  organisationId: s.optional(
    s.string({ maxLength: 200, description: "An organisation the caller may act for; default the caller's." }),
  ),
  status: s.optional(s.oneOfStrings(USER_STATUSES, 'Only users in this state.')),
});
/**
 * Which portal users to list: those of one organisation the caller may act for (their own by default;
 * another's is 404), searched by name or address, of one state, sorted by a column of
 * {@link PortalUser} and paged.
 */
export type PortalUserListQuery = s.Static<typeof PortalUserListQuery>;

const userParams = s.object({ userId: s.string({ minLength: 1, maxLength: 200 }) });

/** The languages a user's mails are written in: those of the portal, English and German. */
export const MAIL_LANGUAGES = LANGUAGES;

/** Schema of a user's notification settings (`GET` and `PUT /admin/notifications`). */
export const NotificationSettings = s.object({
  jobFailed: s.boolean('A run failed.'),
  jobFinished: s.boolean('A run finished.'),
  dailySummary: s.boolean("Once a day: the last 24 hours' failed runs and runs with warnings, if there were any."),
  weeklyReport: s.boolean("Once a week: the week's figures of each area, or a partner's clients at a glance."),
  licenseExpiry: s.boolean('Before and when the licence of an organisation the user acts for ends.'),
  email: s.optional(s.email('Where they go; default the account email.')),
  language: s.optional(
    s.oneOfStrings(MAIL_LANGUAGES, 'The language of the mails; absent: never chosen, and the mails are in English.'),
  ),
});
/**
 * Which mails a user receives (a failed or finished run, the daily summary, the weekly report, the
 * licence's end), where they go (default the account's address), and in which language (English or
 * German; English while none was chosen).
 */
export type NotificationSettings = s.Static<typeof NotificationSettings>;

/** Schema of the answer of `POST /admin/notifications/test`. */
export const NotificationTest = s.object({
  to: s.string({ maxLength: 320, description: 'The address the test mail was sent to.' }),
  message: s.string({ maxLength: 500, description: 'What was done, in words.' }),
});
/** A test mail sent: the address it went to (the settings' address, else the account's) and what was done. */
export type NotificationTest = s.Static<typeof NotificationTest>;

/**
 * The catalogue entries of legacy user administration: `create` (`POST /admin/user_create`), the
 * organisation's users (`GET /admin/users`) with the eDiscovery manager role (`PUT` and `DELETE
 * /admin/users/{userId}/ediscovery-manager`), deactivation (`PUT` and `DELETE
 * /admin/users/{userId}/deactivation`), deletion (`DELETE /admin/users/{userId}`), the invitation sent
 * again (`POST /admin/users/{userId}/invitation`), the caller's notification settings (`GET` and
 * `PUT /admin/notifications`) and a test mail (`POST /admin/notifications/test`). {@link userApi} binds them.
 */
export const userEndpoints = defineResource('legacy', 'user', {
  create: {
    method: 'POST',
    path: '/admin/user_create',
    scope: 'caller',
    summary: 'Create a portal user (invited by mail)',
    body: UserCreate,
    response: PortalUser,
    successStatus: 201,
    refusals: { 409: 'A user with this email already exists (code emailTaken), whichever organisation has it.' },
  },
  users: {
    method: 'GET',
    path: '/admin/users',
    scope: 'caller',
    summary: "An organisation's portal users, paged, sorted and searched",
    query: PortalUserListQuery,
    response: page(PortalUser),
  },
  grantEdiscoveryManager: {
    method: 'PUT',
    path: '/admin/users/{userId}/ediscovery-manager',
    scope: 'caller',
    summary: 'Make a user an eDiscovery manager (audited); a manager already stays one',
    params: userParams,
    response: PortalUser,
  },
  revokeEdiscoveryManager: {
    method: 'DELETE',
    path: '/admin/users/{userId}/ediscovery-manager',
    scope: 'caller',
    summary: "Take a user's eDiscovery manager role (audited)",
    params: userParams,
    response: PortalUser,
  },
  deactivate: {
    method: 'PUT',
    path: '/admin/users/{userId}/deactivation',
    scope: 'caller',
    summary: 'Deactivate a user: their sessions end and sign-in is refused (audited)',
    params: userParams,
    response: PortalUser,
    refusals: {
      409: "The user is the caller (code ownAccount), or the organisation's last active administrator (lastAdministrator).",
    },
  },
  reactivate: {
    method: 'DELETE',
    path: '/admin/users/{userId}/deactivation',
    scope: 'caller',
    summary: 'Reactivate a deactivated user (audited)',
    params: userParams,
    response: PortalUser,
  },
  remove: {
    method: 'DELETE',
    path: '/admin/users/{userId}',
    scope: 'caller',
    summary: 'Delete a user for good (audited)',
    params: userParams,
    refusals: {
      409: "The user is the caller (code ownAccount), or the organisation's last active administrator (lastAdministrator).",
    },
  },
  resendInvitation: {
    method: 'POST',
    rateLimited: true,
    path: '/admin/users/{userId}/invitation',
    scope: 'caller',
    summary: 'Send an invited user a new invitation link; the earlier links stop working (audited)',
    params: userParams,
    body: s.object({}),
    response: PortalUser,
    refusals: {
      409: 'The user has accepted the invitation already (code invitationAccepted) or is deactivated (userDeactivated).',
    },
  },
  notifications: {
    method: 'GET',
    path: '/admin/notifications',
    scope: 'caller',
    summary: "The caller's notification settings",
    response: NotificationSettings,
  },
  updateNotifications: {
    method: 'PUT',
    path: '/admin/notifications',
    scope: 'caller',
    summary: "Change the caller's notification settings",
    body: NotificationSettings,
    response: NotificationSettings,
  },
  testNotification: {
    method: 'POST',
    rateLimited: true,
    path: '/admin/notifications/test',
    scope: 'caller',
    summary:
      "Send a test mail in the caller's mail language to their notification address (or the account's); 502 mailNotSent when the mail server refuses it or cannot be reached",
    body: s.object({}),
    response: NotificationTest,
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
