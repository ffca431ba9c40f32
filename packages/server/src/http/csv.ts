/**
 * CSV as the portal writes it (RFC 4180: CRLF lines, a cell with a comma, quote or line break in
 * quotes, its quotes doubled). Cells come from strangers (mail subjects, names), so a text that a
 * spreadsheet program would take for a formula, one beginning with = + - @ TAB or CR, is kept as
 * text with a single quote before it (OWASP, CSV injection). Numbers are written as they are: a
 * negative number is not a formula.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, each line ended by CRLF. */
export function csvText(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
