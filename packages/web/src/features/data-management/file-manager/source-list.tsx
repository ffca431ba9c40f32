import { Alert, Button, Text } from '@chakra-ui/react';
import type { DataManagementApplication, DiscoveredSource } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/ui/data-table';
import { locationsQuery } from '../../../shared/api/queries';
import { M365FailureAlert } from '../../../shared/m365-failure';
import { useApi } from '../../../shared/tenant';
import { useUrlListState } from '../../../shared/url-state';
import { sourcePageQuery } from '../api/queries';
import { FILE_MANAGER_ROUTE, SOURCE_LIST } from './search';

/** The sites or OneDrives of the application (page, sort and search in the address); a name opens one. */
export function SourceList({
  tenantId,
  application,
  onChoose,
}: {
  tenantId: string;
  application: DataManagementApplication;
  onChoose: (source: DiscoveredSource) => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const locationId = locations.data?.[0]?.locationId ?? '';
  const [state, setState] = useUrlListState(FILE_MANAGER_ROUTE, SOURCE_LIST);
  const list = useQuery(sourcePageQuery(api, tenantId, locationId, application, state));
  const columns: Column<DiscoveredSource>[] = [
    {
      key: 'displayName',
      header: t('dataManagement:columns.name'),
      cell: (s) => (
        <Button variant="plain" size="sm" px="0" onClick={() => onChoose(s)}>
          {s.displayName}
        </Button>
      ),
      sortable: true,
    },
    {
      key: application === 'sharepoint' ? 'url' : 'email',
      header: t(application === 'sharepoint' ? 'backup:columns.url' : 'backup:columns.email'),
      cell: (s) => (
        <Text truncate maxW="xs">
          {s.url ?? s.email ?? '—'}
        </Text>
      ),
      hideBelow: 'md',
    },
  ];
  // Sites and OneDrives are listed through a storage location of the tenant: without one nothing can
  // be listed, and that is what the catalogue's location text says (rather than an empty list).
  if (locations.data?.length === 0)
    return (
      <Alert.Root status="info" data-testid="no-location">
        <Alert.Indicator />
        <Alert.Title>{t('dataManagement:dashboardFailed')}</Alert.Title>
      </Alert.Root>
    );
  return (
    <DataTable
      label={t('dataManagement:sources')}
      columns={columns}
      rows={list.data?.items}
      total={list.data?.total ?? 0}
      rowKey={(s) => s.sourceId}
      state={state}
      onStateChange={setState}
      loading={list.isFetching || locations.isLoading}
      error={list.error}
      renderError={(error) => (
        <M365FailureAlert title={t(`m365:lists.${application}`)} error={error} onRetry={() => void list.refetch()} />
      )}
      onRetry={() => list.refetch()}
      emptyText={t('backup:noSources', { unit: t(`dataManagement:${application}`) })}
      searchPlaceholder={t('backup:searchSources', { unit: t(`dataManagement:${application}`) })}
    />
  );
}
