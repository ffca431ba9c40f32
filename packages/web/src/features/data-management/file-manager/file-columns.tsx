import { Button } from '@chakra-ui/react';
import type { FileNode } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/ui/data-table';
import { formatBytes, formatDateTime, formatNumber } from '../../../components/ui/format';

/** The columns of a folder's content: its name opens it (a folder) or shows its versions (a file). */
export function useFileColumns(open: (node: FileNode) => void): Column<FileNode>[] {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return [
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
}
