import { Badge, Button, Stack, Text } from '@chakra-ui/react';
import { ApiError, type ArchivedMailboxItemRow, type MailboxItemKind } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { FilterSelect } from '../../components/ui/filter-select';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDate, formatDateTime } from '../../components/ui/format';
import { useApi } from '../../shared/tenant';
import { useUrlFilter, useUrlListState } from '../../shared/url-state';
import { fetchMailboxItemsPage, mailboxItemsQuery } from './api/browse-queries';
import { ITEM_LISTS, itemsBrowseRequest } from './api/browse-search';
import { useMailReadFailure } from './mail-read-failure';
import { MailboxItemViewer, taskStatus } from './mailbox-item-viewer';
import { type ItemRestoreStarted, type RestorableItem, RestoreMailboxItem } from './restore-mailbox-item';
import { RestoreStartedNotice } from './restore-started-notice';

/** The route whose address keeps the list, its tab and its filters. */
const ROUTE = '/_app/_worker/archive/mailboxes_/$mailboxId';

/**
 * One item tab of a mailbox's archive (Calendar, Contacts or Tasks): what the archive protects of it,
 * its items by their latest version (paged, sorted, searched and filtered in the address, deleted ones
 * marked), exported as xlsx or csv, read with their versions in a viewer, downloaded and restored.
 */
export function MailboxItemsTab({
  tenantId,
  mailbox,
  kind,
}: {
  tenantId: string;
  mailbox: { mailboxId: string; name: string };
  kind: MailboxItemKind;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const api = useApi();
  const failure = useMailReadFailure();
  const [state, setState] = useUrlListState(ROUTE, ITEM_LISTS[kind]);
  const [deleted, setDeleted] = useUrlFilter<'deleted' | 'kept' | ''>(ROUTE, 'deleted', '');
  const request = itemsBrowseRequest(mailbox.mailboxId, kind, state, { deleted });
  const items = useQuery(mailboxItemsQuery(api, tenantId, request));
  const [open, setOpen] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<RestorableItem | null>(null);
  const [started, setStarted] = useState<ItemRestoreStarted | null>(null);

  const titleHeader = t(
    kind === 'event' ? 'mailboxItems:subject' : kind === 'contact' ? 'mailboxItems:name' : 'mailboxItems:title',
  );
  const containerHeader = t(
    kind === 'event' ? 'mailboxItems:calendar' : kind === 'contact' ? 'mailboxItems:folder' : 'mailboxItems:list',
  );
  const stateText = (r: ArchivedMailboxItemRow) =>
    r.deleted ? t('mailboxItems:deletedOn', { date: formatDateTime(r.deletedAt, lang) }) : t('mailboxItems:kept');

  const columns: Column<ArchivedMailboxItemRow>[] = [
    {
      key: 'title',
      header: titleHeader,
      sortable: true,
      cell: (r) => (
        <Stack gap="0.5" minW="0" align="start">
          <Button
            variant="plain"
            size="sm"
            h="auto"
            minH="0"
            minW="0"
            p="0"
            display="inline"
            textAlign="start"
            whiteSpace="normal"
            wordBreak="break-word"
            fontWeight="medium"
            color="fg"
            textDecoration={r.deleted ? 'line-through' : 'underline'}
            textDecorationColor="border"
            onClick={(e) => {
              e.stopPropagation();
              setOpen(r.itemId);
            }}
          >
            {r.title || t('mailboxItems:noTitle')}
          </Button>
          {r.deleted ? (
            <Badge colorPalette="red" size="sm" title={stateText(r)}>
              {t('mailboxItems:deleted')}
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    ...(kind === 'event'
      ? [
          {
            key: 'start',
            header: t('mailboxItems:start'),
            sortable: true,
            cell: (r: ArchivedMailboxItemRow) => formatDateTime(r.start, lang),
          },
          {
            key: 'organizer',
            header: t('mailboxItems:organizer'),
            hideBelow: 'md' as const,
            stack: true,
            cell: (r: ArchivedMailboxItemRow) => (
              <Text as="span" wordBreak="break-word">
                {r.organizer}
              </Text>
            ),
          },
          {
            key: 'attendees',
            header: t('mailboxItems:attendees'),
            align: 'end' as const,
            hideBelow: 'lg' as const,
            cell: (r: ArchivedMailboxItemRow) => t('mailboxItems:attendeeCount', { count: r.attendees ?? 0 }),
          },
        ]
      : []),
    ...(kind === 'contact'
      ? [
          {
            key: 'email',
            header: t('mailboxItems:email'),
            sortable: true,
            hideBelow: 'md' as const,
            stack: true,
            cell: (r: ArchivedMailboxItemRow) => (
              <Text as="span" wordBreak="break-all">
                {r.email}
              </Text>
            ),
          },
        ]
      : []),
    ...(kind === 'task'
      ? [
          {
            key: 'status',
            header: t('mailboxItems:status'),
            sortable: true,
            cell: (r: ArchivedMailboxItemRow) => taskStatus(r.status, t),
          },
          {
            key: 'due',
            header: t('mailboxItems:due'),
            sortable: true,
            hideBelow: 'md' as const,
            stack: true,
            cell: (r: ArchivedMailboxItemRow) => (r.due ? formatDate(r.due, lang) : '—'),
          },
        ]
      : []),
    {
      key: 'container',
      header: containerHeader,
      sortable: true,
      hideBelow: 'lg',
      cell: (r) => (
        <Text as="span" wordBreak="break-word">
          {r.container}
        </Text>
      ),
    },
    {
      key: 'versions',
      header: t('mailboxItems:versions'),
      sortable: true,
      align: 'end',
      hideBelow: 'md',
      cell: (r) => t('mailboxItems:versionCount', { count: r.versions }),
    },
    {
      key: 'archivedAt',
      header: t('mailboxItems:archivedAt'),
      sortable: true,
      hideBelow: 'lg',
      cell: (r) => formatDateTime(r.archivedAt, lang),
    },
  ];
  const exportColumns: ExportColumn<ArchivedMailboxItemRow>[] = [
    { header: titleHeader, value: (r) => r.title },
    { header: containerHeader, value: (r) => r.container },
    ...(kind === 'event'
      ? [
          { header: t('mailboxItems:start'), value: (r: ArchivedMailboxItemRow) => r.start ?? '' },
          { header: t('mailboxItems:end'), value: (r: ArchivedMailboxItemRow) => r.end ?? '' },
          { header: t('mailboxItems:organizer'), value: (r: ArchivedMailboxItemRow) => r.organizer ?? '' },
          { header: t('mailboxItems:attendees'), value: (r: ArchivedMailboxItemRow) => r.attendees ?? 0 },
        ]
      : []),
    ...(kind === 'contact'
      ? [{ header: t('mailboxItems:email'), value: (r: ArchivedMailboxItemRow) => r.email ?? '' }]
      : []),
    ...(kind === 'task'
      ? [
          { header: t('mailboxItems:status'), value: (r: ArchivedMailboxItemRow) => taskStatus(r.status, t) },
          { header: t('mailboxItems:due'), value: (r: ArchivedMailboxItemRow) => r.due ?? '' },
        ]
      : []),
    { header: t('mailboxItems:versions'), value: (r) => r.versions },
    { header: t('mailboxItems:state'), value: (r) => (r.deleted ? t('mailboxItems:deleted') : t('mailboxItems:kept')) },
    { header: t('mailboxItems:deleted'), value: (r) => r.deletedAt ?? '' },
    { header: t('mailboxItems:archivedAt'), value: (r) => r.archivedAt },
  ];
  const refused = items.error instanceof ApiError && items.error.status === 403;
  return (
    <Stack gap="4">
      <Text color="fg.muted" fontSize="sm" data-testid="items-protects">
        {t(`mailboxItems:protects.${kind}`)}
      </Text>
      {started ? (
        <RestoreStartedNotice
          text={t('mailboxItems:restoreStarted', { title: started.title, mailbox: started.into })}
        />
      ) : null}
      {refused ? (
        <StatusAlert status="error">
          <span data-testid="items-refused">{t('archiveBrowse:needsProxyRight')}</span>
        </StatusAlert>
      ) : (
        <DataTable
          label={t(`mailboxItems:table.${kind}`)}
          columns={columns}
          rows={items.data?.items}
          total={items.data?.total ?? 0}
          loading={items.isFetching}
          error={items.error}
          errorText={failure(items.error) ?? t('mailboxItems:loadFailed')}
          onRetry={() => void items.refetch()}
          rowKey={(r) => r.itemId}
          state={state}
          onStateChange={setState}
          emptyText={t(`mailboxItems:empty.${kind}`)}
          searchPlaceholder={t(`mailboxItems:search.${kind}`)}
          onRowClick={(r) => setOpen(r.itemId)}
          toolbar={
            <>
              <FilterSelect
                label={t('mailboxItems:stateFilter')}
                value={deleted}
                all={t('mailboxItems:anyState')}
                options={[
                  { value: 'deleted', label: t('mailboxItems:onlyDeleted') },
                  { value: 'kept', label: t('mailboxItems:onlyKept') },
                ]}
                onChange={setDeleted}
              />
              <ExportButtons
                title={`${t(`mailboxItems:export.${kind}`)} ${mailbox.name}`}
                columns={exportColumns}
                fetchPage={({ page, pageSize }) => fetchMailboxItemsPage(api, tenantId, { ...request, page, pageSize })}
              />
            </>
          }
        />
      )}
      {open ? (
        <MailboxItemViewer
          tenantId={tenantId}
          mailboxId={mailbox.mailboxId}
          kind={kind}
          itemId={open}
          onClose={() => setOpen(null)}
          onRestore={(item) => {
            setOpen(null);
            setRestoring(item);
          }}
        />
      ) : null}
      {restoring ? (
        <RestoreMailboxItem
          tenantId={tenantId}
          mailbox={mailbox}
          item={restoring}
          onClose={(result) => {
            setRestoring(null);
            if (result) setStarted(result);
          }}
        />
      ) : null}
    </Stack>
  );
}
