import { CloseButton, Drawer, HStack, Portal, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { JobRun, JobStatus, JobType } from '@compliance-portal/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FilterSelect } from '../../components/ui/filter-select';
import { formatBytes, formatDateTime, formatNumber } from '../../components/ui/format';
import { listQuery, useListState } from '../../components/ui/list-state';
import { StatusBadge } from '../../components/ui/status-badge';
import { useApi } from '../tenant';
import { RunAccountsTable } from './run-accounts';

const STATUSES: JobStatus[] = ['running', 'pending', 'finished', 'failed'];

/** While a run is queued or running the monitor polls; when nothing does, it stops. */
export const MONITOR_POLL_MS = 3000;
const active = (r: JobRun) => r.status === 'running' || r.status === 'pending';

function RunDetail({ tenantId, run, onClose }: { tenantId: string; run: JobRun; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'lg' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{run.jobName}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                <HStack gap="3">
                  <StatusBadge status={run.status} warnings={run.itemsFailed > 0} />
                  <Progress.Root value={run.progress} size="sm" flex="1" aria-label={t('backup:columns.progress')}>
                    <Progress.Track>
                      <Progress.Range />
                    </Progress.Track>
                  </Progress.Root>
                  <Text fontSize="sm">{run.progress}%</Text>
                </HStack>
                <SimpleGrid columns={2} gap="2" fontSize="sm">
                  <Text color="fg.muted">{t('backup:columns.started')}</Text>
                  <Text>{formatDateTime(run.started, lang)}</Text>
                  <Text color="fg.muted">{t('backup:columns.finished')}</Text>
                  <Text>{formatDateTime(run.finished, lang)}</Text>
                  <Text color="fg.muted">{t('backup:columns.items')}</Text>
                  <Text>{formatNumber(run.itemsProcessed, lang)}</Text>
                  <Text color="fg.muted">{t('backup:columns.failures')}</Text>
                  <Text>{formatNumber(run.itemsFailed, lang)}</Text>
                  <Text color="fg.muted">{t('backup:columns.size')}</Text>
                  <Text>{formatBytes(run.bytesProcessed, lang)}</Text>
                </SimpleGrid>
                {run.message ? (
                  <Text color="fg.error" fontSize="sm">
                    {run.message}
                  </Text>
                ) : null}
                <RunAccountsTable
                  label={t('backup:runAccounts')}
                  queryKey={['tenant', tenantId, 'monitoring', run.reportId, 'accounts']}
                  poll={active(run)}
                  fetch={(query, signal) =>
                    api.apollo.monitoring.accounts({ tenantId, reportId: run.reportId, query }, { signal })
                  }
                />
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

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

export function Monitor({ tenantId, area }: { tenantId: string; area: RunArea }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [state, setState] = useListState({ sort: 'started', order: 'desc' });
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [type, setType] = useState<JobType>(area.types[0]);
  const [selected, setSelected] = useState<string | null>(null);
  const query = { type, ...listQuery(state), ...(status ? { status } : {}) };
  const runs = useQuery({
    queryKey: ['tenant', tenantId, 'monitoring', query],
    queryFn: ({ signal }) => api.apollo.monitoring.list({ tenantId, query }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(active) ? MONITOR_POLL_MS : false),
  });
  const run = runs.data?.items.find((r) => r.reportId === selected);
  const lang = i18n.language;
  const columns: Column<JobRun>[] = [
    { key: 'jobName', header: t('backup:columns.name'), cell: (r) => r.jobName, sortable: true },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (r) => <StatusBadge status={r.status} warnings={r.itemsFailed > 0} />,
      sortable: true,
    },
    {
      key: 'progress',
      header: t('backup:columns.progress'),
      cell: (r) => (
        <HStack gap="2" minW="24">
          <Progress.Root value={r.progress} size="xs" flex="1" aria-label={t('backup:progressOf', { name: r.jobName })}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="xs" data-testid="run-progress">
            {r.progress}%
          </Text>
        </HStack>
      ),
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
      key: 'finished',
      header: t('backup:columns.finished'),
      cell: (r) => formatDateTime(r.finished, lang),
      sortable: true,
      hideBelow: 'lg',
    },
    {
      key: 'items',
      header: t('backup:columns.items'),
      cell: (r) => formatNumber(r.itemsProcessed, lang),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'failures',
      header: t('backup:columns.failures'),
      cell: (r) => formatNumber(r.itemsFailed, lang),
      align: 'end',
      hideBelow: 'md',
    },
  ];
  return (
    <>
      <DataTable
        label={area.label}
        columns={columns}
        rows={runs.data?.items}
        total={runs.data?.total ?? 0}
        rowKey={(r) => r.reportId}
        state={state}
        onStateChange={setState}
        loading={runs.isFetching}
        error={runs.error}
        onRetry={() => runs.refetch()}
        emptyText={t('backup:noRuns')}
        searchPlaceholder={t('backup:searchJobs')}
        onRowClick={(r) => setSelected(r.reportId)}
        toolbar={
          <RunFilters
            area={area}
            type={type}
            status={status}
            statuses={STATUSES}
            onType={(v) => {
              setType(v);
              setState({ page: 1 });
            }}
            onStatus={(v) => {
              setStatus(v);
              setState({ page: 1 });
            }}
          />
        }
      />
      <Text fontSize="xs" color="fg.muted" mt="2" aria-live="polite" data-testid="monitor-polling">
        {runs.data?.items.some(active) ? t('backup:polling') : t('backup:notPolling')}
      </Text>
      {run ? <RunDetail tenantId={tenantId} run={run} onClose={() => setSelected(null)} /> : null}
    </>
  );
}
