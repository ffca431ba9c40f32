import {
  Alert,
  Box,
  Breadcrumb,
  Button,
  Card,
  chakra,
  Heading,
  HStack,
  NativeSelect,
  Progress,
  RadioGroup,
  Stack,
  Text,
} from '@chakra-ui/react';
import {
  CONFLICT_POLICIES,
  type ConflictPolicy,
  type DiscoveryNode,
  type Job,
  RESTORE_TARGETS,
  type RestoreSpec,
  TRIAL_LIMITS,
} from '@compliance-portal/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { formatBytes, formatDateTime } from '../../components/ui/format';
import { listQuery, useListState } from '../../components/ui/list-state';
import { PageHeader } from '../../components/ui/page-header';
import { saveBlob } from '../../components/ui/save-blob';
import { StatusBadge } from '../../components/ui/status-badge';
import { showToast } from '../../components/ui/toaster';
import { isNotFound } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { sourceNamesQuery } from '../../shared/api/queries';
import { RequireTenant, useApi, useTenant } from '../../shared/tenant';

const FOLDERS = new Set<DiscoveryNode['kind']>(['folder', 'library', 'channel', 'site', 'team', 'drive']);

function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <Stack gap="1">
      <chakra.label htmlFor={id} fontSize="sm" fontWeight="medium">
        {label}
      </chakra.label>
      {children}
    </Stack>
  );
}

/** The snapshot's tree, node by node, with checkboxes; a folder's name opens it. */
function SnapshotBrowser({
  tenantId,
  job,
  sourceId,
  snapshot,
  selected,
  onSelect,
}: {
  tenantId: string;
  job: Job;
  sourceId: string;
  snapshot: string;
  selected: Map<string, DiscoveryNode>;
  onSelect: (next: Map<string, DiscoveryNode>) => void;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [trail, setTrail] = useState<DiscoveryNode[]>([]);
  const [state, setState] = useListState({ pageSize: 50 });
  const node = trail.at(-1)?.nodeId ?? 'root';
  const items = useQuery({
    queryKey: ['tenant', tenantId, 'snapshot', job.jobId, sourceId, snapshot, node, listQuery(state)],
    queryFn: ({ signal }) =>
      api.apollo.discovery.items(
        {
          tenantId,
          locationId: job.locationId ?? '',
          sourceId,
          nodeId: node,
          query: {
            snapshot,
            page: state.page,
            pageSize: state.pageSize,
            ...(state.search ? { search: state.search } : {}),
          },
        },
        // Said in the table, in the catalogue's words (section 8), not in the generic toast.
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
  });
  const open = (n: DiscoveryNode) => {
    setTrail([...trail, n]);
    setState({ page: 1, search: '' });
  };
  const columns: Column<DiscoveryNode>[] = [
    {
      key: 'name',
      header: t('backup:columns.name'),
      cell: (n) =>
        FOLDERS.has(n.kind) && n.hasChildren ? (
          <Button
            variant="plain"
            size="sm"
            px="0"
            h="auto"
            color="fg.info"
            onClick={() => open(n)}
            data-testid="open-node"
          >
            📁 {n.name}
          </Button>
        ) : (
          <Text>{n.name}</Text>
        ),
    },
    { key: 'kind', header: t('backup:columns.type'), cell: (n) => t(`backup:nodeKinds.${n.kind}`), hideBelow: 'sm' },
    {
      key: 'size',
      header: t('backup:columns.size'),
      cell: (n) => formatBytes(n.sizeBytes, i18n.language),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'modified',
      header: t('backup:columns.modified'),
      cell: (n) => formatDateTime(n.modified, i18n.language),
      hideBelow: 'md',
    },
  ];
  const rows = items.data?.items;
  const keys = new Set(selected.keys());
  return (
    <Stack gap="2">
      <Breadcrumb.Root>
        <Breadcrumb.List>
          <Breadcrumb.Item>
            <Breadcrumb.Link asChild>
              <button type="button" onClick={() => setTrail([])}>
                {t('backup:snapshotRoot')}
              </button>
            </Breadcrumb.Link>
          </Breadcrumb.Item>
          {trail.map((n, i) => (
            <HStack key={n.nodeId} gap="1" as="span">
              <Breadcrumb.Separator />
              <Breadcrumb.Item>
                {i === trail.length - 1 ? (
                  <Breadcrumb.CurrentLink data-testid="current-folder">{n.name}</Breadcrumb.CurrentLink>
                ) : (
                  <Breadcrumb.Link asChild>
                    <button type="button" onClick={() => setTrail(trail.slice(0, i + 1))}>
                      {n.name}
                    </button>
                  </Breadcrumb.Link>
                )}
              </Breadcrumb.Item>
            </HStack>
          ))}
        </Breadcrumb.List>
      </Breadcrumb.Root>
      <DataTable
        label={t('backup:snapshotTree')}
        columns={columns}
        rows={rows}
        total={items.data?.total ?? 0}
        rowKey={(n) => n.nodeId}
        state={state}
        onStateChange={setState}
        loading={items.isFetching}
        error={items.error}
        errorText={isNotFound(items.error) ? t('errors:noFolder') : t('dataManagement:failed')}
        onRetry={() => items.refetch()}
        emptyText={t('backup:emptyFolder')}
        searchPlaceholder={t('backup:searchItems')}
        selection={{
          selected: keys,
          rowLabel: (n) => t('table:selectRow', { name: n.name }),
          onChange: (next) => {
            const map = new Map([...selected].filter(([k]) => next.has(k)));
            for (const n of rows ?? []) if (next.has(n.nodeId)) map.set(n.nodeId, n);
            onSelect(map);
          },
        }}
      />
    </Stack>
  );
}

function Restore({ tenantId, trial }: { tenantId: string; trial: boolean }) {
  const { t, i18n } = useTranslation();
  const serverAction = useServerAction();
  const api = useApi();
  const queryClient = useQueryClient();
  const lang = i18n.language;
  const [jobId, setJobId] = useState('');
  const [sourceId, setSourceId] = useState('');
  const [snapshot, setSnapshot] = useState('');
  const [selected, setSelected] = useState(new Map<string, DiscoveryNode>());
  const [target, setTarget] = useState<RestoreSpec['target']>('original');
  const [targetId, setTargetId] = useState('');
  const [policy, setPolicy] = useState<ConflictPolicy>('keepBoth');
  const [confirming, setConfirming] = useState(false);
  const [restoreJob, setRestoreJob] = useState<Job | null>(null);

  const backups = useQuery({
    queryKey: ['tenant', tenantId, 'jobs', { type: 'backup', pageSize: 500 }],
    queryFn: ({ signal }) =>
      api.apollo.jobs.list(
        { tenantId, query: { type: 'backup', pageSize: 500, sort: 'name', order: 'asc' } },
        { signal },
      ),
  });
  const job = backups.data?.items.find((j) => j.jobId === jobId);
  const names = useQuery({
    ...sourceNamesQuery(api, tenantId, job?.locationId ?? '', job?.application ?? 'onedrive'),
    enabled: !!job?.locationId,
  });
  const name = (id: string) => names.data?.get(id) ?? id;
  const snapshots = useQuery({
    queryKey: ['tenant', tenantId, 'monitoring', { jobId, status: 'finished' }],
    queryFn: ({ signal }) =>
      api.apollo.monitoring.list(
        { tenantId, query: { jobId, status: 'finished', sort: 'finished', order: 'desc', pageSize: 100 } },
        { signal },
      ),
    enabled: !!jobId,
  });
  const restoresUsed = useQuery({
    queryKey: ['tenant', tenantId, 'jobs', { type: 'restore', application: job?.application }],
    queryFn: ({ signal }) =>
      api.apollo.jobs.list(
        { tenantId, query: { type: 'restore', application: job?.application ?? 'onedrive', pageSize: 1 } },
        { signal },
      ),
    enabled: !!job && trial,
  });
  const restoresLeft = trial
    ? Math.max(0, TRIAL_LIMITS.restoresPerApplication - (restoresUsed.data?.total ?? 0))
    : null;
  const teams = job?.application === 'teams';
  const effectiveTarget = teams ? 'download' : target;

  const create = useMutation({
    mutationFn: () => {
      if (!job) throw new Error('no job');
      const restore: RestoreSpec = {
        sourceJobId: job.jobId,
        snapshot,
        sourceId,
        nodeIds: [...selected.keys()],
        target: effectiveTarget,
        ...(effectiveTarget === 'other' ? { targetId } : {}),
        conflictPolicy: policy,
      };
      return api.apollo.jobs.create({
        tenantId,
        body: {
          name: t('backup:restoreName', { source: name(sourceId), date: formatDateTime(snapshot, lang) }).slice(0, 120),
          type: 'restore',
          application: job.application,
          sources: [sourceId],
          restore,
        },
      });
    },
    onSuccess: (created) => {
      setConfirming(false);
      setRestoreJob(created);
      showToast('success', t('backup:restoreQueued'));
      void queryClient.invalidateQueries({ queryKey: ['tenant', tenantId, 'jobs'] });
    },
    onError: () => setConfirming(false),
  });
  const progress = useQuery({
    queryKey: ['tenant', tenantId, 'jobs', restoreJob?.jobId],
    queryFn: ({ signal }) => api.apollo.jobs.get({ tenantId, jobId: restoreJob?.jobId ?? '' }, { signal }),
    enabled: !!restoreJob,
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === 'finished' || q.state.data.status === 'failed') ? false : 2000,
  });
  const download = useMutation({
    mutationFn: async () => {
      const file = await api.legacy.jobs.downloadRestoreArchive({ body: { jobId: restoreJob?.jobId ?? '' } });
      saveBlob(file.blob, file.fileName ?? 'restore.zip');
    },
  });

  const ready =
    !!job &&
    !!sourceId &&
    !!snapshot &&
    selected.size > 0 &&
    (effectiveTarget !== 'other' || !!targetId) &&
    restoresLeft !== 0;

  if (restoreJob) {
    const current = progress.data ?? restoreJob;
    return (
      <Card.Root maxW="2xl">
        <Card.Body gap="3">
          <Heading as="h2" size="md">
            {current.name}
          </Heading>
          <HStack gap="3">
            <StatusBadge status={current.status} />
            <Progress.Root value={current.progress} size="sm" flex="1" aria-label={t('backup:columns.progress')}>
              <Progress.Track>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
            <Text fontSize="sm" data-testid="restore-progress">
              {current.progress}%
            </Text>
          </HStack>
          <HStack gap="2" wrap="wrap">
            {current.status === 'finished' && current.restore?.target === 'download' ? (
              <Button
                colorPalette="blue"
                onClick={() => download.mutate()}
                loading={download.isPending}
                {...serverAction}
              >
                {t('backup:downloadArchive')}
              </Button>
            ) : null}
            <Button
              variant="outline"
              onClick={() => {
                setRestoreJob(null);
                setSelected(new Map());
              }}
            >
              {t('backup:newRestore')}
            </Button>
          </HStack>
        </Card.Body>
      </Card.Root>
    );
  }

  return (
    <Stack gap="5">
      {trial && job ? (
        <Alert.Root status={restoresLeft === 0 ? 'error' : 'info'} data-testid="restores-left">
          <Alert.Indicator />
          <Alert.Title>
            {restoresLeft === 0
              ? t('apiErrors:trialRestores')
              : t('backup:restoresLeft', { count: restoresLeft ?? 0, limit: TRIAL_LIMITS.restoresPerApplication })}
          </Alert.Title>
        </Alert.Root>
      ) : null}
      <Stack direction={{ base: 'column', lg: 'row' }} gap="4">
        <Field id="restore-job" label={t('backup:restoreFrom')}>
          <NativeSelect.Root>
            <NativeSelect.Field
              id="restore-job"
              value={jobId}
              onChange={(e) => {
                setJobId(e.target.value);
                setSourceId('');
                setSnapshot('');
                setSelected(new Map());
              }}
            >
              <option value="">{t('backup:chooseJob')}</option>
              {(backups.data?.items ?? []).map((j) => (
                <option key={j.jobId} value={j.jobId}>
                  {j.name} ({t(`backup:applications.${j.application}`)})
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field>
        <Field id="restore-source" label={t('backup:restoreSource')}>
          <NativeSelect.Root disabled={!job}>
            <NativeSelect.Field
              id="restore-source"
              value={sourceId}
              onChange={(e) => {
                setSourceId(e.target.value);
                setSelected(new Map());
              }}
            >
              <option value="">{t('backup:chooseSource')}</option>
              {(job?.sources ?? []).map((s) => (
                <option key={s} value={s}>
                  {name(s)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field>
        <Field id="restore-snapshot" label={t('backup:snapshotDate')}>
          <NativeSelect.Root disabled={!job}>
            <NativeSelect.Field
              id="restore-snapshot"
              value={snapshot}
              onChange={(e) => {
                setSnapshot(e.target.value);
                setSelected(new Map());
              }}
            >
              <option value="">
                {snapshots.data?.total === 0 ? t('backup:noSnapshots') : t('backup:chooseSnapshot')}
              </option>
              {(snapshots.data?.items ?? []).map((r) =>
                r.finished ? (
                  <option key={r.reportId} value={r.finished}>
                    {formatDateTime(r.finished, lang)}
                  </option>
                ) : null,
              )}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field>
      </Stack>

      {job && sourceId && snapshot ? (
        <SnapshotBrowser
          key={`${jobId}/${sourceId}/${snapshot}`}
          tenantId={tenantId}
          job={job}
          sourceId={sourceId}
          snapshot={snapshot}
          selected={selected}
          onSelect={setSelected}
        />
      ) : (
        <Text color="fg.muted">{t('backup:restoreHint')}</Text>
      )}

      {job ? (
        <Stack gap="4" borderWidth="1px" borderRadius="md" p="4">
          <RadioGroup.Root value={effectiveTarget} onValueChange={(e) => setTarget(e.value as RestoreSpec['target'])}>
            <Text fontWeight="medium" mb="2">
              {t('backup:restoreTo')}
            </Text>
            <Stack direction={{ base: 'column', md: 'row' }} gap="4">
              {RESTORE_TARGETS.map((x) => (
                <RadioGroup.Item key={x} value={x} disabled={teams && x !== 'download'}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{t(`backup:targets.${x}`)}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </Stack>
            {teams ? (
              <Text fontSize="sm" color="fg.muted" mt="2">
                {t('backup:teamsDownloadOnly')}
              </Text>
            ) : null}
          </RadioGroup.Root>
          {effectiveTarget === 'other' ? (
            <Field id="restore-target" label={t('backup:restoreTarget')}>
              <NativeSelect.Root maxW="md">
                <NativeSelect.Field id="restore-target" value={targetId} onChange={(e) => setTargetId(e.target.value)}>
                  <option value="">{t('backup:chooseTarget')}</option>
                  {[...(names.data ?? new Map<string, string>())]
                    .filter(([id]) => id !== sourceId)
                    .sort((a, b) => a[1].localeCompare(b[1]))
                    .map(([id, label]) => (
                      <option key={id} value={id}>
                        {label}
                      </option>
                    ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field>
          ) : null}
          {effectiveTarget !== 'download' ? (
            <RadioGroup.Root value={policy} onValueChange={(e) => setPolicy(e.value as ConflictPolicy)}>
              <Text fontWeight="medium" mb="2">
                {t('backup:conflictPolicy')}
              </Text>
              <Stack direction={{ base: 'column', md: 'row' }} gap="4">
                {CONFLICT_POLICIES.map((p) => (
                  <RadioGroup.Item key={p} value={p}>
                    <RadioGroup.ItemHiddenInput />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>{t(`backup:policies.${p}`)}</RadioGroup.ItemText>
                  </RadioGroup.Item>
                ))}
              </Stack>
            </RadioGroup.Root>
          ) : null}
          <HStack justify="space-between" wrap="wrap" gap="3">
            <Text fontSize="sm" data-testid="restore-selection">
              {t('backup:selectedItems', { count: selected.size })}
            </Text>
            <Button
              colorPalette="blue"
              onClick={() => setConfirming(true)}
              {...serverAction}
              disabled={serverAction.disabled || !ready}
            >
              {t('backup:restoreButton')}
            </Button>
          </HStack>
        </Stack>
      ) : null}

      <ConfirmDialog
        open={confirming}
        title={t('backup:confirm.restoreTitle')}
        confirmLabel={t('backup:restoreButton')}
        pending={create.isPending}
        onConfirm={() => create.mutate()}
        onCancel={() => !create.isPending && setConfirming(false)}
      >
        <Box>
          <Text>
            {t('backup:confirm.restoreText', {
              count: selected.size,
              source: name(sourceId),
              date: snapshot ? formatDateTime(snapshot, lang) : '',
            })}
          </Text>
          <Text mt="2" fontWeight="medium">
            {effectiveTarget === 'other'
              ? t('backup:confirm.restoreOther', { target: name(targetId), policy: t(`backup:policies.${policy}`) })
              : effectiveTarget === 'download'
                ? t('backup:confirm.restoreDownload')
                : t('backup:confirm.restoreOriginal', { policy: t(`backup:policies.${policy}`) })}
          </Text>
        </Box>
      </ConfirmDialog>
    </Stack>
  );
}

/** Restore: a backup, a source, a snapshot date, items from its tree, and where they go. */
export function RestorePage() {
  const { t } = useTranslation();
  const { trial } = useTenant();
  return (
    <>
      <PageHeader title={t('pages:restore')} />
      <RequireTenant>{(tenantId) => <Restore tenantId={tenantId} trial={trial} />}</RequireTenant>
    </>
  );
}
