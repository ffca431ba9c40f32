import { scopeKeys } from '../../../shared/api/keys';

/**
 * Query keys of the signed-in user's own account. The address, the two-factor state and the sign-in
 * activity share one root, so that a change refreshes all of them; the notification settings are a
 * legacy endpoint's and stay outside it.
 */
export const accountKeys = {
  all: ['account'] as const,
  info: () => [...accountKeys.all, 'info'] as const,
  twoFactor: () => [...accountKeys.all, 'twoFactor'] as const,
  activity: (page: number) => [...accountKeys.all, 'activity', page] as const,
  /** The account's signed-in sessions. */
  sessions: () => [...accountKeys.all, 'sessions'] as const,
  notifications: () => [...scopeKeys.legacy(), 'notifications'] as const,
  /** The organisation's sign-in methods, and which the server offers. */
  signInSettings: () => [...accountKeys.all, 'signInSettings'] as const,
  signInOptions: () => ['auth', 'signInOptions'] as const,
};
