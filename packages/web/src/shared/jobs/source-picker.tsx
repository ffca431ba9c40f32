import { Badge, Button, HStack, Text } from '@chakra-ui/react';
import type { Application, DiscoveredSource } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { fetchAllPages } from '../../components/ui/export-button';
import { listQuery, useListState } from '../../components/ui/list-state';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { useServerAction } from '../../offline/online';
import { M365FailureAlert } from '../m365-failure';
import { useApi } from '../tenant';
import { fetchSourcesPage } from './api/pages';
import { sourcePageQuery } from './api/queries';

/**
 * Accounts, sites or teams from discovery, searchable and paged on the server, with a selection
 * that survives paging and a "select all matching" that reads every page of the current search.
 */
export function SourcePicker({
  tenantId,
  locationId,
  application,
  selected,
  onChange,
  limit,
  unit: unitName,
  coverage = true,
}: {
  tenantId: string;
  locationId: string;
  application: Application;
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** Most sources a job may have (trial licence). */
  limit?: number;
  /** What the list is of, when not the application's sources (e.g. accounts whose chats are archived). */
  unit?: string;
  /** false: no "protected" column, when the job does not protect what is picked. */
  coverage?: boolean;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const [state, setState] = useListState({ pageSize: 10, sort: 'displayName' });
  const [selectingAll, setSelectingAll] = useState(false);
  const list = useQuery(sourcePageQuery(api, tenantId, locationId, application, state));
  const unit = unitName ?? t(`backup:units.${application}`);
  // "Select all matching" reads every page from the server.
  const selectAllAction = useServerAction(!list.data?.total);
  const columns: Column<DiscoveredSource>[] = [
    { key: 'displayName', header: t('backup:columns.name'), cell: (s) => s.displayName, sortable: true },
    {
      key: application === 'sharepoint' ? 'url' : 'email',
      header: application === 'sharepoint' ? t('backup:columns.url') : t('backup:columns.email'),
      cell: (s) => (
        <Text truncate maxW="xs">
          {s.url ?? s.email ?? '—'}
        </Text>
      ),
      sortable: application !== 'teams',
      hideBelow: 'md',
    },
  ];
  if (coverage)
    columns.push({
      key: 'protected',
      header: t('backup:columns.protected'),
      cell: (s) =>
        s.protected ? (
          <Badge colorPalette="green">{t('backup:protectedYes')}</Badge>
        ) : (
          <Badge colorPalette="gray">{t('backup:protectedNo')}</Badge>
        ),
      sortable: true,
    });
  const over = limit !== undefined && selected.size > limit;

  const selectAll = async () => {
    setSelectingAll(true);
    try {
      const all = await fetchAllPages(
        ({ page, pageSize }) =>
          fetchSourcesPage(api, tenantId, locationId, { application, ...listQuery({ ...state, page, pageSize }) }),
        () => undefined,
      );
      onChange(new Set([...selected, ...all.map((s) => s.sourceId)]));
    } finally {
      setSelectingAll(false);
    }
  };

  return (
    <QueryDataTable
      query={list}
      label={t('backup:pickSources', { unit })}
      columns={columns}
      rowKey={(s) => s.sourceId}
      state={state}
      onStateChange={setState}
      renderError={(error) => (
        <M365FailureAlert
          // Each list says what it could not read: the accounts of a chosen unit, else the application's.
          title={unitName ? t('m365:lists.accounts') : t(`m365:lists.${application}`)}
          error={error}
          onRetry={() => void list.refetch()}
        />
      )}
      emptyText={t('backup:noSources', { unit })}
      searchPlaceholder={t('backup:searchSources', { unit })}
      selection={{ selected, onChange, rowLabel: (s) => t('table:selectRow', { name: s.displayName }) }}
      toolbar={
        <HStack gap="2" wrap="wrap">
          <Text fontSize="sm" color={over ? 'fg.error' : 'fg.muted'} data-testid="selected-count" aria-live="polite">
            {limit !== undefined
              ? t('backup:selectedOfLimit', { count: selected.size, limit })
              : t('table:selected', { count: selected.size })}
          </Text>
          <Button size="sm" variant="outline" onClick={selectAll} loading={selectingAll} {...selectAllAction}>
            {t('backup:selectAllMatching', { count: list.data?.total ?? 0 })}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onChange(new Set())} disabled={selected.size === 0}>
            {t('backup:clearSelection')}
          </Button>
        </HStack>
      }
    />
  );
}
