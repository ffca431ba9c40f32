import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Dialog,
  Field,
  HStack,
  Input,
  NativeSelect,
  Portal,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import {
  ApiError,
  type CleanupPreview,
  type CleanupRule,
  type DataManagementApplication,
  type DiscoveredSource,
  type FileNode,
} from '@compliance-portal/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FilterSelect } from '../../components/ui/filter-select';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatDateTime, formatNumber } from '../../components/ui/format';
import { listQuery, useListState } from '../../components/ui/list-state';
import { PageHeader } from '../../components/ui/page-header';
import { showToast } from '../../components/ui/toaster';
import { firstProblem, parseNumber, type Rule, rules, useValidator } from '../../components/ui/validation';
import { isNotFound } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { locationsQuery } from '../../shared/api/queries';
import { RequireTenant, useApi } from '../../shared/tenant';

/** A rule as typed: a count or a date, checked before it is used. */
interface RuleDraft {
  kind: CleanupRule['kind'];
  count: string;
  date: string;
}

/** The versions to keep: a whole number from 1 to 500. */
const COUNT_RULES: Rule<string>[] = [rules.required(), rules.wholeNumber(), rules.min(1), rules.max(500)];
/** The day before which versions go: a date. */
const DATE_RULES: Rule<string>[] = [rules.required(), rules.date()];

/** The rule, or null while what is typed is not a valid one. */
export function ruleOf(draft: RuleDraft): CleanupRule | null {
  if (draft.kind === 'keepNewest') {
    const count = parseNumber(draft.count);
    return count === undefined || firstProblem(draft.count, ...COUNT_RULES) ? null : { kind: 'keepNewest', count };
  }
  return firstProblem(draft.date, ...DATE_RULES)
    ? null
    : { kind: 'olderThan', date: new Date(`${draft.date.trim()}T00:00:00.000Z`).toISOString() };
}

function RuleEditor({ draft, onChange }: { draft: RuleDraft; onChange: (next: RuleDraft) => void }) {
  const { t } = useTranslation();
  const check = useValidator();
  const error = draft.kind === 'keepNewest' ? check(draft.count, ...COUNT_RULES) : check(draft.date, ...DATE_RULES);
  return (
    <Stack gap="2" as="fieldset" borderWidth="1px" borderRadius="md" p="3">
      <Text as="legend" fontWeight="medium" fontSize="sm" px="1">
        {t('dataManagement:rule')}
      </Text>
      <HStack gap="3" wrap="wrap" align="flex-end">
        <Field.Root width="auto">
          <Field.Label fontSize="sm">{t('dataManagement:rule')}</Field.Label>
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field
              value={draft.kind}
              onChange={(e) => onChange({ ...draft, kind: e.target.value as CleanupRule['kind'] })}
            >
              <option value="keepNewest">{t('dataManagement:keepNewest')}</option>
              <option value="olderThan">{t('dataManagement:olderThan')}</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {draft.kind === 'keepNewest' ? (
          <Field.Root width="auto" invalid={!!error}>
            <Field.Label fontSize="sm">{t('dataManagement:keepCount')}</Field.Label>
            <Input
              size="sm"
              width="24"
              type="number"
              min={1}
              max={500}
              value={draft.count}
              onChange={(e) => onChange({ ...draft, count: e.target.value })}
            />
            <Field.ErrorText>{error}</Field.ErrorText>
          </Field.Root>
        ) : (
          <Field.Root width="auto" invalid={!!error}>
            <Field.Label fontSize="sm">{t('dataManagement:olderThanDate')}</Field.Label>
            <Input
              size="sm"
              type="date"
              value={draft.date}
              onChange={(e) => onChange({ ...draft, date: e.target.value })}
            />
            <Field.ErrorText>{error}</Field.ErrorText>
          </Field.Root>
        )}
      </HStack>
      <Text fontSize="xs" color="fg.muted">
        {t('dataManagement:ruleNote')}
      </Text>
    </Stack>
  );
}

/** A file's versions, newest first, with those the rule removes marked. */
function VersionsDialog({
  tenantId,
  application,
  sourceId,
  file,
  rule,
  onClose,
}: {
  tenantId: string;
  application: DataManagementApplication;
  sourceId: string;
  file: FileNode;
  rule: CleanupRule;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const versions = useQuery({
    queryKey: ['tenant', tenantId, 'data-management', 'versions', application, sourceId, file.nodeId, rule],
    queryFn: ({ signal }) =>
      api.apollo.dataManagement.versions(
        { tenantId, body: { application, sourceId, nodeId: file.nodeId, rule } },
        { signal },
      ),
  });
  return (
    <Dialog.Root open onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('dataManagement:versionsOf', { name: file.name })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {versions.isError ? (
                <StatusAlert status="error">{t('dataManagement:failed')}</StatusAlert>
              ) : !versions.data ? (
                <Text aria-busy="true">{t('common:loading')}</Text>
              ) : (
                <Table.ScrollArea tabIndex={0}>
                  <Table.Root size="sm" aria-label={t('dataManagement:versionsOf', { name: file.name })}>
                    <Table.Header>
                      <Table.Row>
                        <Table.ColumnHeader>{t('dataManagement:columns.versions')}</Table.ColumnHeader>
                        <Table.ColumnHeader>{t('dataManagement:columns.modified')}</Table.ColumnHeader>
                        <Table.ColumnHeader textAlign="end">{t('dataManagement:columns.size')}</Table.ColumnHeader>
                        <Table.ColumnHeader />
                      </Table.Row>
                    </Table.Header>
                    <Table.Body>
                      {versions.data.map((v) => (
                        <Table.Row key={v.versionId} data-testid="version-row">
                          <Table.Cell>{v.versionId}</Table.Cell>
                          <Table.Cell>{formatDateTime(v.modified, i18n.language)}</Table.Cell>
                          <Table.Cell textAlign="end">{formatBytes(v.sizeBytes, i18n.language)}</Table.Cell>
                          <Table.Cell>
                            {v.current ? (
                              <Badge colorPalette="blue">{t('dataManagement:current')}</Badge>
                            ) : v.eligible ? (
                              <Badge colorPalette="orange">{t('dataManagement:eligibleBadge')}</Badge>
                            ) : (
                              <Badge colorPalette="gray">{t('dataManagement:kept')}</Badge>
                            )}
                          </Table.Cell>
                        </Table.Row>
                      ))}
                    </Table.Body>
                  </Table.Root>
                </Table.ScrollArea>
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function SourceList({
  tenantId,
  application,
  onChoose,
}: {
  tenantId: string;
  application: DataManagementApplication;
  onChoose: (source: DiscoveredSource) => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const locationId = locations.data?.[0]?.locationId ?? '';
  const [state, setState] = useListState({ pageSize: 10, sort: 'displayName' });
  const list = useQuery({
    queryKey: ['tenant', tenantId, 'discovery', locationId, application, listQuery(state)],
    queryFn: ({ signal }) =>
      // Said in the table, in the catalogue's words (section 8), not in the generic toast.
      api.apollo.discovery.users(
        { tenantId, locationId, query: { application, ...listQuery(state) } },
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
    enabled: !!locationId,
  });
  const columns: Column<DiscoveredSource>[] = [
    {
      key: 'displayName',
      header: t('dataManagement:columns.name'),
      cell: (s) => (
        <Button variant="plain" size="sm" px="0" onClick={() => onChoose(s)}>
          {s.displayName}
        </Button>
      ),
      sortable: true,
    },
    {
      key: application === 'sharepoint' ? 'url' : 'email',
      header: t(application === 'sharepoint' ? 'backup:columns.url' : 'backup:columns.email'),
      cell: (s) => (
        <Text truncate maxW="xs">
          {s.url ?? s.email ?? '—'}
        </Text>
      ),
      hideBelow: 'md',
    },
  ];
  return (
    <DataTable
      label={t('dataManagement:sources')}
      columns={columns}
      rows={list.data?.items}
      total={list.data?.total ?? 0}
      rowKey={(s) => s.sourceId}
      state={state}
      onStateChange={setState}
      loading={list.isFetching || locations.isLoading}
      error={list.error}
      errorText={t('dataManagement:failed')}
      onRetry={() => list.refetch()}
      emptyText={t('backup:noSources', { unit: t(`dataManagement:${application}`) })}
      searchPlaceholder={t('backup:searchSources', { unit: t(`dataManagement:${application}`) })}
    />
  );
}

function Browser({
  tenantId,
  application,
  source,
  rule,
  onBack,
}: {
  tenantId: string;
  application: DataManagementApplication;
  source: DiscoveredSource;
  rule: CleanupRule | null;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const lang = i18n.language;
  const [trail, setTrail] = useState<{ nodeId: string; name: string }[]>([
    { nodeId: 'root', name: t('dataManagement:root') },
  ]);
  const [state, setState] = useListState({ pageSize: 25 });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [file, setFile] = useState<FileNode | null>(null);
  const [preview, setPreview] = useState<CleanupPreview | null>(null);
  const cleanUpAction = useServerAction(selected.size === 0);
  const nodeId = trail.at(-1)?.nodeId ?? 'root';
  const browse = useQuery({
    queryKey: [
      'tenant',
      tenantId,
      'data-management',
      'browse',
      application,
      source.sourceId,
      nodeId,
      rule,
      state.page,
      state.pageSize,
    ],
    queryFn: ({ signal }) =>
      api.apollo.dataManagement.browse(
        {
          tenantId,
          body: {
            application,
            sourceId: source.sourceId,
            nodeId,
            rule: rule ?? { kind: 'keepNewest', count: 1 },
            page: state.page,
            pageSize: state.pageSize,
          },
        },
        // Said in the table (section 8): a folder that is not there (404) has a text of its own.
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
    enabled: rule !== null,
  });
  const open = (node: FileNode) => {
    if (node.kind === 'file') setFile(node);
    else {
      setTrail([...trail, { nodeId: node.nodeId, name: node.name }]);
      setState({ page: 1 });
    }
  };
  const paths = [...selected];
  const previewing = useMutation({
    mutationFn: () =>
      api.apollo.dataManagement.preview({
        tenantId,
        body: { application, sourceId: source.sourceId, paths, rule: rule ?? { kind: 'keepNewest', count: 1 } },
      }),
    onSuccess: setPreview,
  });
  const cleanUp = useMutation({
    mutationFn: () =>
      api.apollo.jobs.create({
        tenantId,
        body: {
          name: t('dataManagement:jobName', {
            source: source.displayName,
            date: formatDate(new Date().toISOString(), lang),
          }).slice(0, 120),
          type: 'versionCleanup',
          application,
          sources: [source.sourceId],
          paths,
          cleanupRule: rule ?? { kind: 'keepNewest', count: 1 },
          recurrence: { kind: 'afterCreation' },
        },
      }),
    onSuccess: (job) => {
      setPreview(null);
      setSelected(new Set());
      void queryClient.invalidateQueries({ queryKey: ['tenant', tenantId] });
      showToast('success', t('dataManagement:started', { name: job.name }));
    },
  });
  const failure = (error: unknown) => (error instanceof ApiError ? t(`apiErrors:${error.messageKey}`) : null);
  const columns: Column<FileNode>[] = [
    {
      key: 'name',
      header: t('dataManagement:columns.name'),
      cell: (n) => (
        <Button variant="plain" size="sm" px="0" onClick={() => open(n)} data-testid={`node-${n.name}`}>
          {n.name}
        </Button>
      ),
    },
    {
      key: 'kind',
      header: t('backup:columns.type'),
      cell: (n) => t(`dataManagement:kind.${n.kind}`),
      hideBelow: 'md',
    },
    {
      key: 'size',
      header: t('dataManagement:columns.size'),
      cell: (n) => formatBytes(n.sizeBytes, lang),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'versions',
      header: t('dataManagement:columns.versions'),
      cell: (n) => (n.versions === null ? '—' : formatNumber(n.versions, lang)),
      align: 'end',
      hideBelow: 'md',
    },
    {
      key: 'eligible',
      header: t('dataManagement:columns.eligible'),
      cell: (n) => (n.eligibleVersions === null ? '—' : formatNumber(n.eligibleVersions, lang)),
      align: 'end',
    },
    {
      key: 'reclaimable',
      header: t('dataManagement:columns.reclaimable'),
      cell: (n) => (n.reclaimableBytes === null ? '—' : formatBytes(n.reclaimableBytes, lang)),
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'modified',
      header: t('dataManagement:columns.modified'),
      cell: (n) => formatDateTime(n.modified, lang),
      hideBelow: 'lg',
    },
  ];
  return (
    <Stack gap="3">
      <HStack gap="1" wrap="wrap" as="nav" aria-label={t('dataManagement:browse')}>
        <Button size="sm" variant="ghost" onClick={onBack}>
          ‹ {t('dataManagement:sources')}
        </Button>
        <Text fontWeight="medium">{source.displayName}</Text>
        {trail.map((step, i) => (
          <HStack key={step.nodeId} gap="1">
            <Text color="fg.muted" aria-hidden="true">
              /
            </Text>
            <Button
              size="sm"
              variant={i === trail.length - 1 ? 'subtle' : 'ghost'}
              aria-current={i === trail.length - 1 ? 'location' : undefined}
              onClick={() => {
                setTrail(trail.slice(0, i + 1));
                setState({ page: 1 });
              }}
            >
              {step.name}
            </Button>
          </HStack>
        ))}
      </HStack>
      {rule === null ? null : (
        <DataTable
          label={t('dataManagement:browse')}
          columns={columns}
          rows={browse.data?.items}
          total={browse.data?.total ?? 0}
          rowKey={(n) => n.path}
          state={state}
          onStateChange={setState}
          loading={browse.isFetching}
          error={browse.isError ? browse.error : undefined}
          errorText={isNotFound(browse.error) ? t('errors:noFolder') : t('dataManagement:failed')}
          onRetry={() => browse.refetch()}
          emptyText={t('dataManagement:empty')}
          selection={{
            selected,
            onChange: setSelected,
            rowLabel: (n) => t('table:selectRow', { name: n.name }),
          }}
          toolbar={
            <HStack gap="2" wrap="wrap">
              <Text fontSize="sm" color="fg.muted" aria-live="polite" data-testid="selected-count">
                {t('dataManagement:selected', { count: selected.size })}
              </Text>
              <Button
                size="sm"
                colorPalette="blue"
                loading={previewing.isPending}
                loadingText={t('dataManagement:previewing')}
                onClick={() => previewing.mutate()}
                {...cleanUpAction}
              >
                {t('dataManagement:cleanUp')}
              </Button>
            </HStack>
          }
        />
      )}
      {previewing.isError ? (
        <StatusAlert status="error">{failure(previewing.error) ?? t('dataManagement:failed')}</StatusAlert>
      ) : null}
      {preview && preview.eligibleVersions === 0 ? (
        <Alert.Root status="info" data-testid="nothing-to-remove">
          <Alert.Indicator />
          <Alert.Title>{t('dataManagement:nothingToRemove')}</Alert.Title>
        </Alert.Root>
      ) : null}
      <ConfirmDialog
        open={!!preview && preview.eligibleVersions > 0}
        title={t('dataManagement:confirmTitle')}
        confirmLabel={t('dataManagement:confirm')}
        destructive
        pending={cleanUp.isPending}
        onConfirm={() => cleanUp.mutate()}
        onCancel={() => setPreview(null)}
      >
        <Stack gap="2">
          <Text data-testid="cleanup-confirm-text">
            {preview
              ? t('dataManagement:confirmText', {
                  count: preview.eligibleVersions,
                  versions: formatNumber(preview.eligibleVersions, lang),
                  files: formatNumber(preview.files, lang),
                  size: formatBytes(preview.reclaimableBytes, lang),
                  saving: new Intl.NumberFormat(lang, { style: 'currency', currency: preview.currency }).format(
                    preview.monthlySaving,
                  ),
                })
              : ''}
          </Text>
          {cleanUp.isError ? (
            <StatusAlert status="error">{failure(cleanUp.error) ?? t('apiErrors:generic')}</StatusAlert>
          ) : null}
        </Stack>
      </ConfirmDialog>
      {file && rule ? (
        <VersionsDialog
          tenantId={tenantId}
          application={application}
          sourceId={source.sourceId}
          file={file}
          rule={rule}
          onClose={() => setFile(null)}
        />
      ) : null}
      <Text fontSize="sm">
        <Link to="/compliance/monitoring">{t('pages:complianceMonitoring')}</Link>
      </Text>
    </Stack>
  );
}

/** The file manager: sites and OneDrives, their files with versions under a rule, clean-up of a selection. */
export function FileManagerPage() {
  const { t } = useTranslation();
  const [application, setApplication] = useState<DataManagementApplication>('sharepoint');
  const [source, setSource] = useState<DiscoveredSource | null>(null);
  const [draft, setDraft] = useState<RuleDraft>({ kind: 'keepNewest', count: '5', date: '' });
  const rule = ruleOf(draft);
  return (
    <>
      <PageHeader title={t('pages:fileManager')} description={t('dataManagement:chooseSource')} />
      <RequireTenant>
        {(tenantId) => (
          <Stack gap="4">
            <HStack gap="3" wrap="wrap" align="flex-end">
              <FilterSelect
                label={t('backup:columns.application')}
                value={application}
                options={[
                  { value: 'sharepoint', label: t('dataManagement:sharepoint') },
                  { value: 'onedrive', label: t('dataManagement:onedrive') },
                ]}
                onChange={(v) => {
                  if (v) setApplication(v);
                  setSource(null);
                }}
              />
            </HStack>
            <RuleEditor draft={draft} onChange={setDraft} />
            {source ? (
              <Browser
                key={`${application}:${source.sourceId}`}
                tenantId={tenantId}
                application={application}
                source={source}
                rule={rule}
                onBack={() => setSource(null)}
              />
            ) : (
              <SourceList tenantId={tenantId} application={application} onChoose={setSource} />
            )}
          </Stack>
        )}
      </RequireTenant>
    </>
  );
}
