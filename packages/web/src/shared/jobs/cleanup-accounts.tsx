import type { DataManagementAccount } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { formatBytes, formatNumber } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { StatusBadge } from '../../components/ui/status-badge';
import { useApi } from '../tenant';
import { fetchCleanupAccountsPage } from './api/pages';
import { cleanupAccountsQuery } from './api/queries';

/** A clean-up report's sites and OneDrives: files, versions removed, space freed; exported to xlsx or csv. */
export function CleanupAccounts({ tenantId, reportId, title }: { tenantId: string; reportId: string; title: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const [state, setState] = useListState({ sort: 'displayName' });
  const accounts = useQuery(cleanupAccountsQuery(api, tenantId, reportId, state));
  const columns: Column<DataManagementAccount>[] = [
    { key: 'displayName', header: t('backup:columns.account'), cell: (a) => a.displayName, sortable: true },
    { key: 'status', header: t('backup:columns.status'), cell: (a) => <StatusBadge status={a.status} /> },
    {
      key: 'files',
      header: t('dataManagement:files'),
      cell: (a) => formatNumber(a.files, lang),
      align: 'end',
    },
    {
      key: 'versionsRemoved',
      header: t('dataManagement:versionsRemoved'),
      cell: (a) => formatNumber(a.versionsRemoved, lang),
      align: 'end',
    },
    {
      key: 'bytesFreed',
      header: t('dataManagement:bytesFreed'),
      cell: (a) => formatBytes(a.bytesFreed, lang),
      align: 'end',
      hideBelow: 'sm',
    },
    { key: 'errors', header: t('backup:columns.errors'), cell: (a) => a.errors.join('; '), hideBelow: 'md' },
  ];
  const exportColumns: ExportColumn<DataManagementAccount>[] = [
    { header: t('backup:columns.account'), value: (a) => a.displayName },
    { header: t('backup:columns.status'), value: (a) => t(`status:${a.status}`) },
    { header: t('dataManagement:files'), value: (a) => a.files },
    { header: t('dataManagement:versionsRemoved'), value: (a) => a.versionsRemoved },
    { header: t('dataManagement:bytesFreed'), value: (a) => a.bytesFreed },
    { header: t('backup:columns.errors'), value: (a) => a.errors.join('; ') },
  ];
  return (
    <QueryDataTable
      query={accounts}
      label={t('backup:runAccounts')}
      columns={columns}
      rowKey={(a) => a.accountId}
      state={state}
      onStateChange={setState}
      emptyText={t('backup:noAccounts')}
      toolbar={
        <ExportButtons
          title={title}
          columns={exportColumns}
          fetchPage={({ page, pageSize }) =>
            fetchCleanupAccountsPage(api, tenantId, reportId, { page, pageSize, sort: 'displayName', order: 'asc' })
          }
        />
      }
    />
  );
}
