/**
 * Writing exports: loaded only when someone exports (xlsx and papaparse are large). Product-spec.md
 * section 9: xlsx, or csv with no header row, named after the given title.
 */
import Papa from 'papaparse';
import { utils, write } from 'xlsx';

export type Cell = string | number | boolean | null;

/** The title as a file name: "/" becomes "_" (and nothing a file system refuses remains). */
export function exportFileName(title: string, extension: 'xlsx' | 'csv'): string {
  const base =
    title
      .replace(/\//g, '_')
      .replace(/[\\:*?"<>|]/g, '_')
      .trim() || 'export';
  return `${base}.${extension}`;
}

/** Excel sheet names: at most 31 characters, none of \ / ? * [ ] : (the "/" becomes "_"). */
export function sheetName(title: string): string {
  return (
    title
      .replace(/\//g, '_')
      .replace(/[\\?*[\]:]/g, '_')
      .trim() || 'Sheet1'
  ).slice(0, 31);
}

export function csvBlob(rows: Cell[][]): Blob {
  // No header row (section 9); a BOM so spreadsheet programs read UTF-8.
  const text = Papa.unparse(rows, { header: false, newline: '\r\n' });
  return new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' });
}

export function xlsxBlob(title: string, headers: string[], rows: Cell[][]): Blob {
  const sheet = utils.aoa_to_sheet([headers, ...rows]);
  const book = utils.book_new();
  utils.book_append_sheet(book, sheet, sheetName(title));
  const bytes = write(book, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer;
  return new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

export { saveBlob } from './save-blob';
