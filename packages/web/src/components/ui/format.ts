/** Display helpers shared by the tables and dashboards, in the interface language. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

export function formatBytes(bytes: number, language = 'en'): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** exponent;
  return `${value.toLocaleString(language, { maximumFractionDigits: exponent === 0 ? 0 : 1 })} ${UNITS[exponent]}`;
}

export function formatDateTime(iso: string | null | undefined, language = 'en'): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(iso: string | null | undefined, language = 'en'): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString(language, { dateStyle: 'medium' });
}

export function formatNumber(n: number, language = 'en'): string {
  return n.toLocaleString(language);
}
