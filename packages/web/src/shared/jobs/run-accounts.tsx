import { Stack, Text } from '@chakra-ui/react';
import type { RunAccount } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { formatBytes, formatNumber } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { StatusBadge } from '../../components/ui/status-badge';
import { useApi } from '../tenant';
import { runAccountsQuery } from './api/queries';

/**
 * The accounts of a run with their items, failures and error messages; paged on the server. Its
 * paging stays in the table (it opens inside a drawer or a report), not in the address.
 */
export function RunAccountsTable({
  label,
  tenantId,
  from,
  reportId,
  poll,
  toolbar,
}: {
  label: string;
  tenantId: string;
  /** Where the run is shown: the monitor's drawer or its report. */
  from: 'monitoring' | 'reporting';
  reportId: string;
  /** Asked for again every few seconds while the run goes on. */
  poll?: boolean;
  toolbar?: React.ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [state, setState] = useListState({ sort: 'displayName' });
  const accounts = useQuery(runAccountsQuery(api, tenantId, from, reportId, state, poll));
  const columns: Column<RunAccount>[] = [
    { key: 'displayName', header: t('backup:columns.account'), cell: (a) => a.displayName, sortable: true },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (a) => <StatusBadge status={a.status} />,
      sortable: true,
    },
    {
      key: 'items',
      header: t('backup:columns.items'),
      cell: (a) => formatNumber(a.items, i18n.language),
      sortable: true,
      align: 'end',
    },
    {
      key: 'failedItems',
      header: t('backup:columns.failures'),
      cell: (a) => formatNumber(a.failedItems, i18n.language),
      sortable: true,
      align: 'end',
    },
    {
      key: 'bytes',
      header: t('figures:bytesRead.short'),
      cell: (a) => formatBytes(a.bytes, i18n.language),
      sortable: true,
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'errors',
      header: t('backup:columns.errors'),
      cell: (a) =>
        a.errors.length === 0 ? (
          '—'
        ) : (
          <Stack gap="0" maxW="md">
            {a.errors.slice(0, 3).map((e) => (
              <Text key={e} fontSize="xs" color="fg.error" truncate title={e}>
                {e}
              </Text>
            ))}
            {a.errors.length > 3 ? (
              <Text fontSize="xs" color="fg.muted">
                {t('backup:moreErrors', { count: a.errors.length - 3 })}
              </Text>
            ) : null}
          </Stack>
        ),
      hideBelow: 'md',
    },
  ];
  return (
    <QueryDataTable
      query={accounts}
      label={label}
      columns={columns}
      rowKey={(a) => a.accountId}
      state={state}
      onStateChange={setState}
      emptyText={t('backup:noAccounts')}
      searchPlaceholder={t('backup:searchAccounts')}
      toolbar={toolbar}
    />
  );
}
