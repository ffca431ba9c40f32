import { Box, Button, chakra, HStack, Input, Stack, Tabs, Text } from '@chakra-ui/react';
import { ApiError, type ArchivedMail, type RestoreStarted } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { FilterSelect } from '../../components/ui/filter-select';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { useServerAction } from '../../offline/online';
import { useWorker } from '../../session/use-worker';
import { RequireTenant, useApi } from '../../shared/tenant';
import { useUrlFilter, useUrlListState } from '../../shared/url-state';
import { fetchMailPage, mailItemsQuery } from './api/browse-queries';
import {
  type AttachmentsFilter,
  KIND_OF_TAB,
  MAIL_LIST,
  MAILBOX_TABS,
  type MailboxTab,
  mailBrowseRequest,
} from './api/browse-search';
import { mailboxesQuery, mailboxMetaQuery } from './api/queries';
import { ArchivedMailViewer } from './archived-mail-viewer';
import { useMailReadFailure } from './mail-read-failure';
import { MailboxItemsTab } from './mailbox-items-tab';
import { RestoreArchivedMail } from './restore-archived-mail';
import { RestoreStartedNotice } from './restore-started-notice';

/** The route whose address keeps the mail list and its filters. */
const ROUTE = '/_app/_worker/archive/mailboxes_/$mailboxId';

/** A paper clip: the mail has attachments (said to screen readers in words). */
function AttachmentMark() {
  const { t } = useTranslation();
  return (
    <chakra.svg
      viewBox="0 0 24 24"
      width="4"
      height="4"
      flexShrink={0}
      role="img"
      aria-label={t('archiveBrowse:hasAttachment')}
    >
      <title>{t('archiveBrowse:hasAttachment')}</title>
      <path
        d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </chakra.svg>
  );
}

/** The mailbox's name, from the mailbox list (the archive knows it from discovery); its address meanwhile. */
function useMailboxName(mailboxId: string): string {
  const api = useApi();
  const worker = useWorker();
  const list = useQuery(
    mailboxesQuery(api, worker?.workerIp ?? '', worker?.indexIp ?? '', { page: 1, pageSize: 25, search: mailboxId }),
  );
  return list.data?.items.find((m) => m.mailboxId === mailboxId)?.name ?? '';
}

function DateFilter({ label, value, onChange }: { label: string; value: string; onChange: (day: string) => void }) {
  const id = `mail-filter-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <HStack gap="2">
      <chakra.label htmlFor={id} fontSize="sm" whiteSpace="nowrap">
        {label}
      </chakra.label>
      <Input id={id} type="date" size="sm" width="auto" value={value} onChange={(e) => onChange(e.target.value)} />
    </HStack>
  );
}

/** The mailbox's archived mail by folder, with its filters, export, viewer and restore. */
function MailTab({ tenantId, mailboxId, shownName }: { tenantId: string; mailboxId: string; shownName: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const worker = useWorker();
  const serverAction = useServerAction();
  const lang = i18n.language;
  const [state, setState] = useUrlListState(ROUTE, MAIL_LIST);
  const [folder, setFolder] = useUrlFilter<string>(ROUTE, 'folder', '');
  const [from, setFrom] = useUrlFilter<string>(ROUTE, 'from', '');
  const [to, setTo] = useUrlFilter<string>(ROUTE, 'to', '');
  const [attachments, setAttachments] = useUrlFilter<AttachmentsFilter | ''>(ROUTE, 'attachments', '');
  const request = mailBrowseRequest(mailboxId, state, { folder, from, to, attachments });
  const mails = useQuery(mailItemsQuery(api, tenantId, request));
  const meta = useQuery(mailboxMetaQuery(api, worker?.workerIp ?? '', mailboxId));
  const failure = useMailReadFailure();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<{ itemId: string; subject: string }[] | null>(null);
  const [started, setStarted] = useState<(RestoreStarted & { into: string; count: number }) | null>(null);
  // The subjects of every page seen: a selection may span pages.
  const subjects = useRef(new Map<string, string>()).current;
  for (const m of mails.data?.items ?? []) subjects.set(m.itemId, m.subject);
  const chosen = [...selected].map((id) => ({ itemId: id, subject: subjects.get(id) ?? '' }));

  const columns: Column<ArchivedMail>[] = [
    {
      key: 'subject',
      header: t('archiveBrowse:subject'),
      sortable: true,
      // On a phone the sender goes under the subject (its own column is hidden there): side by side,
      // two long unbroken texts ran into each other.
      cell: (m) => (
        <Stack gap="0.5" minW="0">
          <HStack gap="1" align="start" minW="0">
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
              textDecoration="underline"
              textDecorationColor="border"
              onClick={(e) => {
                e.stopPropagation();
                setOpen(m.itemId);
              }}
            >
              {m.subject || t('archiveBrowse:noSubject')}
            </Button>
            {m.hasAttachments ? <AttachmentMark /> : null}
          </HStack>
        </Stack>
      ),
    },
    {
      key: 'sender',
      header: t('archiveBrowse:from'),
      sortable: true,
      hideBelow: 'md',
      stack: true,
      cell: (m) => (
        <Text as="span" wordBreak="break-all">
          {m.sender}
        </Text>
      ),
    },
    { key: 'sentAt', header: t('archiveBrowse:date'), sortable: true, cell: (m) => formatDateTime(m.sentAt, lang) },
    {
      key: 'sizeBytes',
      header: t('archiveBrowse:size'),
      sortable: true,
      align: 'end',
      hideBelow: 'md',
      cell: (m) => formatBytes(m.sizeBytes, lang),
    },
    ...(folder
      ? []
      : [
          {
            key: 'folder',
            header: t('archiveBrowse:folder'),
            hideBelow: 'lg' as const,
            cell: (m: ArchivedMail) => m.folder,
          },
        ]),
  ];
  const exportColumns: ExportColumn<ArchivedMail>[] = [
    { header: t('archiveBrowse:subject'), value: (m) => m.subject },
    { header: t('archiveBrowse:from'), value: (m) => m.sender },
    { header: t('archiveBrowse:to'), value: (m) => m.recipients },
    { header: t('archiveBrowse:date'), value: (m) => m.sentAt ?? '' },
    { header: t('archiveBrowse:size'), value: (m) => m.sizeBytes },
    {
      header: t('archiveBrowse:attachments'),
      value: (m) => (m.hasAttachments ? t('archiveBrowse:withAttachments') : t('archiveBrowse:withoutAttachments')),
    },
    { header: t('archiveBrowse:folder'), value: (m) => m.folder },
  ];
  const refused = mails.error instanceof ApiError && mails.error.status === 403;
  return (
    <Stack gap="4">
      {started ? (
        <RestoreStartedNotice
          text={t('archiveBrowse:restoreStarted', { count: started.count, mailbox: started.into })}
        />
      ) : null}
      {refused ? (
        <StatusAlert status="error">
          <span data-testid="mail-refused">{t('archiveBrowse:needsProxyRight')}</span>
        </StatusAlert>
      ) : (
        <DataTable
          label={t('archiveBrowse:mails')}
          columns={columns}
          rows={mails.data?.items}
          total={mails.data?.total ?? 0}
          loading={mails.isFetching}
          error={mails.error}
          errorText={failure(mails.error) ?? t('archiveBrowse:loadFailed')}
          onRetry={() => void mails.refetch()}
          rowKey={(m) => m.itemId}
          state={state}
          onStateChange={setState}
          emptyText={t('archiveBrowse:noMails')}
          searchPlaceholder={t('archiveBrowse:searchMail')}
          onRowClick={(m) => setOpen(m.itemId)}
          selection={{
            selected,
            onChange: setSelected,
            rowLabel: (m) => t('table:selectRow', { name: m.subject || t('archiveBrowse:noSubject') }),
          }}
          toolbar={
            <>
              <FilterSelect
                label={t('archiveBrowse:folder')}
                value={folder}
                all={t('archiveBrowse:allFolders')}
                busy={meta.isPending && !meta.isError}
                options={(meta.data?.folders ?? []).map((f) => ({ value: f.path, label: f.path }))}
                onChange={setFolder}
              />
              <FilterSelect
                label={t('archiveBrowse:attachmentsFilter')}
                value={attachments}
                all={t('archiveBrowse:anyAttachments')}
                options={[
                  { value: 'with', label: t('archiveBrowse:withAttachments') },
                  { value: 'without', label: t('archiveBrowse:withoutAttachments') },
                ]}
                onChange={setAttachments}
              />
              <DateFilter label={t('archiveBrowse:sentFrom')} value={from} onChange={setFrom} />
              <DateFilter label={t('archiveBrowse:sentTo')} value={to} onChange={setTo} />
              <ExportButtons
                title={`${t('archiveBrowse:export')} ${shownName}`}
                columns={exportColumns}
                fetchPage={({ page, pageSize }) => fetchMailPage(api, tenantId, { ...request, page, pageSize })}
              />
            </>
          }
        />
      )}
      {selected.size > 0 ? (
        <Box position="sticky" bottom="0" bg="bg" py="2" borderTopWidth="1px">
          <HStack gap="3" wrap="wrap">
            <Text fontSize="sm" data-testid="mail-selection">
              {t('archiveBrowse:selected', { count: selected.size })}
            </Text>
            <Button size="sm" colorPalette="blue" onClick={() => setRestoring(chosen)} {...serverAction}>
              {t('archiveBrowse:restoreSelected')}
            </Button>
          </HStack>
        </Box>
      ) : null}
      {open ? (
        <ArchivedMailViewer
          tenantId={tenantId}
          mailboxId={mailboxId}
          itemId={open}
          onClose={() => setOpen(null)}
          onRestore={(mail) => {
            setOpen(null);
            setRestoring([mail]);
          }}
        />
      ) : null}
      {restoring ? (
        <RestoreArchivedMail
          tenantId={tenantId}
          mailbox={{ mailboxId, name: shownName }}
          mails={restoring}
          onClose={(result) => {
            setRestoring(null);
            if (result) {
              setStarted(result);
              setSelected(new Set());
            }
          }}
        />
      ) : null}
    </Stack>
  );
}

const TAB_LABELS = {
  mail: 'mailboxItems:tabMail',
  calendar: 'mailboxItems:tabCalendar',
  contacts: 'mailboxItems:tabContacts',
  tasks: 'mailboxItems:tabTasks',
} as const;

function MailboxArchive({ tenantId, mailboxId }: { tenantId: string; mailboxId: string }) {
  const { t } = useTranslation();
  const name = useMailboxName(mailboxId);
  const shownName = name || mailboxId;
  const route = getRouteApi(ROUTE);
  const tab: MailboxTab = route.useSearch().tab ?? 'mail';
  const navigate = route.useNavigate();
  return (
    <Stack gap="4">
      <PageHeader
        title={t('archiveBrowse:mailboxTitle', { name: shownName })}
        help="emailArchive.a6"
        actions={
          <Button asChild variant="outline" size="sm" alignSelf={{ base: 'flex-start', md: 'center' }}>
            <Link to="/archive/mailboxes">{t('archiveBrowse:backToMailboxes')}</Link>
          </Button>
        }
      />
      <Tabs.Root
        value={tab}
        // Another tab is another list: its page, order, search and filters start afresh.
        onValueChange={(e) => {
          const next = MAILBOX_TABS.find((v) => v === e.value) ?? 'mail';
          void navigate({ search: () => (next === 'mail' ? {} : { tab: next }) });
        }}
        lazyMount
        unmountOnExit
        variant="line"
      >
        <Tabs.List aria-label={t('mailboxItems:tabs')} flexWrap="wrap" mb="4">
          {MAILBOX_TABS.map((value) => (
            <Tabs.Trigger key={value} value={value}>
              {t(TAB_LABELS[value])}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {MAILBOX_TABS.map((value) => {
          const kind = KIND_OF_TAB[value];
          return (
            <Tabs.Content key={value} value={value}>
              {kind ? (
                <MailboxItemsTab tenantId={tenantId} mailbox={{ mailboxId, name: shownName }} kind={kind} />
              ) : (
                <MailTab tenantId={tenantId} mailboxId={mailboxId} shownName={shownName} />
              )}
            </Tabs.Content>
          );
        })}
      </Tabs.Root>
    </Stack>
  );
}

/**
 * A mailbox's archive (/archive/mailboxes/:mailboxId), in tabs kept in the address: its mail by folder,
 * paged, sorted and filtered (subject or sender, dates, attachments), a mail read, downloaded as .eml
 * or restored, alone or several at once, into its mailbox or another one; and its calendar events,
 * contacts and To Do tasks with their versions, each read, downloaded (.ics, .vcf) and restored.
 */
export function MailboxArchivePage({ mailboxId }: { mailboxId: string }) {
  return <RequireTenant>{(tenantId) => <MailboxArchive tenantId={tenantId} mailboxId={mailboxId} />}</RequireTenant>;
}
