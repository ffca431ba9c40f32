import type { DownloadResult } from './endpoint.js';

/**
 * Saves a downloaded file in a browser: an object URL and a click on a hidden link, named after
 * the response's Content-Disposition or, failing that, the given name.
 */
export function saveDownload(result: DownloadResult, fallbackName = 'download'): string {
  const name = result.fileName ?? fallbackName;
  const url = URL.createObjectURL(result.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a short delay is enough.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}
