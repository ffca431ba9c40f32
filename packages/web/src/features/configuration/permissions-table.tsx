import { Code, Stack, Text } from '@chakra-ui/react';
import type { PermissionArea, PermissionNeed } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { useListState } from '../../components/ui/list-state';

/**
 * The Microsoft Graph application permissions an app registration needs (the server's table), each
 * with the portal areas that use it: searched, sorted, paged and exported here, as the list is short.
 */
export function PermissionsTable({
  permissions,
  loading,
  error,
  onRetry,
}: {
  permissions: readonly PermissionNeed[] | undefined;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useListState({ pageSize: 10, sort: 'permission' });
  const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  const areaName = (area: PermissionArea) => t(`configuration:missingPermissions.areas.${area}`);
  const areasOf = (row: PermissionNeed) => list.format(row.areas.map(areaName));
  // A short list, filtered and sorted here at each render.
  const words = (state.search ?? '').trim().toLowerCase();
  const found = (permissions ?? []).filter(
    (p) => !words || `${p.permission} ${p.areas.map(areaName).join(' ')}`.toLowerCase().includes(words),
  );
  const rows = found.sort((a, b) => {
    const order = state.sort === 'areas' ? a.areas.length - b.areas.length : a.permission.localeCompare(b.permission);
    return state.order === 'desc' ? -order : order;
  });
  const page = permissions ? rows.slice((state.page - 1) * state.pageSize, state.page * state.pageSize) : undefined;
  const columns: Column<PermissionNeed>[] = [
    {
      key: 'permission',
      header: t('tenantConnection:permissions.permission'),
      sortable: true,
      cell: (row) => <Code>{row.permission}</Code>,
    },
    { key: 'areas', header: t('tenantConnection:permissions.areas'), sortable: true, cell: areasOf },
  ];
  const exported: ExportColumn<PermissionNeed>[] = [
    { header: t('tenantConnection:permissions.permission'), value: (row) => row.permission },
    { header: t('tenantConnection:permissions.areas'), value: areasOf },
  ];
  return (
    <Stack gap="2" data-testid="permissions-table">
      <Text fontSize="sm" color="fg.muted">
        {t('tenantConnection:permissions.intro')}
      </Text>
      <DataTable
        label={t('tenantConnection:permissions.table')}
        columns={columns}
        rows={page}
        total={rows.length}
        rowKey={(row) => row.permission}
        state={state}
        onStateChange={setState}
        loading={loading ?? false}
        error={error}
        errorText={t('tenantConnection:permissions.failed')}
        {...(onRetry ? { onRetry } : {})}
        emptyText={t('tenantConnection:permissions.empty')}
        searchPlaceholder={t('tenantConnection:permissions.search')}
        toolbar={
          <ExportButtons
            title={t('tenantConnection:permissions.exportTitle')}
            columns={exported}
            disabled={!permissions}
            fetchPage={async ({ page: at, pageSize }) => ({
              items: rows.slice((at - 1) * pageSize, at * pageSize),
              total: rows.length,
              page: at,
              pageSize,
            })}
          />
        }
      />
    </Stack>
  );
}
