import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import Papa from 'papaparse';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { read, utils } from 'xlsx';
import { createI18n, loadLanguage } from '../../i18n';
import { DashboardCard } from './dashboard-card';
import { DataTable, VIRTUAL_THRESHOLD } from './data-table';
import { ExportButtons, fetchAllPages } from './export-button';
import { type Cell, csvBlob, csvText, exportFileName, exportWriter, sheetName, xlsxBlob } from './export-files';
import { QueryDataTable } from './query-data-table';
import { normaliseRecurrence } from './recurrence-editor';
import { saveBlob } from './save-blob';

// jsdom cannot download: the saved file is caught here.
vi.mock('./save-blob', () => ({ saveBlob: vi.fn() }));

/** jsdom's Blob has no text() or arrayBuffer(): read it as a browser of 2015 would. */
function readBlob(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

describe('exports', () => {
  it('name the file and the sheet after the title with "/" as "_"', () => {
    expect(exportFileName('Nightly/OneDrive 2026-11-23 02:00', 'xlsx')).toBe('Nightly_OneDrive 2026-11-23 02_00.xlsx');
    expect(exportFileName('a/b/c', 'csv')).toBe('a_b_c.csv');
    expect(sheetName('Nightly/OneDrive [all] 2026-11-23 02:00 and more')).toBe('Nightly_OneDrive _all_ 2026-11-');
    expect(sheetName('')).toBe('Sheet1');
  });

  it('write csv without a header row and xlsx with one', async () => {
    const rows = [
      ['Adele, "the first"', 3, 'Finished'],
      ['Bernd', 0, 'Failed'],
    ];
    const csv = new TextDecoder().decode(await readBlob(csvBlob(rows))).replace(/^\uFEFF/, '');
    expect(Papa.parse<string[]>(csv.trim()).data).toEqual([
      ['Adele, "the first"', '3', 'Finished'],
      ['Bernd', '0', 'Failed'],
    ]);
    const book = read(new Uint8Array(await readBlob(xlsxBlob('A/B', ['Name', 'Items', 'Status'], rows))));
    expect(book.SheetNames).toEqual(['A_B']);
    expect(utils.sheet_to_json(book.Sheets.A_B ?? {}, { header: 1 })).toEqual([['Name', 'Items', 'Status'], ...rows]);
  });

  it('write csv cells a spreadsheet would run as formulas as text, and numbers as they are', async () => {
    const rows = [
      ['=HYPERLINK("http://x","y")', 1],
      ['+49 89 1234', -1],
      ['-2+3', 0],
      ['@SUM(A1)', 2.5],
      ['\tcmd', null],
      ['\rcmd', true],
      ['=1+1\n=2+2', 3],
      ['Adele, "the first"', 4],
      [' =not first', 5],
    ];
    const csv = new TextDecoder().decode(await readBlob(csvBlob(rows))).replace(/^\uFEFF/, '');
    expect(csv).toBe(csvText(rows));
    expect(csv.split('\r\n')[0]).toBe(`"'=HYPERLINK(""http://x"",""y"")",1`);
    expect(Papa.parse<string[]>(csv).data).toEqual([
      [`'=HYPERLINK("http://x","y")`, '1'],
      ["'+49 89 1234", '-1'],
      ["'-2+3", '0'],
      ["'@SUM(A1)", '2.5'],
      ["'\tcmd", ''],
      ["'\rcmd", 'true'],
      ["'=1+1\n=2+2", '3'],
      ['Adele, "the first"', '4'],
      [' =not first', '5'],
    ]);
  });

  it('read every page of a list, in order, a few requests at a time', async () => {
    const all = Array.from({ length: 1234 }, (_, i) => i);
    let inFlight = 0;
    let most = 0;
    const progress: number[] = [];
    const rows = await fetchAllPages(
      async ({ page, pageSize }) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5 * (4 - (page % 4))));
        inFlight -= 1;
        return { items: all.slice((page - 1) * pageSize, page * pageSize), total: all.length, page, pageSize };
      },
      (done) => progress.push(done),
    );
    expect(rows).toEqual(all);
    expect(most).toBeLessThanOrEqual(4);
    expect(progress.at(-1)).toBe(1234);
  });

  it('read a long list page after page by keyset when the list has one', async () => {
    const all = Array.from({ length: 1234 }, (_, i) => `k${String(i).padStart(4, '0')}`);
    const asked: (string | undefined)[] = [];
    const rows = await fetchAllPages(
      async ({ pageSize, after }) => {
        asked.push(after);
        const start = after ? all.indexOf(after) + 1 : 0;
        return { items: all.slice(start, start + pageSize), total: all.length, page: 1, pageSize };
      },
      () => undefined,
      (row) => row,
    );
    expect(rows).toEqual(all);
    expect(asked).toEqual([undefined, 'k0499', 'k0999']);
  });
});

describe('exports written chunk by chunk', () => {
  const rows: Cell[][] = Array.from({ length: 1234 }, (_, i) => [
    i % 7 === 0 ? `=cmd ${i}` : `Account, "${i}"`,
    i,
    i % 3 === 0 ? null : i % 2 === 0,
    i % 11 === 0 ? 'line\nbreak' : '',
  ]);
  const chunks = [rows.slice(0, 500), [], rows.slice(500, 1000), rows.slice(1000)];

  it('give the same csv bytes as all rows at once', async () => {
    const writer = exportWriter('csv', 'ignored', ['ignored']);
    for (const chunk of chunks) writer.add(chunk);
    const chunked = new Uint8Array(await readBlob(writer.finish()));
    expect(chunked).toEqual(new Uint8Array(await readBlob(csvBlob(rows))));
    expect([...chunked.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('give the same xlsx sheet as all rows at once', async () => {
    const writer = exportWriter('xlsx', 'A/B', ['Name', 'N', 'Flag', 'Note']);
    for (const chunk of chunks) writer.add(chunk);
    const chunked = read(new Uint8Array(await readBlob(writer.finish())));
    const whole = read(new Uint8Array(await readBlob(xlsxBlob('A/B', ['Name', 'N', 'Flag', 'Note'], rows))));
    expect(chunked.SheetNames).toEqual(['A_B']);
    expect(chunked.Sheets.A_B).toEqual(whole.Sheets.A_B);
  });
});

describe('the export buttons', () => {
  const i18n = createI18n('en');
  beforeAll(() => loadLanguage(i18n, 'en'));
  type Row = { id: string; n: number };
  const all: Row[] = Array.from({ length: 1234 }, (_, i) => ({ id: `k${String(i).padStart(4, '0')}`, n: i }));

  it('read the list by keyset in pages of the size given and save the file the rows make, written off the page where it can', async () => {
    const saved = vi.mocked(saveBlob);
    saved.mockClear();
    const asked: { pageSize: number; after?: string }[] = [];
    render(
      <ChakraProvider value={defaultSystem}>
        <I18nextProvider i18n={i18n}>
          <ExportButtons<Row>
            title="Nightly/OneDrive"
            columns={[
              { header: 'Id', value: (r) => r.id },
              { header: 'N', value: (r) => (r.n % 5 === 0 ? `-${r.n}` : r.n) },
            ]}
            fetchPage={async ({ pageSize, after }) => {
              asked.push({ pageSize, ...(after ? { after } : {}) });
              const start = after ? all.findIndex((r) => r.id === after) + 1 : 0;
              return { items: all.slice(start, start + pageSize), total: all.length, page: 1, pageSize };
            }}
            keyOf={(r) => r.id}
            pageSize={1200}
          />
        </I18nextProvider>
      </ChakraProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export csv' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    const [blob, name] = saved.mock.calls[0] ?? [];
    expect(name).toBe('Nightly_OneDrive.csv');
    const expected = csvBlob(all.map((r) => [r.id, r.n % 5 === 0 ? `-${r.n}` : r.n]));
    expect(new Uint8Array(await readBlob(blob as Blob))).toEqual(new Uint8Array(await readBlob(expected)));
    expect(asked).toEqual([{ pageSize: 1200 }, { pageSize: 1200, after: 'k1199' }]);
  });
});

describe('recurrence', () => {
  it('keeps only the fields its kind uses', () => {
    expect(normaliseRecurrence({ kind: 'afterCreation', hours: [1], dayOfMonth: 3 })).toEqual({
      kind: 'afterCreation',
    });
    expect(normaliseRecurrence({ kind: 'monthly', hours: [5, 1], daysOfWeek: [1] })).toEqual({
      kind: 'monthly',
      hours: [1, 5],
      dayOfMonth: 1,
    });
    expect(normaliseRecurrence({ kind: 'daysOfWeek', daysOfWeek: [1, 3], date: '2027-01-01T00:00:00.000Z' })).toEqual({
      kind: 'daysOfWeek',
      daysOfWeek: [1, 3],
    });
  });
});

describe('the data table', () => {
  const i18n = createI18n('en');
  beforeAll(() => loadLanguage(i18n, 'en'));
  const renderTable = (count: number) =>
    render(
      <ChakraProvider value={defaultSystem}>
        <I18nextProvider i18n={i18n}>
          <DataTable
            label="Numbers"
            columns={[{ key: 'n', header: 'Number', cell: (n: number) => `row ${n}`, sortable: true }]}
            rows={Array.from({ length: count }, (_, i) => i)}
            total={100_000}
            rowKey={(n) => String(n)}
            state={{ page: 1, pageSize: count, sort: 'n', order: 'desc' }}
            onStateChange={() => undefined}
            emptyText="Nothing"
          />
        </I18nextProvider>
      </ChakraProvider>,
    );

  it('renders a short page whole, and only the visible rows of a long one', () => {
    renderTable(VIRTUAL_THRESHOLD);
    const table = screen.getByRole('table', { name: 'Numbers' });
    expect(within(table).getAllByText(/^row /)).toHaveLength(VIRTUAL_THRESHOLD);
    expect(
      within(table)
        .getByRole('columnheader', { name: /Number/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
    expect(table.getAttribute('aria-rowcount')).toBe('100001');
    expect(screen.getByText('1–100 of 100,000')).toBeTruthy();
  });

  it('keeps a long page light', () => {
    renderTable(500);
    const shown = within(screen.getByRole('table', { name: 'Numbers' })).getAllByText(/^row /);
    expect(shown.length).toBeLessThan(40);
    expect(shown[0]?.textContent).toBe('row 0');
  });
});

describe('the query data table and the dashboard card', () => {
  const i18n = createI18n('en');
  beforeAll(() => loadLanguage(i18n, 'en'));
  const wrap = (node: React.ReactNode) =>
    render(
      <ChakraProvider value={defaultSystem}>
        <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
      </ChakraProvider>,
    );
  const table = (query: Parameters<typeof QueryDataTable<string>>[0]['query']) => (
    <QueryDataTable
      label="Names"
      columns={[{ key: 'name', header: 'Name', cell: (n: string) => n }]}
      rowKey={(n) => n}
      state={{ page: 1, pageSize: 25 }}
      onStateChange={() => undefined}
      emptyText="No names"
      query={query}
    />
  );

  it('shows the rows and total of the query', () => {
    wrap(table({ data: { items: ['Adele', 'Bernd'], total: 2 }, isFetching: false, error: null, refetch: vi.fn() }));
    const rows = within(screen.getByRole('table', { name: 'Names' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['Name', 'Adele', 'Bernd']);
    expect(screen.getByText('1–2 of 2')).toBeTruthy();
  });

  it('says when the query found nothing, and retries a failed query', () => {
    const { unmount } = wrap(
      table({ data: { items: [], total: 0 }, isFetching: false, error: null, refetch: vi.fn() }),
    );
    expect(screen.getByText('No names')).toBeTruthy();
    unmount();
    const refetch = vi.fn();
    wrap(table({ data: undefined, isFetching: false, error: new Error('offline'), refetch }));
    screen.getByRole('button', { name: /try again/i }).click();
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('gives a dashboard card its heading at the level asked and its action beside it', () => {
    wrap(
      <DashboardCard title="Stored size" as="h2" action={<a href="/reports">All reports</a>}>
        <p>4.5 MB</p>
      </DashboardCard>,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Stored size' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'All reports' })).toBeTruthy();
    expect(screen.getByText('4.5 MB')).toBeTruthy();
  });
});
