/**
 * The signed-in user's own account, as the account page reads it: the address (apollo /manage/info),
 * the two-factor state (apollo /manage/2fa without a change) and the sign-in activity. Never kept for
 * offline use: no `meta`.
 */
import type { PortalClient } from '@compliance-portal/sdk';
import { queryOptions } from '@tanstack/react-query';

/** Query keys of the account's own data, under one root so that a change refreshes all of it. */
export const accountKeys = {
  all: ['account'] as const,
  info: () => [...accountKeys.all, 'info'] as const,
  twoFactor: () => [...accountKeys.all, 'twoFactor'] as const,
  activity: (page: number) => [...accountKeys.all, 'activity', page] as const,
};

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
