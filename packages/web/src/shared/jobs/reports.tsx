import type { JobStatus, JobType, Report, ReportQuery } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { FilterSelect } from '../../components/ui/filter-select';
import { formatDateTime, formatNumber } from '../../components/ui/format';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { StatusBadge } from '../../components/ui/status-badge';
import { ItemsCell, sumOfKinds } from '../items-by-kind';
import { useApi } from '../tenant';
import { type ListRoute, useUrlFilter, useUrlListState } from '../url-state';
import { reportListQuery } from './api/queries';
import { REPORT_STATUSES, REPORTS_LIST, reportQueryOf } from './list-search';
import { type RunArea, RunFilters } from './monitor';
import { ReportView } from './report-view';

/**
 * The reports of an area's runs. `filters` replaces the type filter (the reports list of every area
 * chooses area, type and dates itself) and gives the query's types and dates; while they are not
 * `valid` (a date range that ends before it starts) nothing is asked for and the last list stays.
 */
export function Reports({
  from,
  tenantId,
  area,
  filters,
}: {
  /** The route whose address keeps the list, its status and type. */
  from: ListRoute<'status' | 'type'>;
  tenantId: string;
  area: RunArea;
  filters?: { node: ReactNode; query: Pick<ReportQuery, 'type' | 'types' | 'from' | 'to'>; valid?: boolean };
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  // The list's page, sort, order, search, status and type are in the address; the open report is not.
  // With `filters` the page owns the other filters (and `type`), and this list only its status.
  const [state, setState] = useUrlListState(from, REPORTS_LIST);
  const [type, setType] = useUrlFilter<JobType>(from, 'type', area.types[0]);
  const [status, setStatus] = useUrlFilter<JobStatus | ''>(from, 'status', '');
  const [open, setOpen] = useState<Report | null>(null);
  const query = reportQueryOf(filters ? filters.query : { type }, state, status);
  const reports = useQuery(reportListQuery(api, tenantId, query, filters?.valid !== false));
  if (open) return <ReportView tenantId={tenantId} report={open} onBack={() => setOpen(null)} />;
  const lang = i18n.language;
  const columns: Column<Report>[] = [
    { key: 'jobName', header: t('backup:columns.report'), cell: (r) => r.jobName, sortable: true },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (r) => <StatusBadge status={r.status} warnings={r.totals.failures > 0} />,
      sortable: true,
    },
    {
      key: 'started',
      header: t('backup:columns.started'),
      cell: (r) => formatDateTime(r.started, lang),
      sortable: true,
      hideBelow: 'md',
      stack: true,
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
      cell: (r) => (
        <ItemsCell
          total={r.totals.itemsByKind ? sumOfKinds(r.totals.itemsByKind) : r.totals.items}
          kinds={r.totals.itemsByKind}
        />
      ),
      align: 'end',
      hideBelow: 'md',
    },
    {
      key: 'failures',
      header: t('backup:columns.failures'),
      // A failed run never reads "0": it failed as a whole.
      cell: (r) =>
        r.status === 'failed' && r.totals.failures === 0
          ? t('runs:failures.runFailed')
          : formatNumber(r.totals.failures, lang),
      align: 'end',
    },
  ];
  return (
    <QueryDataTable
      query={reports}
      label={area.label}
      columns={columns}
      rowKey={(r) => r.reportId}
      state={state}
      onStateChange={setState}
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
              options={REPORT_STATUSES.map((s) => ({ value: s, label: t(`status:${s}`) }))}
              onChange={setStatus}
            />
          </>
        ) : (
          <RunFilters
            area={area}
            type={type}
            status={status}
            statuses={REPORT_STATUSES}
            onType={setType}
            onStatus={setStatus}
          />
        )
      }
    />
  );
}
