import { Alert, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { type Application, type Job, type JobType, TRIAL_LIMITS } from '@compliance-portal/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FilterSelect } from '../../components/ui/filter-select';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { listQuery, useListState } from '../../components/ui/list-state';
import { useRecurrenceText, useRetentionText } from '../../components/ui/recurrence-editor';
import { StatusBadge } from '../../components/ui/status-badge';
import { showToast } from '../../components/ui/toaster';
import { failureText } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { locationsQuery, useSourceNames } from '../api/queries';
import { useApi } from '../tenant';
import { waitForTask } from './job-actions';

type Pending = { job: Job; action: 'start' | 'stop' | 'remove' } | null;

/** Section 8, failures to start, stop or delete jobs: each action's own text. */
const ACTION_FAILED = {
  start: 'backup:startFailed',
  stop: 'backup:stopFailed',
  remove: 'backup:removeFailed',
} as const;

function Sources({ job, tenantId }: { job: Job; tenantId: string }) {
  const name = useSourceNames(tenantId, job.locationId, job.application);
  const { t } = useTranslation();
  const first = job.sources.slice(0, 2).map(name).join(', ');
  return (
    <Text truncate maxW="xs" title={job.sources.map(name).join(', ')}>
      {job.sources.length > 2 ? t('backup:andMore', { list: first, count: job.sources.length - 2 }) : first}
    </Text>
  );
}

/** What a jobs list is about: one job type, its workloads, texts, form and extra columns. */
export interface JobArea {
  type: JobType;
  applications: readonly Application[];
  texts: { label: string; empty: string; create: string };
  /** The trial's one-job-per-application limit applies (backup jobs). */
  trialLimited: boolean;
  /** What a 404 on one of these jobs says, when the catalogue has a text for it. */
  notFound?: string;
  renderForm: (props: { job?: Job; usedApplications: ReadonlySet<string>; onClose: () => void }) => ReactNode;
  extraColumns?: Column<Job>[];
}

export function JobsList({ tenantId, trial, area }: { tenantId: string; trial: boolean; area: JobArea }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [state, setState] = useListState({ sort: 'createdAt', order: 'desc' });
  const [application, setApplication] = useState<Application | ''>('');
  const [form, setForm] = useState<{ job?: Job } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const recurrenceText = useRecurrenceText();
  const retentionText = useRetentionText();
  const serverAction = useServerAction();
  const locations = useQuery(locationsQuery(api, tenantId));
  const query = {
    type: area.type,
    ...listQuery(state),
    ...(application ? { application } : {}),
  };
  const jobs = useQuery({
    queryKey: ['tenant', tenantId, 'jobs', query],
    queryFn: ({ signal }) => api.apollo.jobs.list({ tenantId, query }, { signal }),
    placeholderData: keepPreviousData,
    // Live progress while something runs; no polling when nothing does.
    refetchInterval: (q) => (q.state.data?.items.some((j) => j.status === 'running') ? 3000 : false),
  });
  // Which applications already have a job of this type (trial backups: one each).
  const used = useQuery({
    queryKey: ['tenant', tenantId, 'jobs', area.type, 'applications'],
    queryFn: async ({ signal }) => {
      const all = await api.apollo.jobs.list({ tenantId, query: { type: area.type, pageSize: 500 } }, { signal });
      return new Set(all.items.map((j) => j.application));
    },
  });
  const usedApplications = used.data ?? new Set<string>();
  const limited = trial && area.trialLimited;
  const allUsed = limited && area.applications.every((a) => usedApplications.has(a));

  const act = useMutation({
    mutationFn: async ({ job, action }: NonNullable<Pending>) => {
      // A failure is said in the action's own words (onError), not in the generic toast as well.
      const quiet = { disableToast: true } as const;
      if (action === 'remove') {
        await api.apollo.jobs.delete({ tenantId, jobId: job.jobId }, quiet);
        return { job, action, task: null };
      }
      const task =
        action === 'start'
          ? await api.apollo.jobs.start({ tenantId, jobId: job.jobId }, quiet)
          : await api.apollo.jobs.stop({ tenantId, jobId: job.jobId }, quiet);
      showToast('info', t(action === 'start' ? 'backup:startRequested' : 'backup:stopRequested', { name: job.name }));
      return { job, action, task: await waitForTask(api, tenantId, task) };
    },
    onSuccess: ({ job, action, task }) => {
      setPending(null);
      if (action === 'remove') showToast('success', t('backup:removed', { name: job.name }));
      else if (task?.status === 'failed')
        showToast('error', t(action === 'start' ? 'backup:startFailed' : 'backup:stopFailed', { name: job.name }));
      else if (task?.status === 'succeeded')
        showToast('success', t(action === 'start' ? 'backup:started' : 'backup:stopped', { name: job.name }));
      void queryClient.invalidateQueries({ queryKey: ['tenant', tenantId] });
    },
    onError: (error, { job, action }) => {
      setPending(null);
      showToast('error', failureText(t, t(ACTION_FAILED[action], { name: job.name }), error, area.notFound));
    },
  });

  const locationName = (id: string | null) => locations.data?.find((l) => l.locationId === id)?.name ?? '—';
  const columns: Column<Job>[] = [
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
    },
    {
      key: 'sources',
      header: t('backup:columns.sources'),
      cell: (j) => <Sources job={j} tenantId={tenantId} />,
      hideBelow: 'lg',
    },
    {
      key: 'destination',
      header: t('backup:columns.destination'),
      cell: (j) => locationName(j.locationId),
      hideBelow: 'lg',
    },
    {
      key: 'recurrence',
      header: t('backup:columns.recurrence'),
      cell: (j) => recurrenceText(j.recurrence),
      hideBelow: 'md',
    },
    {
      key: 'retention',
      header: t('backup:columns.retention'),
      cell: (j) => retentionText(j.retention),
      hideBelow: 'lg',
    },
    {
      key: 'nextRun',
      header: t('backup:columns.nextRun'),
      cell: (j) => formatDateTime(j.nextRun, i18n.language),
      sortable: true,
      hideBelow: 'md',
    },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (j) => <StatusBadge status={j.status} />,
      sortable: true,
    },
    {
      key: 'progress',
      header: t('backup:columns.progress'),
      cell: (j) => (
        <HStack gap="2" minW="24">
          <Progress.Root value={j.progress} size="xs" flex="1" aria-label={t('backup:progressOf', { name: j.name })}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="xs">{j.progress}%</Text>
        </HStack>
      ),
      hideBelow: 'sm',
    },
    ...(area.extraColumns ?? []),
    {
      key: 'actions',
      header: t('backup:columns.actions'),
      cell: (j) => (
        <HStack gap="1">
          {j.status === 'running' ? (
            <Button
              size="xs"
              variant="outline"
              onClick={() => setPending({ job: j, action: 'stop' })}
              {...serverAction}
            >
              {t('backup:stop')}
            </Button>
          ) : (
            <Button
              size="xs"
              variant="outline"
              colorPalette="blue"
              onClick={() => setPending({ job: j, action: 'start' })}
              {...serverAction}
            >
              {t('backup:start')}
            </Button>
          )}
          <Button size="xs" variant="ghost" onClick={() => setForm({ job: j })} {...serverAction}>
            {t('backup:edit')}
          </Button>
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            title={limited ? t('apiErrors:trialNoDelete') : undefined}
            onClick={() => setPending({ job: j, action: 'remove' })}
            {...serverAction}
            disabled={serverAction.disabled || (limited && !TRIAL_LIMITS.canDeleteBackupJobs)}
          >
            {t('backup:remove')}
          </Button>
        </HStack>
      ),
    },
  ];

  return (
    <Stack gap="4">
      {limited ? (
        <Alert.Root status="info" data-testid="trial-limits">
          <Alert.Indicator />
          <Alert.Title>
            {t('backup:trialLimits', {
              used:
                area.applications
                  .filter((a) => usedApplications.has(a))
                  .map((a) => t(`backup:applications.${a}`))
                  .join(', ') || t('backup:none'),
            })}
          </Alert.Title>
        </Alert.Root>
      ) : null}
      <DataTable
        label={area.texts.label}
        columns={columns}
        rows={jobs.data?.items}
        total={jobs.data?.total ?? 0}
        rowKey={(j) => j.jobId}
        state={state}
        onStateChange={setState}
        loading={jobs.isFetching}
        error={jobs.error}
        onRetry={() => jobs.refetch()}
        emptyText={area.texts.empty}
        searchPlaceholder={t('backup:searchJobs')}
        toolbar={
          <>
            <FilterSelect
              label={t('backup:columns.application')}
              value={application}
              all={t('backup:allApplications')}
              options={area.applications.map((a) => ({ value: a, label: t(`backup:applications.${a}`) }))}
              onChange={(v) => {
                setApplication(v);
                setState({ page: 1 });
              }}
            />
            <Button
              size="sm"
              colorPalette="blue"
              onClick={() => setForm({})}
              title={allUsed ? t('apiErrors:trialBackupJobs') : undefined}
              {...serverAction}
              disabled={serverAction.disabled || allUsed || locations.data?.length === 0}
            >
              {area.texts.create}
            </Button>
          </>
        }
      />
      {locations.data?.length === 0 ? <StatusAlert status="error">{t('backup:form.noLocation')}</StatusAlert> : null}
      {form
        ? area.renderForm({
            ...(form.job ? { job: form.job } : {}),
            usedApplications,
            onClose: () => setForm(null),
          })
        : null}
      <ConfirmDialog
        open={!!pending}
        title={pending ? t(`backup:confirm.${pending.action}Title`, { name: pending.job.name }) : ''}
        confirmLabel={pending ? t(`backup:${pending.action}`) : ''}
        destructive={pending?.action !== 'start'}
        pending={act.isPending}
        onConfirm={() => pending && act.mutate(pending)}
        onCancel={() => !act.isPending && setPending(null)}
      >
        {pending ? t(`backup:confirm.${pending.action}Text`, { name: pending.job.name }) : ''}
      </ConfirmDialog>
    </Stack>
  );
}
