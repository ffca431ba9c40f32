/** Display helpers shared by the tables and dashboards, in the interface language. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/**
 * One formatter per language and style, made once: `toLocaleString` with options builds a new Intl
 * formatter on every call, which cost a table of dates tens of milliseconds on a phone (issue 21).
 */
function cached<T>(make: (language: string) => T): (language: string) => T {
  const made = new Map<string, T>();
  return (language) => {
    let formatter = made.get(language);
    if (!formatter) {
      formatter = make(language);
      made.set(language, formatter);
    }
    return formatter;
  };
}

const bytesWhole = cached((language) => new Intl.NumberFormat(language, { maximumFractionDigits: 0 }));
const bytesFraction = cached((language) => new Intl.NumberFormat(language, { maximumFractionDigits: 1 }));
const dateTime = cached((language) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }));
const date = cached((language) => new Intl.DateTimeFormat(language, { dateStyle: 'medium' }));
const number = cached((language) => new Intl.NumberFormat(language));

export function formatBytes(bytes: number, language = 'en'): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** exponent;
  return `${(exponent === 0 ? bytesWhole : bytesFraction)(language).format(value)} ${UNITS[exponent]}`;
}

/** An ISO date in the given formatter; an unparsable one reads as `toLocaleString` has it. */
function formatIso(
  iso: string | null | undefined,
  formatter: (language: string) => Intl.DateTimeFormat,
  language: string,
) {
  if (!iso) return '—';
  const value = new Date(iso);
  return Number.isNaN(value.getTime()) ? 'Invalid Date' : formatter(language).format(value);
}

export function formatDateTime(iso: string | null | undefined, language = 'en'): string {
  return formatIso(iso, dateTime, language);
}

export function formatDate(iso: string | null | undefined, language = 'en'): string {
  return formatIso(iso, date, language);
}

export function formatNumber(n: number, language = 'en'): string {
  return number(language).format(n);
}
