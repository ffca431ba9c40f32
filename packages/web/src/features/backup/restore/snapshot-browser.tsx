import { Breadcrumb, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { DiscoveryNode, Job } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/ui/data-table';
import { formatBytes, formatDateTime } from '../../../components/ui/format';
import { useListState } from '../../../components/ui/list-state';
import { QueryDataTable } from '../../../components/ui/query-data-table';
import { actionState, type RowActions } from '../../../components/ui/row-actions';
import { isNotFound } from '../../../errors/api-errors';
import { useServerAction } from '../../../offline/online';
import { useApi } from '../../../shared/tenant';
import { useListCsvDownload } from '../api/mutations';
import { snapshotFolderQuery } from '../api/queries';

/** Nodes the snapshot keeps no size for. */
const SIZELESS = new Set<DiscoveryNode['kind']>(['list', 'pages', 'page']);

const FOLDERS = new Set<DiscoveryNode['kind']>([
  'folder',
  'library',
  'channel',
  'site',
  'team',
  'drive',
  'list',
  'pages',
]);

/**
 * The snapshot's tree, node by node, with checkboxes; a folder's name opens it. A site's lists and
 * its pages open like folders; a list offers its items as csv.
 */
export function SnapshotBrowser({
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
  const serverAction = useServerAction();
  const csv = useListCsvDownload(api, tenantId, job, sourceId, snapshot);
  const [trail, setTrail] = useState<DiscoveryNode[]>([]);
  const [state, setState] = useListState({ pageSize: 50 });
  const node = trail.at(-1)?.nodeId ?? 'root';
  const items = useQuery(snapshotFolderQuery(api, tenantId, job, sourceId, snapshot, node, state));
  const open = (n: DiscoveryNode) => {
    setTrail([...trail, n]);
    setState({ page: 1, search: '' });
  };
  /** The name a node is shown by: the pages group in the reader's words. */
  const label = (n: DiscoveryNode) => (n.kind === 'pages' ? t('backup:sitePages') : n.name);
  /** What a node is, with its item count (a list, the pages) or its version (a list item, a page). */
  const kind = (n: DiscoveryNode) => {
    const what = t(`backup:nodeKinds.${n.kind}`);
    if (n.itemCount !== undefined)
      return `${what} · ${
        n.kind === 'pages'
          ? t('backup:selectionParts.pages', { count: n.itemCount })
          : t('backup:listItemCount', { count: n.itemCount })
      }`;
    if (n.version) return `${what} · ${t('backup:versionLabel', { version: n.version })}`;
    return what;
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
            whiteSpace="normal"
            textAlign="start"
            onClick={() => open(n)}
            data-testid="open-node"
          >
            <NodeIcon kind={n.kind} /> {label(n)}
          </Button>
        ) : (
          <HStack gap="1.5" align="center">
            <NodeIcon kind={n.kind} />
            <Text>{label(n)}</Text>
          </HStack>
        ),
    },
    { key: 'kind', header: t('backup:columns.type'), cell: kind, hideBelow: 'sm', stack: true },
    {
      key: 'size',
      header: t('backup:columns.size'),
      // Lists, the pages group and pages have no size of their own, nor an item SharePoint gave none.
      cell: (n) =>
        SIZELESS.has(n.kind) || (n.kind === 'listItem' && !n.sizeBytes) ? '' : formatBytes(n.sizeBytes, i18n.language),
      align: 'end',
      hideBelow: 'sm',
      stack: true,
    },
    {
      key: 'modified',
      header: t('backup:columns.modified'),
      cell: (n) => formatDateTime(n.modified, i18n.language),
      hideBelow: 'md',
      stack: true,
    },
  ];
  const rows = items.data?.items;
  const keys = new Set(selected.keys());
  // Only a site's top holds lists: the actions column stands there only.
  const rowActions: RowActions<DiscoveryNode> | undefined =
    job.application === 'sharepoint' && node === 'root'
      ? {
          header: t('backup:columns.actions'),
          rowLabel: label,
          actions: (n) =>
            n.kind === 'list'
              ? [
                  {
                    key: 'csv',
                    label: t('backup:downloadCsv'),
                    ariaLabel: t('backup:downloadCsvOf', { name: n.name }),
                    loading: csv.isPending && csv.variables?.nodeId === n.nodeId,
                    onSelect: () => csv.mutate(n),
                    quiet: true,
                    ...actionState(serverAction),
                  },
                ]
              : [],
        }
      : undefined;
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
            // The separator and the item are each an <li> of the trail's <ol>: nothing may wrap them.
            <Fragment key={n.nodeId}>
              <Breadcrumb.Separator />
              <Breadcrumb.Item>
                {i === trail.length - 1 ? (
                  <Breadcrumb.CurrentLink data-testid="current-folder">{label(n)}</Breadcrumb.CurrentLink>
                ) : (
                  <Breadcrumb.Link asChild>
                    <button type="button" onClick={() => setTrail(trail.slice(0, i + 1))}>
                      {label(n)}
                    </button>
                  </Breadcrumb.Link>
                )}
              </Breadcrumb.Item>
            </Fragment>
          ))}
        </Breadcrumb.List>
      </Breadcrumb.Root>
      <QueryDataTable
        query={items}
        label={t('backup:snapshotTree')}
        columns={columns}
        rowKey={(n) => n.nodeId}
        state={state}
        onStateChange={setState}
        errorText={isNotFound(items.error) ? t('errors:noFolder') : t('dataManagement:failed')}
        emptyText={t('backup:emptyFolder')}
        searchPlaceholder={t('backup:searchItems')}
        {...(rowActions ? { rowActions } : {})}
        selection={{
          selected: keys,
          rowLabel: (n) => t('table:selectRow', { name: label(n) }),
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

/** Outlines of what a node is, drawn in the text's colour: a folder, a list, a list's row, pages, a page. */
const ICON_PATHS: Partial<Record<DiscoveryNode['kind'], string>> = {
  folder: 'M1.5 3.5h4.2l1.5 1.5h7.3v7.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1z',
  list: 'M2 2.5h12v11H2zM2 6h12M2 9.5h12M5.5 2.5v11',
  listItem: 'M2 5.5h12v5H2zM5.5 5.5v5',
  pages: 'M4.5 1.5h6l3 3v8h-9zM2.5 4v10.5h8',
  page: 'M3.5 1.5h6l3 3v10h-9zM9.5 1.5v3h3M5.5 8h5M5.5 10.5h5',
};

/** The outline of a node's kind (a folder's for the other groups, none for files and messages); the name says what it is. */
function NodeIcon({ kind }: { kind: DiscoveryNode['kind'] }) {
  const path = ICON_PATHS[kind] ?? (FOLDERS.has(kind) ? ICON_PATHS.folder : undefined);
  if (!path) return null;
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false" data-kind={kind}>
      <path d={path} fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
    </svg>
  );
}
