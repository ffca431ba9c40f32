import { Button, Stack, Text } from '@chakra-ui/react';
import type { JobRun, JobStatus, JobType } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { FilterSelect } from '../../components/ui/filter-select';
import { formatDateTime } from '../../components/ui/format';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { ItemsCell, runItems } from '../items-by-kind';
import { useApi } from '../tenant';
import { type ListRoute, useUrlFilter, useUrlListState } from '../url-state';
import { isRunActive, runListQuery } from './api/queries';
import { MONITOR_LIST, MONITOR_STATUSES, monitorQueryOf } from './list-search';
import { RunActions, RunRetriedContext } from './run-actions';
import { RunDetail } from './run-detail';
import { type RunNotice, RunNoticeAlert } from './run-notice';
import { durationOf, failuresText, formatDuration, RunProgress, RunStatusBadge, ThrottleNote } from './run-status';

/** While a run is queued or running the monitor polls; when nothing does, it stops. */

/** The job types an area's monitor and reports show (the first chosen at first), and the list's name. */
export interface RunArea {
  types: readonly [JobType, ...JobType[]];
  label: string;
}

/** The type and status filters of an area's runs (monitor and reports). */
export function RunFilters({
  area,
  type,
  status,
  statuses,
  onType,
  onStatus,
}: {
  area: RunArea;
  type: JobType;
  status: JobStatus | '';
  statuses: readonly JobStatus[];
  onType: (type: JobType) => void;
  onStatus: (status: JobStatus | '') => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FilterSelect
        label={t('backup:columns.type')}
        value={type}
        options={area.types.map((x) => ({ value: x, label: t(`backup:types.${x}`) }))}
        onChange={(v) => onType(v || area.types[0])}
      />
      <FilterSelect
        label={t('backup:columns.status')}
        value={status}
        all={t('backup:allStatuses')}
        options={statuses.map((x) => ({ value: x, label: t(`status:${x}`) }))}
        onChange={onStatus}
      />
    </>
  );
}

/** The monitors' routes: their address keeps the list, its status and type, and the run a link opens. */
type MonitorRoute = ListRoute<'status' | 'type' | 'run'>;

export function Monitor({ from, tenantId, area }: { from: MonitorRoute; tenantId: string; area: RunArea }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  // The list's page, sort, order, search, status and type are in the address; the open run is not.
  const [state, setState] = useUrlListState(from, MONITOR_LIST);
  const [status, setStatus] = useUrlFilter<JobStatus | ''>(from, 'status', '');
  const [type, setType] = useUrlFilter<JobType>(from, 'type', area.types[0]);
  // A link to a run (one just started from a jobs list) opens it; the address does not follow the drawer.
  const linked = getRouteApi(from).useSearch().run;
  const [selected, setSelected] = useState<string | null>(typeof linked === 'string' ? linked : null);
  const [notice, setNotice] = useState<RunNotice | null>(null);
  const runs = useQuery(runListQuery(api, tenantId, monitorQueryOf(state, type, status)));
  const run = runs.data?.items.find((r) => r.reportId === selected);
  const lang = i18n.language;
  const columns: Column<JobRun>[] = [
    {
      key: 'jobName',
      header: t('backup:columns.name'),
      // A button as well as the row's click: the run opens by keyboard too.
      cell: (r) => (
        <Button
          variant="plain"
          size="sm"
          h="auto"
          p="0"
          textAlign="start"
          whiteSpace="normal"
          fontWeight="normal"
          onClick={(e) => {
            e.stopPropagation();
            setSelected(r.reportId);
          }}
        >
          {r.jobName}
        </Button>
      ),
      sortable: true,
    },
    {
      key: 'status',
      header: t('backup:columns.status'),
      // The state in its status's colour; below it, while Microsoft 365 makes the run wait, why and until when.
      cell: (r) => (
        <Stack gap="1" align="start" maxW="xs" whiteSpace="normal">
          <RunStatusBadge run={r} />
          <ThrottleNote run={r} size="xs" />
        </Stack>
      ),
      sortable: true,
    },
    {
      key: 'progress',
      header: t('backup:columns.progress'),
      cell: (r) => <RunProgress run={r} label={t('backup:progressOf', { name: r.jobName })} />,
      sortable: true,
      hideBelow: 'sm',
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
      key: 'duration',
      header: t('runs:figures.duration'),
      cell: (r) => formatDuration(durationOf(r), t),
      align: 'end',
      hideBelow: 'md',
    },
    {
      key: 'finished',
      header: t('backup:columns.finished'),
      cell: (r) => formatDateTime(r.finished, lang),
      sortable: true,
      hideBelow: 'lg',
      stack: true,
    },
    {
      key: 'items',
      header: t('backup:columns.items'),
      cell: (r) => <ItemsCell total={runItems(r)} kinds={r.itemsByKind} />,
      align: 'end',
      hideBelow: 'sm',
      stack: true,
    },
    {
      key: 'failures',
      header: t('backup:columns.failures'),
      cell: (r) => failuresText(r, t, lang),
      align: 'end',
      hideBelow: 'md',
    },
    { key: 'actions', header: t('jobRuns:actions'), cell: (r) => <RunActions run={r} tenantId={tenantId} /> },
  ];
  return (
    <RunRetriedContext.Provider
      value={(retry, from) => {
        setNotice({ name: from.jobName, reportId: retry.reportId, scope: retry.scope, count: retry.count });
        // Retried from its open drawer: the drawer goes on with the new run (a status filter would hide it).
        if (selected === from.reportId) {
          setStatus('');
          setSelected(retry.reportId);
        }
      }}
    >
      {notice ? (
        <RunNoticeAlert
          notice={notice}
          onOpen={() => {
            // The new run is queued: it shows first once no status filter hides it.
            setStatus('');
            setSelected(notice.reportId);
            setNotice(null);
          }}
          onDismiss={() => setNotice(null)}
        />
      ) : null}
      <QueryDataTable
        query={runs}
        label={area.label}
        columns={columns}
        rowKey={(r) => r.reportId}
        state={state}
        onStateChange={setState}
        emptyText={t('backup:noRuns')}
        searchPlaceholder={t('backup:searchJobs')}
        onRowClick={(r) => setSelected(r.reportId)}
        toolbar={
          <RunFilters
            area={area}
            type={type}
            status={status}
            statuses={MONITOR_STATUSES}
            onType={setType}
            onStatus={setStatus}
          />
        }
      />
      <Text fontSize="xs" color="fg.muted" mt="2" aria-live="polite" data-testid="monitor-polling">
        {runs.data?.items.some(isRunActive) ? t('backup:polling') : t('backup:notPolling')}
      </Text>
      {run ? <RunDetail tenantId={tenantId} run={run} onClose={() => setSelected(null)} /> : null}
    </RunRetriedContext.Provider>
  );
}
