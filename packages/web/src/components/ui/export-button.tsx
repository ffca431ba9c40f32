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

/** Rows per request (unless the list allows more) and requests at once when an export reads the whole list. */
const EXPORT_PAGE_SIZE = 500;
const EXPORT_CONCURRENCY = 4;
/** Rows turned into cells and handed to the writer in one go. */
const HAND_OVER_ROWS = 1000;

/** Lets the page paint and answer input before the next slice of work. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

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
 * list's order as soon as they are there (one page at a time: a page is handed over once `onPage` has
 * taken the one before), and reporting progress: with `keyOf`, page after page by keyset (each page
 * read from an index, for long lists; the next request leaves before a page is handed over), else a
 * few numbered pages at a time.
 */
async function readAllPages<T>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  onPage: (items: T[]) => void | Promise<void>,
  onProgress: (done: number, total: number) => void,
  keyOf?: (row: T) => string,
  pageSize = EXPORT_PAGE_SIZE,
): Promise<void> {
  let handing = Promise.resolve();
  const handOver = (items: T[]) => {
    handing = handing.then(() => onPage(items));
  };
  const first = await fetchPage({ page: 1, pageSize });
  const pages = Math.ceil(first.total / pageSize);
  let done = first.items.length;
  if (keyOf) {
    const after = (items: T[]) => {
      const last = items.at(-1);
      return last !== undefined && done < first.total
        ? fetchPage({ page: 1, pageSize, after: keyOf(last) })
        : undefined;
    };
    let pending = after(first.items);
    handOver(first.items);
    onProgress(done, first.total);
    while (pending) {
      const answer = await pending;
      done += answer.items.length;
      pending = after(answer.items);
      handOver(answer.items);
      onProgress(done, first.total);
    }
    await handing;
    return;
  }
  handOver(first.items);
  onProgress(done, first.total);
  // Pages arrive out of order; each is handed over once those before it have been.
  const arrived = new Map<number, T[]>();
  let handed = 1;
  let next = 2;
  const worker = async () => {
    while (next <= pages) {
      const page = next++;
      const answer = await fetchPage({ page, pageSize });
      arrived.set(page, answer.items);
      for (let items = arrived.get(handed + 1); items; items = arrived.get(handed + 1)) {
        arrived.delete(++handed);
        handOver(items);
      }
      done += answer.items.length;
      onProgress(done, first.total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(EXPORT_CONCURRENCY, Math.max(0, pages - 1)) }, worker));
  await handing;
}

/** Reads every page of a list into one array (see readAllPages). */
export async function fetchAllPages<T>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  onProgress: (done: number, total: number) => void,
  keyOf?: (row: T) => string,
): Promise<T[]> {
  const results: T[][] = [];
  await readAllPages(
    fetchPage,
    (items) => {
      results.push(items);
    },
    onProgress,
    keyOf,
  );
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
  pageSize,
  disabled,
}: {
  title: string;
  columns: ExportColumn<T>[];
  fetchPage: (request: PageRequest) => Promise<Page<T>>;
  /** The row's key for keyset paging, when the list supports it. */
  keyOf?: (row: T) => string;
  /** Rows per request, where the list allows more than 500 (a long report's accounts). */
  pageSize?: number;
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
        async (items) => {
          count += items.length;
          // A large page goes to the writer in slices, the page free between them (no long task).
          for (let at = 0; at < items.length; at += HAND_OVER_ROWS) {
            if (at > 0) await yieldToPage();
            file.add(items.slice(at, at + HAND_OVER_ROWS).map((row) => columns.map((c) => c.value(row))));
          }
        },
        (done, total) => setProgress({ format, done, total, writing: false }),
        keyOf,
        pageSize,
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
