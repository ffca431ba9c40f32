import {
  Alert,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  chakra,
  Drawer,
  Field,
  HStack,
  Input,
  NativeSelect,
  Portal,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { ApiError, type EdiscoveryCase, type EdiscoveryHit, type EdiscoverySearch } from '@compliance-portal/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../components/ui/data-table';
import { FilterSelect } from '../../components/ui/filter-select';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { formatBytes, formatDateTime } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { PageHeader } from '../../components/ui/page-header';
import { saveBlob } from '../../components/ui/save-blob';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { isNotFound, messageKeyOf } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { locationsQuery, sourceNamesQuery } from '../../shared/api/queries';
import { RequireTenant, useApi, useTenant } from '../../shared/tenant';
import { Highlighted } from './highlight';

type Kind = 'mail' | 'teams';

/** Why reading or restoring mail failed, in the reader's words: a 403 is the proxy right it needs. */
function useMailFailure() {
  const { t } = useTranslation();
  return (error: unknown) =>
    !error
      ? null
      : error instanceof ApiError && error.status === 403
        ? t('ediscovery:needsProxyRight')
        : t(`apiErrors:${messageKeyOf(error)}`);
}

function Preview({ tenantId, hit, onClose }: { tenantId: string; hit: EdiscoveryHit; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const serverAction = useServerAction();
  const itemId = hit.itemId;
  const failure = useMailFailure();
  // Refusals are shown in the drawer, in words: a toast would only say "Access denied".
  const download = useMutation({
    mutationFn: async () => {
      const file = await api.legacy.email.fullRestoreDownload(
        { body: { workerIp, mailboxId: hit.source, messageIds: [hit.itemId], format: 'eml' } },
        { disableToast: true },
      );
      saveBlob(file.blob, file.fileName ?? `${hit.itemId}.eml`);
    },
  });
  const item = useQuery({
    queryKey: ['tenant', tenantId, 'ediscovery', 'item', itemId],
    queryFn: ({ signal }) => api.apollo.ediscovery.preview({ tenantId, itemId }, { signal, disableToast: true }),
  });
  const downloadFailure = failure(download.error);
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'lg' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{item.data?.subject || t('ediscovery:noSubject')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {item.data ? (
                <Stack gap="3">
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:from')}</strong> {item.data.sender}
                  </Text>
                  {item.data.recipients ? (
                    <Text fontSize="sm">
                      <strong>{t('ediscovery:to')}</strong> {item.data.recipients}
                    </Text>
                  ) : null}
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:sent')}</strong> {formatDateTime(item.data.sentAt, i18n.language)}
                  </Text>
                  <Text whiteSpace="pre-wrap" borderTopWidth="1px" pt="3" data-testid="preview-body">
                    {item.data.body}
                  </Text>
                  {hit.kind === 'mail' ? (
                    <Button
                      alignSelf="flex-start"
                      variant="outline"
                      size="sm"
                      loading={download.isPending}
                      onClick={() => download.mutate()}
                      {...serverAction}
                    >
                      {t('ediscovery:downloadEml')}
                    </Button>
                  ) : null}
                  {downloadFailure ? <StatusAlert status="error">{downloadFailure}</StatusAlert> : null}
                </Stack>
              ) : item.isError ? (
                <StatusAlert status="error">
                  {item.error instanceof ApiError && item.error.status === 403
                    ? t('ediscovery:needsProxyRight')
                    : t('ediscovery:previewFailed')}
                </StatusAlert>
              ) : (
                <Text>{t('common:loading')}</Text>
              )}
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

/** Puts the chosen mails back, as archived, into a folder of their mailbox or of another one. */
function RestoreMail({
  tenantId,
  hits,
  onClose,
}: {
  tenantId: string;
  hits: EdiscoveryHit[];
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const locations = useQuery(locationsQuery(api, tenantId));
  const names = useQuery(sourceNamesQuery(api, tenantId, locations.data?.[0]?.locationId ?? '', 'exchange'));
  const [target, setTarget] = useState('');
  const [folder, setFolder] = useState('Restored');
  const failure = useMailFailure();
  const restore = useMutation({
    mutationFn: async () => {
      const bySource = new Map<string, string[]>();
      for (const h of hits) bySource.set(h.source, [...(bySource.get(h.source) ?? []), h.itemId]);
      for (const [mailboxId, messageIds] of bySource)
        await api.legacy.email.restore(
          {
            body: {
              workerIp,
              mailboxId,
              messageIds,
              ...(target ? { targetMailbox: target } : {}),
              ...(folder.trim() ? { targetFolder: folder.trim() } : {}),
            },
          },
          { disableToast: true },
        );
    },
    onSuccess: () => {
      showToast('success', t('ediscovery:restoreStarted', { count: hits.length }));
      onClose(true);
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('ediscovery:restoreTitle', { count: hits.length })}
      confirmLabel={t('ediscovery:restore')}
      pending={restore.isPending}
      onConfirm={() => restore.mutate()}
      onCancel={() => onClose(false)}
    >
      <Stack gap="3">
        <Stack gap="1">
          <chakra.label htmlFor="restore-mail-target" fontSize="sm" fontWeight="medium">
            {t('ediscovery:restoreInto')}
          </chakra.label>
          <NativeSelect.Root>
            <NativeSelect.Field id="restore-mail-target" value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">{t('ediscovery:originalMailbox')}</option>
              {[...(names.data ?? new Map<string, string>())].map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
        <TextField
          label={t('ediscovery:restoreFolder')}
          value={folder}
          maxLength={400}
          onChange={(e) => setFolder(e.target.value)}
          error={null}
          showError={false}
        />
        {restore.error ? (
          <StatusAlert status="error">
            {/* Section 8: the mails' archive job is gone (404). */}
            {isNotFound(restore.error) ? t('errors:exchangeJobNotFound') : failure(restore.error)}
          </StatusAlert>
        ) : null}
      </Stack>
    </ConfirmDialog>
  );
}

function Cases({ tenantId, onOpen }: { tenantId: string; onOpen: (c: EdiscoveryCase) => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<EdiscoveryCase | null>(null);
  const serverAction = useServerAction();
  const cases = useQuery({
    queryKey: ['tenant', tenantId, 'ediscovery', 'cases'],
    queryFn: ({ signal }) => api.apollo.ediscovery.cases({ tenantId }, { signal }),
  });
  const exportCase = useMutation({
    mutationFn: async (c: EdiscoveryCase) => {
      const file = await api.apollo.ediscovery.exportCase({ tenantId, caseId: c.caseId });
      saveBlob(file.blob, file.fileName ?? `case-${c.name}.zip`);
    },
  });
  const remove = useMutation({
    mutationFn: (c: EdiscoveryCase) => api.apollo.ediscovery.deleteCase({ tenantId, caseId: c.caseId }),
    onSuccess: () => {
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: ['tenant', tenantId, 'ediscovery', 'cases'] });
    },
  });
  if (!cases.data?.length) return null;
  return (
    <Stack gap="2">
      <Text fontWeight="semibold">{t('ediscovery:cases')}</Text>
      <Table.ScrollArea
        borderWidth="1px"
        borderRadius="md"
        tabIndex={0}
        role="region"
        aria-label={t('ediscovery:cases')}
      >
        <Table.Root size="sm" aria-label={t('ediscovery:cases')}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('ediscovery:caseName')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('ediscovery:query')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('ediscovery:hitsWhenSaved')}</Table.ColumnHeader>
              <Table.ColumnHeader hideBelow="md">{t('ediscovery:saved')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('backup:columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {cases.data.map((c) => (
              <Table.Row key={c.caseId}>
                <Table.Cell>{c.name}</Table.Cell>
                <Table.Cell>
                  <chakra.code fontSize="xs">{c.search.query || '*'}</chakra.code>
                </Table.Cell>
                <Table.Cell textAlign="end">{c.hits}</Table.Cell>
                <Table.Cell hideBelow="md">
                  {formatDateTime(c.createdAt, i18n.language)} · {c.createdBy}
                </Table.Cell>
                <Table.Cell>
                  <HStack gap="1">
                    <Button size="xs" variant="outline" onClick={() => onOpen(c)}>
                      {t('ediscovery:open')}
                    </Button>
                    <Button
                      size="xs"
                      variant="outline"
                      loading={exportCase.isPending && exportCase.variables?.caseId === c.caseId}
                      onClick={() => exportCase.mutate(c)}
                      {...serverAction}
                    >
                      {t('ediscovery:export')}
                    </Button>
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      onClick={() => setRemoving(c)}
                      {...serverAction}
                    >
                      {t('backup:remove')}
                    </Button>
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <ConfirmDialog
        open={!!removing}
        title={t('ediscovery:removeTitle', { name: removing?.name ?? '' })}
        confirmLabel={t('backup:remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      >
        {t('ediscovery:removeText')}
      </ConfirmDialog>
    </Stack>
  );
}

function Search({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState('');
  const [kinds, setKinds] = useState<Kind[]>(['mail', 'teams']);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [mailbox, setMailbox] = useState('');
  const [team, setTeam] = useState('');
  const locations = useQuery(locationsQuery(api, tenantId));
  const locationId = locations.data?.[0]?.locationId ?? '';
  const mailboxNames = useQuery(sourceNamesQuery(api, tenantId, locationId, 'exchange'));
  const teamNames = useQuery(sourceNamesQuery(api, tenantId, locationId, 'teams'));
  const [search, setSearch] = useState<EdiscoverySearch | null>(null);
  const [state, setState] = useListState({ pageSize: 25 });
  const [previewing, setPreviewing] = useState<EdiscoveryHit | null>(null);
  const [caseName, setCaseName] = useState('');
  const [saving, setSaving] = useState(false);
  const [caseTouched, setCaseTouched] = useState(false);
  const [chosen, setChosen] = useState(new Map<string, EdiscoveryHit>());
  const [restoring, setRestoring] = useState(false);
  const serverAction = useServerAction();
  const check = useValidator();
  const fromError = check(from, rules.date());
  // "To" before "From" is refused on "To": no search is sent with it, the last results stay.
  const toError = check(to, rules.date(), rules.notBefore(from));
  const caseNameError = check(caseName, rules.required(), rules.maxLength(120));

  const criteria = (): EdiscoverySearch => ({
    query: draft.trim(),
    kinds,
    ...(mailbox ? { mailboxes: [mailbox] } : {}),
    ...(team ? { teams: [team] } : {}),
    ...(from ? { from: new Date(`${from}T00:00:00`).toISOString() } : {}),
    ...(to ? { to: new Date(`${to}T00:00:00`).toISOString() } : {}),
  });
  const results = useQuery({
    queryKey: ['tenant', tenantId, 'ediscovery', 'search', search, state.page, state.pageSize],
    queryFn: ({ signal }) =>
      api.apollo.ediscovery.search(
        { tenantId, body: { ...(search as EdiscoverySearch), page: state.page, pageSize: state.pageSize } },
        { signal },
      ),
    enabled: !!search,
    placeholderData: keepPreviousData,
  });
  const save = useMutation({
    mutationFn: () =>
      api.apollo.ediscovery.createCase({ tenantId, body: { name: caseName.trim(), search: search ?? criteria() } }),
    onSuccess: (c) => {
      setSaving(false);
      setCaseName('');
      setCaseTouched(false);
      showToast('success', t('ediscovery:caseSaved', { name: c.name }));
      void queryClient.invalidateQueries({ queryKey: ['tenant', tenantId, 'ediscovery', 'cases'] });
    },
  });
  const columns: Column<EdiscoveryHit>[] = [
    {
      key: 'subject',
      header: t('ediscovery:item'),
      cell: (h) => (
        <Stack gap="0.5" maxW="2xl">
          <Button
            variant="plain"
            size="sm"
            h="auto"
            px="0"
            justifyContent="flex-start"
            onClick={() => setPreviewing(h)}
          >
            <Text truncate fontWeight="medium">
              {h.subject || t('ediscovery:noSubject')}
            </Text>
          </Button>
          <Text fontSize="xs" color="fg.muted" lineClamp={2} data-testid="snippet">
            <Highlighted snippet={h.snippet} />
          </Text>
        </Stack>
      ),
    },
    {
      key: 'kind',
      header: t('ediscovery:kind'),
      cell: (h) => (
        <Badge colorPalette={h.kind === 'mail' ? 'blue' : 'purple'}>
          {t(h.chat ? 'ediscovery:chat' : `ediscovery:kinds.${h.kind}`)}
        </Badge>
      ),
      hideBelow: 'sm',
    },
    { key: 'sender', header: t('ediscovery:from'), cell: (h) => h.sender, hideBelow: 'md' },
    {
      key: 'source',
      header: t('ediscovery:where'),
      cell: (h) => (h.container ? `${h.sourceName} · ${h.container}` : h.sourceName),
      hideBelow: 'lg',
    },
    {
      key: 'sentAt',
      header: t('ediscovery:sent'),
      cell: (h) => formatDateTime(h.sentAt, i18n.language),
      hideBelow: 'md',
    },
    {
      key: 'size',
      header: t('backup:columns.size'),
      cell: (h) => formatBytes(h.sizeBytes, i18n.language),
      align: 'end',
      hideBelow: 'lg',
    },
  ];
  const toggle = (k: Kind, on: boolean) =>
    setKinds((current) => (on ? [...new Set([...current, k])] : current.filter((x) => x !== k)));

  return (
    <Stack gap="5">
      <chakra.form
        // The form's own messages, translated, rather than the browser's.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (fromError || toError) return;
          setSearch(criteria());
          setState({ page: 1 });
        }}
      >
        <Stack gap="3">
          <HStack gap="2" align="flex-end">
            <Stack gap="1" flex="1">
              <chakra.label htmlFor="ediscovery-query" fontSize="sm" fontWeight="medium">
                {t('ediscovery:query')}
              </chakra.label>
              <Input
                id="ediscovery-query"
                type="search"
                value={draft}
                maxLength={1000}
                placeholder={t('ediscovery:placeholder')}
                onChange={(e) => setDraft(e.target.value)}
              />
            </Stack>
            <Button
              type="submit"
              colorPalette="blue"
              loading={results.isFetching}
              {...serverAction}
              disabled={serverAction.disabled || kinds.length === 0}
            >
              {t('ediscovery:search')}
            </Button>
          </HStack>
          <Text fontSize="xs" color="fg.muted">
            {t('ediscovery:syntax')}
          </Text>
          <Stack direction={{ base: 'column', md: 'row' }} gap="4" align={{ md: 'center' }} flexWrap="wrap">
            {(['mail', 'teams'] as const).map((k) => (
              <Checkbox.Root key={k} checked={kinds.includes(k)} onCheckedChange={(e) => toggle(k, e.checked === true)}>
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{t(`ediscovery:kinds.${k}`)}</Checkbox.Label>
              </Checkbox.Root>
            ))}
            <FilterSelect
              label={t('ediscovery:mailbox')}
              value={mailbox}
              all={t('ediscovery:allMailboxes')}
              options={[...(mailboxNames.data ?? new Map<string, string>())].map(([value, label]) => ({
                value,
                label,
              }))}
              onChange={setMailbox}
            />
            <FilterSelect
              label={t('ediscovery:team')}
              value={team}
              all={t('ediscovery:allTeams')}
              options={[...(teamNames.data ?? new Map<string, string>())].map(([value, label]) => ({ value, label }))}
              onChange={setTeam}
            />
            <HStack gap="2" flexWrap="wrap" align="flex-start">
              <Field.Root width="auto" invalid={!!fromError}>
                <Field.Label fontSize="sm" fontWeight="normal">
                  {t('ediscovery:dateFrom')}
                </Field.Label>
                <Input type="date" size="sm" w="auto" value={from} onChange={(e) => setFrom(e.target.value)} />
                <Field.ErrorText>{fromError}</Field.ErrorText>
              </Field.Root>
              <Field.Root width="auto" invalid={!!toError}>
                <Field.Label fontSize="sm" fontWeight="normal">
                  {t('ediscovery:dateTo')}
                </Field.Label>
                <Input type="date" size="sm" w="auto" value={to} onChange={(e) => setTo(e.target.value)} />
                <Field.ErrorText>{toError}</Field.ErrorText>
              </Field.Root>
            </HStack>
          </Stack>
        </Stack>
      </chakra.form>

      {results.data && results.data.searchedMailboxes === 0 && search?.kinds?.includes('mail') ? (
        <Alert.Root status="info" data-testid="no-mailboxes">
          <Alert.Indicator />
          <Alert.Title>{t('ediscovery:noMailboxes')}</Alert.Title>
        </Alert.Root>
      ) : null}

      {search ? (
        <DataTable
          label={t('ediscovery:results')}
          columns={columns}
          rows={results.data?.items}
          total={results.data?.total ?? 0}
          rowKey={(h) => h.itemId}
          state={state}
          onStateChange={setState}
          loading={results.isFetching}
          error={results.error}
          onRetry={() => results.refetch()}
          emptyText={t('ediscovery:noHits')}
          selection={{
            selected: new Set(chosen.keys()),
            rowLabel: (h) => t('table:selectRow', { name: h.subject || h.itemId }),
            onChange: (next) => {
              const map = new Map([...chosen].filter(([id]) => next.has(id)));
              for (const h of results.data?.items ?? []) if (next.has(h.itemId)) map.set(h.itemId, h);
              setChosen(map);
            },
          }}
          toolbar={
            <>
              <Text fontSize="sm" color="fg.muted" data-testid="searched-mailboxes">
                {t('ediscovery:searchedMailboxes', { count: results.data?.searchedMailboxes ?? 0 })}
              </Text>
              <Button
                size="sm"
                variant="outline"
                onClick={() => setSaving(true)}
                {...serverAction}
                disabled={serverAction.disabled || !results.data}
              >
                {t('ediscovery:saveCase')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => setRestoring(true)}
                {...serverAction}
                disabled={serverAction.disabled || ![...chosen.values()].some((h) => h.kind === 'mail')}
              >
                {t('ediscovery:restore')}
              </Button>
            </>
          }
        />
      ) : (
        <Text color="fg.muted">{t('ediscovery:intro')}</Text>
      )}

      <Cases
        tenantId={tenantId}
        onOpen={(c) => {
          setDraft(c.search.query);
          setKinds((c.search.kinds as Kind[] | undefined) ?? ['mail', 'teams']);
          setSearch(c.search);
          setState({ page: 1 });
        }}
      />

      {restoring ? (
        <RestoreMail
          tenantId={tenantId}
          hits={[...chosen.values()].filter((h) => h.kind === 'mail')}
          onClose={(done) => {
            setRestoring(false);
            if (done) setChosen(new Map());
          }}
        />
      ) : null}
      {previewing ? <Preview tenantId={tenantId} hit={previewing} onClose={() => setPreviewing(null)} /> : null}
      <ConfirmDialog
        open={saving}
        title={t('ediscovery:saveCase')}
        confirmLabel={t('common:save')}
        pending={save.isPending}
        onConfirm={() => {
          setCaseTouched(true);
          if (!caseNameError) save.mutate();
        }}
        onCancel={() => {
          setSaving(false);
          setCaseTouched(false);
        }}
      >
        <TextField
          label={t('ediscovery:caseName')}
          value={caseName}
          maxLength={120}
          onChange={(e) => setCaseName(e.target.value)}
          error={caseNameError}
          showError={caseTouched || caseName.length > 0}
        />
      </ConfirmDialog>
    </Stack>
  );
}

/** eDiscovery: search archived mail and Teams messages, preview, cases and their export. */
export function EdiscoveryPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:ediscovery')} description={t('ediscovery:description')} />
      <RequireTenant>{(tenantId) => <Search tenantId={tenantId} />}</RequireTenant>
    </>
  );
}
