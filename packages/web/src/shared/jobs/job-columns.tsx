import { HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { type Job, type StorageLocation, TRIAL_LIMITS } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import type { ExportColumn } from '../../components/ui/export-button';
import { formatDateTime } from '../../components/ui/format';
import { useRecurrenceText, useRetentionText } from '../../components/ui/recurrence-editor';
import { actionState, type RowActions } from '../../components/ui/row-actions';
import { StatusBadge } from '../../components/ui/status-badge';
import { useServerAction } from '../../offline/online';
import { locationsQuery, useSourceNames } from '../api/queries';
import { useApi } from '../tenant';
import type { JobAction } from './api/mutations';
import { LastRunCell, lastRunState } from './last-run';
import { formatDuration } from './run-status';

/**
 * What an area shows in place of the destination or the retention column: its own column, or none
 * (null). A clean-up job writes nowhere and keeps nothing: its rule stands where a backup's retention does.
 */
export interface JobColumnsInstead<C> {
  destination?: C | null;
  retention?: C | null;
}

/** The column `key` as the area wants it: its own (`instead`), none, or the common one. */
/** The trial's limits in words (jobs-list): the reason, visible on every device, of a create or remove it disables. */
export const TRIAL_LIMITS_ID = 'trial-limits';

function choose<C>(instead: JobColumnsInstead<C> | undefined, key: keyof JobColumnsInstead<C>, common: C): C[] {
  if (!instead || !(key in instead)) return [common];
  const own = instead[key];
  return own ? [own] : [];
}

function Sources({ job, tenantId }: { job: Job; tenantId: string }) {
  const api = useApi();
  const locations = useQuery({ ...locationsQuery(api, tenantId), enabled: !job.locationId });
  // Discovery is read through a location of the tenant: a job that writes nowhere (a deletion) has none.
  const name = useSourceNames(tenantId, job.locationId ?? locations.data?.[0]?.locationId, job.application);
  const { t } = useTranslation();
  const first = job.sources.slice(0, 2).map(name).join(', ');
  return (
    <Text lineClamp={2} maxW="52" title={job.sources.map(name).join(', ')}>
      {job.sources.length > 2 ? t('backup:andMore', { list: first, count: job.sources.length - 2 }) : first}
    </Text>
  );
}

/**
 * The columns of a jobs list: name, application, sources, destination, schedule, retention, the last
 * run (how it ended and when, and how long it took), the next run, the status (with its progress while
 * it runs), the area's own columns, then start or stop, edit and remove. Destination and retention
 * show from 1536 px (the export always has them); on a phone: name, status and the actions.
 */
export function useJobColumns({
  tenantId,
  locations,
  extraColumns,
  instead,
}: {
  tenantId: string;
  locations: readonly StorageLocation[] | undefined;
  extraColumns?: Column<Job>[];
  /** An area's own column in place of the destination or the retention, or none (null). */
  instead?: JobColumnsInstead<Column<Job>>;
}): Column<Job>[] {
  const { t, i18n } = useTranslation();
  const recurrenceText = useRecurrenceText();
  const retentionText = useRetentionText();
  const locationName = (id: string | null) => locations?.find((l) => l.locationId === id)?.name ?? '—';
  return [
    {
      key: 'name',
      header: t('backup:columns.name'),
      cell: (j) => <Text fontWeight="medium">{j.name}</Text>,
      sortable: true,
    },
    {
      key: 'application',
      header: t('backup:columns.application'),
      cell: (j) => t(`backup:applications.${j.application}`),
      sortable: true,
      hideBelow: 'sm',
    },
    {
      key: 'sources',
      header: t('backup:columns.sources'),
      cell: (j) => <Sources job={j} tenantId={tenantId} />,
      hideBelow: 'lg',
    },
    ...choose(instead, 'destination', {
      key: 'destination',
      header: t('backup:columns.destination'),
      cell: (j) => locationName(j.locationId),
      hideBelow: '2xl',
    }),
    {
      key: 'recurrence',
      header: t('backup:columns.recurrence'),
      cell: (j) => recurrenceText(j.recurrence),
      hideBelow: 'md',
      stack: true,
    },
    ...choose(instead, 'retention', {
      key: 'retention',
      header: t('backup:columns.retention'),
      cell: (j) => retentionText(j.retention),
      hideBelow: '2xl',
    }),
    {
      key: 'lastRun',
      header: t('jobRuns:lastRun'),
      cell: (j) => <LastRunCell job={j} />,
      sortable: true,
      hideBelow: 'sm',
      stack: true,
    },
    {
      key: 'duration',
      header: t('jobRuns:duration'),
      cell: (j) => formatDuration(j.lastRun?.durationSeconds, t),
      sortable: true,
      align: 'end',
      hideBelow: 'md',
    },
    {
      key: 'nextRun',
      header: t('backup:columns.nextRun'),
      cell: (j) => formatDateTime(j.nextRun, i18n.language),
      sortable: true,
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (j) => (
        <Stack gap="1" align="start">
          <StatusBadge status={j.status} />
          {j.status === 'running' ? (
            <HStack gap="2" minW="20" w="full">
              <Progress.Root
                value={j.progress}
                size="xs"
                flex="1"
                aria-label={t('backup:progressOf', { name: j.name })}
              >
                <Progress.Track>
                  <Progress.Range />
                </Progress.Track>
              </Progress.Root>
              <Text fontSize="xs">{j.progress}%</Text>
            </HStack>
          ) : null}
        </Stack>
      ),
      sortable: true,
    },
    ...(extraColumns ?? []),
  ];
}

/**
 * A job's actions: start (or stop while it runs), edit and remove. A trial cannot remove a backup job,
 * and the remove action says why (the trial's limits stand in words above the list).
 */
export function useJobRowActions({
  limited,
  onAction,
  onEdit,
}: {
  limited: boolean;
  onAction: (job: Job, action: JobAction) => void;
  onEdit: (job: Job) => void;
}): RowActions<Job> {
  const { t } = useTranslation();
  const server = useServerAction();
  const trialForbids = limited && !TRIAL_LIMITS.canDeleteBackupJobs;
  return {
    header: t('backup:columns.actions'),
    rowLabel: (j) => j.name,
    actions: (j) => [
      j.status === 'running'
        ? { key: 'stop', label: t('backup:stopTrigger'), onSelect: () => onAction(j, 'stop'), ...actionState(server) }
        : {
            key: 'start',
            label: t('backup:startTrigger'),
            palette: 'blue',
            onSelect: () => onAction(j, 'start'),
            ...actionState(server),
          },
      { key: 'edit', label: t('backup:edit'), quiet: true, onSelect: () => onEdit(j), ...actionState(server) },
      {
        key: 'remove',
        label: t('backup:removeTrigger'),
        palette: 'red',
        quiet: true,
        onSelect: () => onAction(j, 'remove'),
        ...actionState(server, {
          disabled: trialForbids,
          reason: t('apiErrors:trialNoDelete'),
          describedBy: TRIAL_LIMITS_ID,
        }),
      },
    ],
  };
}

/**
 * A jobs list's export: what its table shows, in full (every source by id, dates as
 * ISO 8601 in UTC, the duration in seconds), and every row of the list's filter, not only its page.
 */
export function useJobExportColumns(instead?: JobColumnsInstead<ExportColumn<Job>>): ExportColumn<Job>[] {
  const { t } = useTranslation();
  const recurrenceText = useRecurrenceText();
  const retentionText = useRetentionText();
  return [
    { header: t('backup:columns.name'), value: (j) => j.name },
    { header: t('backup:columns.application'), value: (j) => t(`backup:applications.${j.application}`) },
    { header: t('backup:columns.sources'), value: (j) => j.sources.join(', ') },
    { header: t('backup:columns.recurrence'), value: (j) => recurrenceText(j.recurrence) },
    ...choose(instead, 'retention', {
      header: t('backup:columns.retention'),
      value: (j: Job) => retentionText(j.retention),
    }),
    {
      header: t('jobRuns:lastRun'),
      value: (j) => (j.lastRun ? t(`runs:state.${lastRunState(j.lastRun)}`) : t('jobRuns:neverRan')),
    },
    { header: t('jobRuns:lastRunEnded'), value: (j) => j.lastRun?.finished ?? '' },
    { header: t('jobRuns:durationSeconds'), value: (j) => j.lastRun?.durationSeconds ?? null },
    { header: t('backup:columns.nextRun'), value: (j) => j.nextRun ?? '' },
    { header: t('backup:columns.status'), value: (j) => t(`status:${j.status}`) },
  ];
}
