/**
 * Writing exports: loaded only when someone exports (xlsx and papaparse are large):
 * xlsx, or csv with no header row, named after the given title.
 */
import Papa from 'papaparse';
import { utils, write } from 'xlsx';

export type Cell = string | number | boolean | null;

export { exportFileName } from './export/file-name';

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

const CSV_TYPE = 'text/csv;charset=utf-8';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A file written as its rows arrive, chunk after chunk, so the writing overlaps the reading: the
 * same bytes as writing all rows at once (csvBlob, xlsxBlob).
 */
export interface ExportWriter {
  add(rows: Cell[][]): void;
  finish(): Blob;
}

export function exportWriter(format: 'xlsx' | 'csv', title: string, headers: string[]): ExportWriter {
  if (format === 'csv') {
    // No header row (section 9); a BOM so spreadsheet programs read UTF-8. Each chunk is unparsed
    // alone: papaparse decides quoting cell by cell, and joins rows with the newline only between them.
    const parts: string[] = ['\uFEFF'];
    return {
      add(rows) {
        if (rows.length === 0) return;
        if (parts.length > 1) parts.push('\r\n');
        parts.push(csvText(rows));
      },
      finish: () => new Blob(parts, { type: CSV_TYPE }),
    };
  }
  const sheet = utils.aoa_to_sheet([headers]);
  return {
    add(rows) {
      if (rows.length > 0) utils.sheet_add_aoa(sheet, rows, { origin: -1 });
    },
    finish() {
      const book = utils.book_new();
      utils.book_append_sheet(book, sheet, sheetName(title));
      const bytes = write(book, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer;
      return new Blob([bytes], { type: XLSX_TYPE });
    },
  };
}

export function csvBlob(rows: Cell[][]): Blob {
  const writer = exportWriter('csv', '', []);
  writer.add(rows);
  return writer.finish();
}

export function xlsxBlob(title: string, headers: string[], rows: Cell[][]): Blob {
  const writer = exportWriter('xlsx', title, headers);
  writer.add(rows);
  return writer.finish();
}
