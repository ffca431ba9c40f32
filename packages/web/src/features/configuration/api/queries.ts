/**
 * What the configuration reads. The tenants and the licence are kept for offline reading; a
 * provisioning task and the portal users are read live only.
 */
import type { PortalClient, PortalUserListQuery, ProvisioningTask, UserStatus } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ListState, listQuery } from '../../../components/ui/list-state';
import { OFFLINE } from '../../../shared/api/offline';
import { configurationKeys } from './keys';

export const tenantsQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: configurationKeys.tenants(),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.tenants.list(undefined, { signal }),
  });

export const licenceQuery = (api: PortalClient, organisationId: string) =>
  queryOptions({
    queryKey: configurationKeys.licence(organisationId),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.apollo.configuration.license({ query: { organisationId } }, { signal }),
  });

type UserSort = NonNullable<PortalUserListQuery['sort']>;
const USER_SORTS: readonly UserSort[] = [
  'displayName',
  'email',
  'role',
  'twoFactorEnabled',
  'ediscoveryManager',
  'createdAt',
  'status',
  'lastSignInAt',
];
const isUserSort = (sort: string | undefined): sort is UserSort => USER_SORTS.some((s) => s === sort);

/** The users list's query: the list state's page, sort and search, and the state filter. */
export function portalUsersListQuery(
  organisationId: string,
  state: ListState,
  status: UserStatus | '' = '',
): PortalUserListQuery {
  const { sort, ...rest } = listQuery(state);
  return { organisationId, ...rest, ...(isUserSort(sort) ? { sort } : {}), ...(status ? { status } : {}) };
}

/** One page of the organisation's portal users; read live only (names and addresses of people). */
export const portalUsersQuery = (
  api: PortalClient,
  organisationId: string,
  state: ListState,
  status: UserStatus | '' = '',
) =>
  queryOptions({
    queryKey: configurationKeys.usersPage(organisationId, { ...listQuery(state), ...(status ? { status } : {}) }),
    queryFn: ({ signal }) =>
      // Said in the table, in the catalogue's words, not in the generic toast.
      api.legacy.user.users(
        { query: portalUsersListQuery(organisationId, state, status) },
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
  });

/** One page of the portal users for an export (not cached: the export reads every page once). */
export const fetchPortalUsersPage = (api: PortalClient, query: PortalUserListQuery) => api.legacy.user.users({ query });

/** Whether a provisioning task has ended, well or not. */
export const taskEnded = (task: ProvisioningTask | undefined) =>
  task?.status === 'succeeded' || task?.status === 'failed';

/**
 * A provisioning task, asked for every second until it ends; `onRead` hears each state the server
 * answers (the page refreshes the tenants once it has ended).
 */
export const provisioningTaskQuery = (
  api: PortalClient,
  task: ProvisioningTask,
  onRead: (now: ProvisioningTask) => void = () => undefined,
) =>
  queryOptions({
    queryKey: configurationKeys.provisioningTask(task.tenantId, task.taskId),
    queryFn: async ({ signal }) => {
      const now = await api.apollo.tenants.task({ tenantId: task.tenantId, taskId: task.taskId }, { signal });
      onRead(now);
      return now;
    },
    initialData: task,
    refetchInterval: (q) => (taskEnded(q.state.data) ? false : 1000),
  });

/**
 * What an app registration needs for admin consent: the portal's redirect URI and the permissions of
 * every area. The same until the server changes: read once a visit, and live only.
 */
export const consentSetupQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: configurationKeys.consentSetup(),
    queryFn: ({ signal }) => api.apollo.tenants.consentSetup(undefined, { signal, disableToast: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
