/** Legacy user administration: creating portal users and each user's notification settings. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { Role } from '../common.js';

export const UserCreate = s.object({
  email: s.email(),
  displayName: s.string({ minLength: 1, maxLength: 120 }),
  role: Role,
  organisationId: s.optional(s.string({ description: "Default the caller's organisation." })),
});
export type UserCreate = s.Static<typeof UserCreate>;

export const PortalUser = s.object({
  userId: s.string(),
  email: s.string(),
  displayName: s.string(),
  role: Role,
  organisationId: s.string(),
  twoFactorEnabled: s.boolean(),
  createdAt: s.dateTime(),
});
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

export const userEndpoints = defineResource('legacy', 'user', {
  create: {
    method: 'POST',
    path: '/admin/user_create',
    summary: 'Create a portal user (invited by mail)',
    body: UserCreate,
    response: PortalUser,
    successStatus: 201,
    refusals: { 409: 'A user with this email already exists.' },
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

/*#__NO_SIDE_EFFECTS__*/
export function userApi(transport: Transport) {
  return bindResource(transport, userEndpoints);
}
