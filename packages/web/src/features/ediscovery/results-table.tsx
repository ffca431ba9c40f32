import { Alert, Badge, Button, Stack, Text } from '@chakra-ui/react';
import type { EdiscoveryHit } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { formatBytes, formatDateTime } from '../../components/ui/format';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { useServerAction } from '../../offline/online';
import { Highlighted } from './highlight';
import type { SearchState } from './use-search-state';

/**
 * The hits of the search made, a page at a time, with their marked snippets; hits are chosen to be
 * restored, and the search saved as a case. Before any search, a word on what the page does.
 */
export function ResultsTable({ state }: { state: SearchState }) {
  const { t, i18n } = useTranslation();
  const serverAction = useServerAction();
  const { search, results, list, setList, chosen, setChosen } = state;
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
            onClick={() => state.setPreviewing(h)}
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
        <Badge colorPalette={h.kind === 'mail' ? 'blue' : h.kind === 'event' ? 'green' : 'purple'}>
          {t(h.chat ? 'ediscovery:chat' : h.kind === 'event' ? 'ediscovery:eventKind' : `ediscovery:kinds.${h.kind}`)}
        </Badge>
      ),
      hideBelow: 'sm',
    },
    { key: 'sender', header: t('ediscovery:fromOrOrganizer'), cell: (h) => h.sender, hideBelow: 'md', stack: true },
    {
      key: 'source',
      header: t('ediscovery:where'),
      cell: (h) => (h.container ? `${h.sourceName} · ${h.container}` : h.sourceName),
      hideBelow: 'lg',
      stack: true,
    },
    {
      key: 'sentAt',
      header: t('ediscovery:sentOrStarts'),
      cell: (h) => formatDateTime(h.sentAt, i18n.language),
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'size',
      header: t('backup:columns.size'),
      cell: (h) => formatBytes(h.sizeBytes, i18n.language),
      align: 'end',
      hideBelow: 'lg',
    },
  ];

  return (
    <>
      {results.data &&
      results.data.searchedMailboxes === 0 &&
      search?.kinds?.some((k) => k === 'mail' || k === 'events') ? (
        <Alert.Root status="info" data-testid="no-mailboxes">
          <Alert.Indicator />
          <Alert.Title>{t('ediscovery:noMailboxes')}</Alert.Title>
        </Alert.Root>
      ) : null}

      {search ? (
        <QueryDataTable
          query={results}
          label={t('ediscovery:results')}
          columns={columns}
          rowKey={(h) => h.itemId}
          state={list}
          onStateChange={setList}
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
                onClick={() => state.setSaving(true)}
                {...serverAction}
                disabled={serverAction.disabled || !results.data}
              >
                {t('ediscovery:saveCase')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => state.setRestoring(true)}
                {...serverAction}
                disabled={serverAction.disabled || ![...chosen.values()].some((h) => h.kind === 'mail')}
              >
                {t('ediscovery:restoreTrigger')}
              </Button>
            </>
          }
        />
      ) : (
        <Text color="fg.muted">{t('ediscovery:intro')}</Text>
      )}
    </>
  );
}
