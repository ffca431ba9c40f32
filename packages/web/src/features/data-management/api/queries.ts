import type { CleanupRule, DataManagementApplication, PortalClient } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ListState, listQuery } from '../../../components/ui/list-state';
import { OFFLINE } from '../../../shared/api/offline';
import { PLACEHOLDER_RULE } from '../file-manager/rule';
import { dataManagementKeys } from './keys';

/** The data-management dashboard: storage used and saved, the saving, the sites worth a clean-up. */
export const dataManagementDashboardQuery = (api: PortalClient, tenantId: string) =>
  queryOptions({
    queryKey: dataManagementKeys.dashboard(tenantId),
    meta: OFFLINE,
    queryFn: ({ signal }) =>
      api.apollo.dashboards.sharepointDataManagement({ tenantId }, { signal, disableToast: true }),
  });

/** A page of the sites or OneDrives to browse, read with the first storage location. */
export const sourcePageQuery = (
  api: PortalClient,
  tenantId: string,
  locationId: string,
  application: DataManagementApplication,
  state: ListState,
) =>
  queryOptions({
    queryKey: dataManagementKeys.sources(tenantId, locationId, application, listQuery(state)),
    queryFn: ({ signal }) =>
      // Said in the table, in the catalogue's words, not in the generic toast.
      api.apollo.discovery.users(
        { tenantId, locationId, query: { application, ...listQuery(state) } },
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
    enabled: !!locationId,
  });

/** One page of a folder's content with the versions the rule would remove; nothing while the rule is invalid. */
export const browseQuery = (
  api: PortalClient,
  tenantId: string,
  application: DataManagementApplication,
  sourceId: string,
  nodeId: string,
  rule: CleanupRule | null,
  page: number,
  pageSize: number,
) =>
  queryOptions({
    queryKey: dataManagementKeys.browse(tenantId, application, sourceId, nodeId, rule, page, pageSize),
    queryFn: ({ signal }) =>
      api.apollo.dataManagement.browse(
        {
          tenantId,
          body: { application, sourceId, nodeId, rule: rule ?? PLACEHOLDER_RULE, page, pageSize },
        },
        // Said in the table: a folder that is not there (404) has a text of its own.
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
    enabled: rule !== null,
  });

/** A file's versions, newest first, each marked as kept or removed by the rule. */
export const versionsQuery = (
  api: PortalClient,
  tenantId: string,
  application: DataManagementApplication,
  sourceId: string,
  nodeId: string,
  rule: CleanupRule,
) =>
  queryOptions({
    queryKey: dataManagementKeys.versions(tenantId, application, sourceId, nodeId, rule),
    queryFn: ({ signal }) =>
      // Said in the dialog, with its cause, not in the generic toast.
      api.apollo.dataManagement.versions(
        { tenantId, body: { application, sourceId, nodeId, rule } },
        { signal, disableToast: true },
      ),
  });
