/**
 * Writing exports: loaded only when someone exports (xlsx and papaparse are large):
 * xlsx, or csv with no header row, named after the given title.
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

/**
 * A text cell a spreadsheet program would run as a formula (OWASP, CSV injection): one beginning with
 * = + - @ TAB or CR. Names and subjects in reports come from strangers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Rows as CSV: cells with a comma, quote or line break quoted, their quotes doubled, CRLF lines; a
 * text cell that could run as a formula is quoted with a single quote before it (papaparse's own
 * check misses one that spans lines); numbers are written as they are (a negative number is no
 * formula).
 */
export function csvText(rows: Cell[][]): string {
  return Papa.unparse(rows, { header: false, newline: '\r\n', escapeFormulae: FORMULA_START });
}

export function csvBlob(rows: Cell[][]): Blob {
  // No header row (section 9); a BOM so spreadsheet programs read UTF-8.
  return new Blob([`\uFEFF${csvText(rows)}`], { type: 'text/csv;charset=utf-8' });
}

export function xlsxBlob(title: string, headers: string[], rows: Cell[][]): Blob {
  const sheet = utils.aoa_to_sheet([headers, ...rows]);
  const book = utils.book_new();
  utils.book_append_sheet(book, sheet, sheetName(title));
  const bytes = write(book, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer;
  return new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

export { saveBlob } from './save-blob';
