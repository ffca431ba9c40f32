import { Breadcrumb, Button, Stack, Text } from '@chakra-ui/react';
import type { DiscoveryNode, Job } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/ui/data-table';
import { formatBytes, formatDateTime } from '../../../components/ui/format';
import { useListState } from '../../../components/ui/list-state';
import { QueryDataTable } from '../../../components/ui/query-data-table';
import { isNotFound } from '../../../errors/api-errors';
import { useApi } from '../../../shared/tenant';
import { snapshotFolderQuery } from '../api/queries';

const FOLDERS = new Set<DiscoveryNode['kind']>(['folder', 'library', 'channel', 'site', 'team', 'drive']);

/** The snapshot's tree, node by node, with checkboxes; a folder's name opens it. */
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
  const [trail, setTrail] = useState<DiscoveryNode[]>([]);
  const [state, setState] = useListState({ pageSize: 50 });
  const node = trail.at(-1)?.nodeId ?? 'root';
  const items = useQuery(snapshotFolderQuery(api, tenantId, job, sourceId, snapshot, node, state));
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
            <FolderIcon /> {n.name}
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
                  <Breadcrumb.CurrentLink data-testid="current-folder">{n.name}</Breadcrumb.CurrentLink>
                ) : (
                  <Breadcrumb.Link asChild>
                    <button type="button" onClick={() => setTrail(trail.slice(0, i + 1))}>
                      {n.name}
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

/** A folder's outline, drawn in the text's colour; the name says what it is. */
function FolderIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        d="M1.5 3.5h4.2l1.5 1.5h7.3v7.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.3"
        strokeLinejoin="round"
      />
    </svg>
  );
}
