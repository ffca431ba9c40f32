import { Button, ButtonGroup, HStack, Progress, Text } from '@chakra-ui/react';
import type { Page } from '@compliance-portal/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerAction } from '../../offline/online';
import type { Cell } from './export-files';
import { showToast } from './toaster';

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => Cell;
}

/** Rows per request and requests at once when an export reads the whole list. */
const EXPORT_PAGE_SIZE = 500;
const EXPORT_CONCURRENCY = 4;

export interface PageRequest {
  page: number;
  pageSize: number;
  /** With keyset paging: the key of the last row read so far. */
  after?: string;
}

/**
 * Reads every page of a list (not just the visible one), reporting progress: with `keyOf`, page after
 * page by keyset (each page read from an index, for long lists), else a few numbered pages at a time.
 */
export async function fetchAllPages<T>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  onProgress: (done: number, total: number) => void,
  keyOf?: (row: T) => string,
): Promise<T[]> {
  const first = await fetchPage({ page: 1, pageSize: EXPORT_PAGE_SIZE });
  const pages = Math.ceil(first.total / EXPORT_PAGE_SIZE);
  const results: T[][] = [first.items];
  let done = first.items.length;
  onProgress(done, first.total);
  if (keyOf) {
    let last = first.items.at(-1);
    while (last !== undefined && done < first.total) {
      const answer = await fetchPage({ page: 1, pageSize: EXPORT_PAGE_SIZE, after: keyOf(last) });
      results.push(answer.items);
      done += answer.items.length;
      onProgress(done, first.total);
      last = answer.items.at(-1);
    }
    return results.flat();
  }
  let next = 2;
  const worker = async () => {
    while (next <= pages) {
      const page = next++;
      const answer = await fetchPage({ page, pageSize: EXPORT_PAGE_SIZE });
      results[page - 1] = answer.items;
      done += answer.items.length;
      onProgress(done, first.total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(EXPORT_CONCURRENCY, Math.max(0, pages - 1)) }, worker));
  return results.flat();
}

/**
 * Exports the full result of a list as xlsx (with a header row) or csv (without one, section 9),
 * named after `title`. The writers load only when used.
 */
export function ExportButtons<T>({
  title,
  columns,
  fetchPage,
  keyOf,
  disabled,
}: {
  title: string;
  columns: ExportColumn<T>[];
  fetchPage: (request: PageRequest) => Promise<Page<T>>;
  /** The row's key for keyset paging, when the list supports it. */
  keyOf?: (row: T) => string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ format: 'xlsx' | 'csv'; done: number; total: number } | null>(null);
  // The whole list comes from the server, not from what the page shows.
  const serverAction = useServerAction(disabled || !!progress);

  const run = async (format: 'xlsx' | 'csv') => {
    setProgress({ format, done: 0, total: 0 });
    try {
      const [files, rows] = await Promise.all([
        import('./export-files'),
        fetchAllPages(fetchPage, (done, total) => setProgress({ format, done, total }), keyOf),
      ]);
      const cells = rows.map((row) => columns.map((c) => c.value(row)));
      const blob =
        format === 'csv'
          ? files.csvBlob(cells)
          : files.xlsxBlob(
              title,
              columns.map((c) => c.header),
              cells,
            );
      files.saveBlob(blob, files.exportFileName(title, format));
      showToast('success', t('export:done', { count: rows.length, file: files.exportFileName(title, format) }));
    } catch {
      showToast('error', t('export:failed'));
    } finally {
      setProgress(null);
    }
  };

  return (
    <HStack gap="3" wrap="wrap">
      <ButtonGroup size="sm" variant="outline" attached>
        <Button onClick={() => run('xlsx')} loading={progress?.format === 'xlsx'} {...serverAction}>
          {t('export:xlsx')}
        </Button>
        <Button onClick={() => run('csv')} loading={progress?.format === 'csv'} {...serverAction}>
          {t('export:csv')}
        </Button>
      </ButtonGroup>
      {progress && progress.total > 0 ? (
        <HStack gap="2" minW="40">
          <Progress.Root
            value={Math.round((progress.done / progress.total) * 100)}
            size="sm"
            flex="1"
            aria-label={t('export:progress')}
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="xs" color="fg.muted" aria-live="polite">
            {t('export:rows', { done: progress.done.toLocaleString(), total: progress.total.toLocaleString() })}
          </Text>
        </HStack>
      ) : null}
    </HStack>
  );
}
