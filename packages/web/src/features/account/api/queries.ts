/**
 * The signed-in user's own account, as the settings page reads it: the address (apollo /manage/info),
 * the two-factor state (apollo /manage/2fa without a change), the sign-in activity, the signed-in
 * sessions and the notification settings. None of it is kept for offline reading.
 */
import type { PortalClient } from '@compliance-portal/sdk';
import { queryOptions } from '@tanstack/react-query';
import { accountKeys } from './keys';

/** The errors here are shown in the page, in its own words: no toast. */
const quiet = { disableToast: true } as const;

export const accountInfoQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: accountKeys.info(),
    queryFn: () => api.apollo.auth.info(undefined, quiet),
    // An email change confirmed in another tab ends this session: looking again on return notices it.
    refetchOnWindowFocus: true,
  });

export const twoFactorStateQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: accountKeys.twoFactor(),
    queryFn: () =>
      api.apollo.auth.twoFactor(
        { body: { resetSharedKey: false, resetRecoveryCodes: false, forgetMachine: false } },
        quiet,
      ),
  });

export const ACTIVITY_PAGE_SIZE = 10;

export const signInActivityQuery = (api: PortalClient, page: number) =>
  queryOptions({
    queryKey: accountKeys.activity(page),
    queryFn: () => api.legacy.auth.activity({ query: { page, pageSize: ACTIVITY_PAGE_SIZE } }, quiet),
    placeholderData: (previous) => previous,
  });

/** The account's signed-in sessions, the calling one marked; read again when the window comes back. */
export const sessionsQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: accountKeys.sessions(),
    queryFn: () => api.legacy.sessions.list(undefined, quiet),
    refetchOnWindowFocus: true,
  });

export const signInSettingsQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: accountKeys.signInSettings(),
    queryFn: () => api.legacy.auth.signInSettings(undefined, quiet),
  });

export const signInOptionsQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: accountKeys.signInOptions(),
    queryFn: () => api.legacy.auth.signInOptions(undefined, quiet),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const notificationsQuery = (api: PortalClient) =>
  queryOptions({ queryKey: accountKeys.notifications(), queryFn: () => api.legacy.user.notifications() });
