/**
 * Writes an export off the page's main thread: the rows arrive in chunks while the page still reads
 * the list, and the file (xlsx compression takes seconds for 100,000 rows) comes back as a Blob.
 */
import { type ExportWriter, exportWriter } from '../export-files';
import type { FromExportWorker, ToExportWorker } from './protocol';

// The worker's global scope, typed here: the project's TypeScript lib is the DOM's, not the WebWorker's.
declare const self: {
  onmessage: ((event: MessageEvent<ToExportWorker>) => void) | null;
  postMessage(message: FromExportWorker): void;
};

let writer: ExportWriter | undefined;
let failure: string | undefined;

const answer = (message: FromExportWorker) => self.postMessage(message);

self.onmessage = (event: MessageEvent<ToExportWorker>) => {
  const message = event.data;
  // After a failure the rest of the rows are dropped; the page hears of it once, at `finish`.
  if (failure !== undefined && message.kind !== 'finish') return;
  try {
    if (message.kind === 'start') writer = exportWriter(message.format, message.title, message.headers);
    else if (message.kind === 'rows') writer?.add(message.rows);
    else if (failure !== undefined || !writer) answer({ kind: 'failed', message: failure ?? 'not started' });
    else answer({ kind: 'file', blob: writer.finish() });
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    if (message.kind === 'finish') answer({ kind: 'failed', message: failure });
  }
};
