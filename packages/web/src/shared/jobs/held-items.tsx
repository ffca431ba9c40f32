import { Badge, Text } from '@chakra-ui/react';
import type { HeldItem } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { formatDateTime } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { useApi } from '../tenant';
import { fetchHeldItemsPage, heldItemsListQuery, heldItemsQuery } from './api/held-items-query';

/**
 * What an archive deletion run kept because eDiscovery cases held it: subject (hidden where the reader
 * may not read the mailbox), mailbox or team, time sent and case; paged, sorted, searched and exported.
 */
export function HeldItems({ tenantId, reportId, title }: { tenantId: string; reportId: string; title: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const [state, setState] = useListState({ sort: 'sentAt', order: 'desc' });
  const items = useQuery(heldItemsQuery(api, tenantId, reportId, state));
  const subject = (i: HeldItem) => i.subject ?? t('deletionJobs:hiddenSubject');
  const where = (i: HeldItem) => (i.chat ? `${i.sourceName} (${t('deletionJobs:chat')})` : i.sourceName);
  const columns: Column<HeldItem>[] = [
    {
      key: 'subject',
      header: t('deletionJobs:subject'),
      cell: (i) =>
        i.subject === null ? (
          <Text as="span" color="fg.muted" fontStyle="italic">
            {subject(i)}
          </Text>
        ) : (
          i.subject || t('ediscovery:noSubject')
        ),
      sortable: true,
    },
    { key: 'sourceName', header: t('deletionJobs:where'), cell: where, sortable: true, hideBelow: 'sm' },
    {
      key: 'sentAt',
      header: t('deletionJobs:sent'),
      cell: (i) => formatDateTime(i.sentAt, lang),
      sortable: true,
      hideBelow: 'md',
    },
    {
      key: 'caseName',
      header: t('deletionJobs:case'),
      cell: (i) => (
        <Badge colorPalette="orange" variant="subtle">
          {i.caseName}
        </Badge>
      ),
      sortable: true,
    },
  ];
  const exportColumns: ExportColumn<HeldItem>[] = [
    { header: t('deletionJobs:subject'), value: subject },
    { header: t('deletionJobs:where'), value: where },
    { header: t('deletionJobs:sent'), value: (i) => i.sentAt ?? '' },
    { header: t('deletionJobs:case'), value: (i) => i.caseName },
  ];
  return (
    <QueryDataTable
      query={items}
      label={t('deletionJobs:heldItems')}
      columns={columns}
      rowKey={(i) => `${i.itemId} ${i.caseId}`}
      state={state}
      onStateChange={setState}
      emptyText={t('deletionJobs:heldNone')}
      searchPlaceholder={t('deletionJobs:searchHeld')}
      toolbar={
        <ExportButtons
          title={`${title} ${t('deletionJobs:heldItems')}`}
          columns={exportColumns}
          fetchPage={({ page, pageSize }) =>
            fetchHeldItemsPage(api, tenantId, reportId, heldItemsListQuery({ ...state, page, pageSize }))
          }
        />
      }
    />
  );
}
