/**
 * The title as a file name: "/" becomes "_" (and nothing a file system refuses remains). Apart from
 * the writers, so the page names the file without loading them.
 */
export function exportFileName(title: string, extension: 'xlsx' | 'csv'): string {
  const base =
    title
      .replace(/\//g, '_')
      .replace(/[\\:*?"<>|]/g, '_')
      .trim() || 'export';
  return `${base}.${extension}`;
}
