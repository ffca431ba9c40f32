import { Button, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { JobStatus, JobType, Report, ReportQuery, RunAccount } from '@compliance-portal/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { FilterSelect } from '../../components/ui/filter-select';
import { formatBytes, formatDateTime, formatNumber } from '../../components/ui/format';
import { listQuery, useListState } from '../../components/ui/list-state';
import { StatusBadge } from '../../components/ui/status-badge';
import { useApi } from '../tenant';
import { CleanupAccounts } from './cleanup-accounts';
import { type RunArea, RunFilters } from './monitor';
import { RunAccountsTable } from './run-accounts';

function ReportView({ tenantId, report, onBack }: { tenantId: string; report: Report; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const exportColumns: ExportColumn<RunAccount>[] = [
    { header: t('backup:columns.account'), value: (a) => a.displayName },
    { header: t('backup:columns.status'), value: (a) => t(`status:${a.status}`) },
    { header: t('backup:columns.items'), value: (a) => a.items },
    { header: t('backup:columns.failures'), value: (a) => a.failedItems },
    { header: t('backup:columns.bytes'), value: (a) => a.bytes },
    { header: t('backup:columns.errors'), value: (a) => a.errors.join('; ') },
  ];
  const totals = [
    [t('backup:columns.accounts'), formatNumber(report.totals.accounts, lang)],
    [t('backup:columns.items'), formatNumber(report.totals.items, lang)],
    [t('backup:columns.size'), formatBytes(report.totals.bytes, lang)],
    [t('backup:columns.failures'), formatNumber(report.totals.failures, lang)],
  ] as const;
  return (
    <Stack gap="4">
      <Button alignSelf="flex-start" variant="ghost" size="sm" onClick={onBack}>
        ‹ {t('backup:backToReports')}
      </Button>
      <Stack gap="1">
        <Heading as="h2" size="lg" data-testid="report-title">
          {report.title}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          <StatusBadge status={report.status} /> {formatDateTime(report.started, lang)} –{' '}
          {formatDateTime(report.finished, lang)}
        </Text>
      </Stack>
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
        {totals.map(([label, value]) => (
          <Stack key={label} gap="0" borderWidth="1px" borderRadius="md" p="3">
            <Text fontSize="sm" color="fg.muted">
              {label}
            </Text>
            <Text fontSize="xl" fontWeight="semibold">
              {value}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
      {report.jobType === 'versionCleanup' ? (
        <CleanupAccounts tenantId={tenantId} reportId={report.reportId} title={report.title} />
      ) : (
        <RunAccountsTable
          label={t('backup:runAccounts')}
          queryKey={['tenant', tenantId, 'reporting', report.reportId, 'accounts']}
          fetch={(query, signal) =>
            api.apollo.reporting.accounts({ tenantId, reportId: report.reportId, query }, { signal })
          }
          toolbar={
            <ExportButtons
              title={report.title}
              columns={exportColumns}
              fetchPage={({ page, pageSize, after }) =>
                api.apollo.reporting.accounts({
                  tenantId,
                  reportId: report.reportId,
                  query: { page, pageSize, sort: 'displayName', order: 'asc', ...(after ? { after } : {}) },
                })
              }
              keyOf={(a) => a.accountId}
            />
          }
        />
      )}
    </Stack>
  );
}

/**
 * The reports of an area's runs. `filters` replaces the type filter (the reports list of every area
 * chooses area, type and dates itself) and gives the query's types and dates; while they are not
 * `valid` (a date range that ends before it starts) nothing is asked for and the last list stays.
 */
export function Reports({
  tenantId,
  area,
  filters,
}: {
  tenantId: string;
  area: RunArea;
  filters?: { node: ReactNode; query: Pick<ReportQuery, 'type' | 'types' | 'from' | 'to'>; valid?: boolean };
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [state, setState] = useListState({ sort: 'started', order: 'desc' });
  const [type, setType] = useState<JobType>(area.types[0]);
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [open, setOpen] = useState<Report | null>(null);
  const query = { ...(filters ? filters.query : { type }), ...listQuery(state), ...(status ? { status } : {}) };
  const reports = useQuery({
    queryKey: ['tenant', tenantId, 'reporting', query],
    queryFn: ({ signal }) => api.apollo.reporting.list({ tenantId, query }, { signal }),
    placeholderData: keepPreviousData,
    enabled: filters?.valid !== false,
  });
  if (open) return <ReportView tenantId={tenantId} report={open} onBack={() => setOpen(null)} />;
  const lang = i18n.language;
  const columns: Column<Report>[] = [
    { key: 'jobName', header: t('backup:columns.report'), cell: (r) => r.title, sortable: true },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (r) => <StatusBadge status={r.status} />,
      sortable: true,
    },
    {
      key: 'started',
      header: t('backup:columns.started'),
      cell: (r) => formatDateTime(r.started, lang),
      sortable: true,
      hideBelow: 'md',
    },
    {
      key: 'accounts',
      header: t('backup:columns.accounts'),
      cell: (r) => formatNumber(r.totals.accounts, lang),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'items',
      header: t('backup:columns.items'),
      cell: (r) => formatNumber(r.totals.items, lang),
      align: 'end',
      hideBelow: 'md',
    },
    {
      key: 'failures',
      header: t('backup:columns.failures'),
      cell: (r) => formatNumber(r.totals.failures, lang),
      align: 'end',
    },
  ];
  return (
    <DataTable
      label={area.label}
      columns={columns}
      rows={reports.data?.items}
      total={reports.data?.total ?? 0}
      rowKey={(r) => r.reportId}
      state={state}
      onStateChange={setState}
      loading={reports.isFetching}
      error={reports.error}
      onRetry={() => reports.refetch()}
      emptyText={t('backup:noReports')}
      searchPlaceholder={t('backup:searchJobs')}
      onRowClick={setOpen}
      toolbar={
        filters ? (
          <>
            {filters.node}
            <FilterSelect
              label={t('backup:columns.status')}
              value={status}
              all={t('backup:allStatuses')}
              options={(['finished', 'failed', 'pending'] as const).map((s) => ({ value: s, label: t(`status:${s}`) }))}
              onChange={(v) => {
                setStatus(v);
                setState({ page: 1 });
              }}
            />
          </>
        ) : (
          <RunFilters
            area={area}
            type={type}
            status={status}
            statuses={['finished', 'failed', 'pending']}
            onType={(v) => {
              setType(v);
              setState({ page: 1 });
            }}
            onStatus={(v) => {
              setStatus(v);
              setState({ page: 1 });
            }}
          />
        )
      }
    />
  );
}
