import { Button, ButtonGroup, HStack, Progress, Text } from '@chakra-ui/react';
import type { Page } from '@compliance-portal/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerAction } from '../../offline/online';
import { exportFileName } from './export/file-name';
import { writeExport } from './export/write-export';
import type { Cell } from './export-files';
import { saveBlob } from './save-blob';
import { showToast } from './toaster';

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => Cell;
}

/** Rows per request and requests at once when an export reads the whole list. */
const EXPORT_PAGE_SIZE = 500;
const EXPORT_CONCURRENCY = 4;

interface ExportProgress {
  format: 'xlsx' | 'csv';
  done: number;
  total: number;
  /** Every page read; the file is being written. */
  writing: boolean;
}

export interface PageRequest {
  page: number;
  pageSize: number;
  /** With keyset paging: the key of the last row read so far. */
  after?: string;
}

/**
 * Reads every page of a list (not just the visible one), handing each page's rows to `onPage` in the
 * list's order as soon as they are there, and reporting progress: with `keyOf`, page after page by
 * keyset (each page read from an index, for long lists), else a few numbered pages at a time.
 */
async function readAllPages<T>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  onPage: (items: T[]) => void,
  onProgress: (done: number, total: number) => void,
  keyOf?: (row: T) => string,
): Promise<void> {
  const first = await fetchPage({ page: 1, pageSize: EXPORT_PAGE_SIZE });
  const pages = Math.ceil(first.total / EXPORT_PAGE_SIZE);
  let done = first.items.length;
  onPage(first.items);
  onProgress(done, first.total);
  if (keyOf) {
    let last = first.items.at(-1);
    while (last !== undefined && done < first.total) {
      const answer = await fetchPage({ page: 1, pageSize: EXPORT_PAGE_SIZE, after: keyOf(last) });
      // The next request leaves first; this page's rows are handed over while it is on its way.
      last = answer.items.at(-1);
      done += answer.items.length;
      onPage(answer.items);
      onProgress(done, first.total);
    }
    return;
  }
  // Pages arrive out of order; each is handed over once those before it have been.
  const arrived = new Map<number, T[]>();
  let handed = 1;
  let next = 2;
  const worker = async () => {
    while (next <= pages) {
      const page = next++;
      const answer = await fetchPage({ page, pageSize: EXPORT_PAGE_SIZE });
      arrived.set(page, answer.items);
      for (let items = arrived.get(handed + 1); items; items = arrived.get(handed + 1)) {
        arrived.delete(++handed);
        onPage(items);
      }
      done += answer.items.length;
      onProgress(done, first.total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(EXPORT_CONCURRENCY, Math.max(0, pages - 1)) }, worker));
}

/** Reads every page of a list into one array (see readAllPages). */
export async function fetchAllPages<T>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  onProgress: (done: number, total: number) => void,
  keyOf?: (row: T) => string,
): Promise<T[]> {
  const results: T[][] = [];
  await readAllPages(fetchPage, (items) => results.push(items), onProgress, keyOf);
  return results.flat();
}

/**
 * Exports the full result of a list as xlsx (with a header row) or csv (without one, section 9),
 * named after `title`. The writers load only when used, in a Web Worker where there is one.
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
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  // The whole list comes from the server, not from what the page shows.
  const serverAction = useServerAction(disabled || !!progress);

  const run = async (format: 'xlsx' | 'csv') => {
    setProgress({ format, done: 0, total: 0, writing: false });
    const fileName = exportFileName(title, format);
    // Each page's rows go to the writer (a Web Worker) as cells while the next page is read.
    const file = writeExport(
      format,
      title,
      columns.map((c) => c.header),
    );
    try {
      let count = 0;
      await readAllPages(
        fetchPage,
        (items) => {
          count += items.length;
          file.add(items.map((row) => columns.map((c) => c.value(row))));
        },
        (done, total) => setProgress({ format, done, total, writing: false }),
        keyOf,
      );
      setProgress((p) => (p ? { ...p, writing: true } : p));
      saveBlob(await file.finish(), fileName);
      showToast('success', t('export:done', { count, file: fileName }));
    } catch {
      file.cancel();
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
            {progress.writing
              ? t('export:writing', { file: exportFileName(title, progress.format) })
              : t('export:rows', { done: progress.done.toLocaleString(), total: progress.total.toLocaleString() })}
          </Text>
        </HStack>
      ) : null}
    </HStack>
  );
}
