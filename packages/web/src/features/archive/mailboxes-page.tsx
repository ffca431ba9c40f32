import { Badge, Button, CloseButton, chakra, Drawer, HStack, Portal, Stack, Table, Text } from '@chakra-ui/react';
import { ApiError, type Mailbox } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDate, formatDateTime, formatNumber } from '../../components/ui/format';
import { type ListState, listQuery } from '../../components/ui/list-state';
import { PageHeader } from '../../components/ui/page-header';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { isNotFound, messageKeyOf } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useWorker } from '../../session/use-worker';
import { useApi } from '../../shared/tenant';
import { type ListSearch, useUrlListState } from '../../shared/url-state';
import { useMailboxArchiveDownload, useMailboxesCsvDownload } from './api/downloads';
import { mailboxesQuery, mailboxMetaQuery } from './api/queries';

/** The mailbox list's order when the address says none: by name. */
const MAILBOXES_LIST = { sort: 'name' } as const;

/** The mailbox list as the address describes it (what the page and its route loader both read). */
export function mailboxesListState(search: ListSearch): ListState {
  return { page: 1, pageSize: 25, ...MAILBOXES_LIST, ...search };
}

/** A mailbox's items under legal hold, as a badge; nothing while none is held. */
function HeldBadge({ held }: { held: number }) {
  const { t } = useTranslation();
  if (held === 0) return null;
  return (
    <Badge colorPalette="orange" variant="subtle" data-testid="held-badge">
      {t('archive:heldItems', { count: held })}
    </Badge>
  );
}

/** Why a download failed, in the reader's words: a 403 is the proxy right the mailbox's mail needs. */
function useDownloadFailure() {
  const { t } = useTranslation();
  return (error: unknown) =>
    !error
      ? null
      : error instanceof ApiError && error.status === 403
        ? t('archive:needsProxyRight')
        : t(`apiErrors:${messageKeyOf(error)}`);
}

function MailboxDetail({ workerIp, mailbox, onClose }: { workerIp: string; mailbox: Mailbox; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const serverAction = useServerAction();
  const meta = useQuery(mailboxMetaQuery(api, workerIp, mailbox.mailboxId));
  const metaFailure = !meta.error
    ? null
    : isNotFound(meta.error)
      ? t('errors:exchangeJobNotFound')
      : t(`apiErrors:${messageKeyOf(meta.error)}`);
  const failure = useDownloadFailure();
  const download = useMailboxArchiveDownload(api, workerIp, mailbox.mailboxId);
  const downloadFailure = failure(download.error);
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'md' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{mailbox.name}</Drawer.Title>
              <HeldBadge held={mailbox.held} />
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                <Text fontSize="sm" color="fg.muted">
                  {mailbox.email} ·{' '}
                  {t('archive:range', {
                    from: formatDate(meta.data?.oldest, i18n.language),
                    to: formatDate(meta.data?.newest, i18n.language),
                  })}
                </Text>
                {metaFailure ? (
                  <StatusAlert status="error">
                    <span data-testid="mailbox-meta-failure">{metaFailure}</span>
                  </StatusAlert>
                ) : null}
                <Table.Root size="sm" aria-label={t('archive:folders')}>
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>{t('archive:folder')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('figures:itemsProtected.short')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('figures:storedBytes.short')}</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {(meta.data?.folders ?? []).map((f) => (
                      <Table.Row key={f.path}>
                        <Table.Cell wordBreak="break-word">
                          <Link
                            to="/archive/mailboxes/$mailboxId"
                            params={{ mailboxId: mailbox.mailboxId }}
                            search={{ folder: f.path }}
                            aria-label={t('archiveBrowse:browseFolder', { folder: f.path })}
                          >
                            <chakra.span textDecoration="underline">{f.path}</chakra.span>
                          </Link>
                        </Table.Cell>
                        <Table.Cell textAlign="end">{formatNumber(f.items, i18n.language)}</Table.Cell>
                        <Table.Cell textAlign="end">{formatBytes(f.sizeBytes, i18n.language)}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
                <Button asChild alignSelf="flex-start" colorPalette="blue">
                  <Link to="/archive/mailboxes/$mailboxId" params={{ mailboxId: mailbox.mailboxId }}>
                    {t('archiveBrowse:browse')}
                  </Link>
                </Button>
                <Button
                  alignSelf="flex-start"
                  variant="outline"
                  loading={download.isPending}
                  onClick={() => download.mutate()}
                  {...serverAction}
                >
                  {t('archive:downloadMailbox')}
                </Button>
                {downloadFailure ? <StatusAlert status="error">{downloadFailure}</StatusAlert> : null}
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

/**
 * Archived mailboxes: name (and the items a legal hold keeps), email, primary or Exchange Online
 * archive, items, size, last archived.
 */
export function MailboxesPage() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const worker = useWorker();
  const serverAction = useServerAction();
  const workerIp = worker?.workerIp ?? '';
  const indexIp = worker?.indexIp ?? '';
  const [state, setState] = useUrlListState('/_app/_worker/archive/mailboxes', MAILBOXES_LIST);
  const [open, setOpen] = useState<Mailbox | null>(null);
  const list = useQuery(mailboxesQuery(api, workerIp, indexIp, listQuery(state)));
  const csv = useMailboxesCsvDownload(api, workerIp, indexIp);
  const lang = i18n.language;
  const columns: Column<Mailbox>[] = [
    {
      key: 'name',
      header: t('backup:columns.name'),
      // The hold is said beside the name: it stays in sight on the narrowest screen.
      cell: (m) => (
        <HStack gap="2" wrap="wrap">
          {/* A button, so that the mailbox opens by keyboard too (the row answers the mouse). */}
          <Button
            variant="plain"
            size="sm"
            h="auto"
            minH="0"
            p="0"
            fontWeight="normal"
            color="fg"
            textAlign="start"
            whiteSpace="normal"
            onClick={(e) => {
              e.stopPropagation();
              setOpen(m);
            }}
          >
            <span>{m.name}</span>
          </Button>
          <HeldBadge held={m.held} />
        </HStack>
      ),
      sortable: true,
    },
    { key: 'email', header: t('backup:columns.email'), cell: (m) => m.email, sortable: true, hideBelow: 'md' },
    { key: 'kind', header: t('archive:kind'), cell: (m) => t(`archive:kinds.${m.kind}`), hideBelow: 'lg' },
    {
      key: 'items',
      header: t('figures:itemsProtected.short'),
      cell: (m) => formatNumber(m.items, lang),
      sortable: true,
      align: 'end',
      hideBelow: 'sm',
      stack: true,
    },
    {
      key: 'sizeBytes',
      header: t('figures:storedBytes.short'),
      cell: (m) => formatBytes(m.sizeBytes, lang),
      sortable: true,
      align: 'end',
    },
    {
      key: 'lastArchived',
      header: t('archive:lastArchived'),
      cell: (m) => formatDateTime(m.lastArchived, lang),
      sortable: true,
      hideBelow: 'md',
      stack: true,
    },
  ];
  return (
    <>
      <PageHeader title={t('pages:mailboxes')} help="emailArchive.a6" />
      <QueryDataTable
        query={list}
        label={t('pages:mailboxes')}
        columns={columns}
        rowKey={(m) => m.mailboxId}
        state={state}
        onStateChange={setState}
        emptyText={t('archive:noMailboxes')}
        searchPlaceholder={t('archive:searchMailboxes')}
        onRowClick={setOpen}
        toolbar={
          <Button size="sm" variant="outline" loading={csv.isPending} onClick={() => csv.mutate()} {...serverAction}>
            {t('archive:downloadCsv')}
          </Button>
        }
      />
      {open ? <MailboxDetail workerIp={workerIp} mailbox={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
