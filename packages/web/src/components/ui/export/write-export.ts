import type { Cell } from '../export-files';
import type { FromExportWorker, ToExportWorker } from './protocol';

/** A file being written from rows handed over chunk by chunk; `finish` gives the file. */
interface ExportFile {
  add(rows: Cell[][]): void;
  finish(): Promise<Blob>;
  /** Stops the writing (after a failed read): no file comes. */
  cancel(): void;
}

/**
 * Starts writing an export: in a Web Worker, so the main thread only reads the pages and hands their
 * rows over; where there is no Worker (jsdom, old browsers) on the main thread, with the same writer.
 */
export function writeExport(format: 'xlsx' | 'csv', title: string, headers: string[]): ExportFile {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./export.worker.ts', import.meta.url), { type: 'module', name: 'export' });
  } catch {
    // No Worker here, or one the page may not start (a content security policy): the same writer.
    return onMainThread(format, title, headers);
  }
  const send = (message: ToExportWorker) => worker.postMessage(message);
  const file = new Promise<Blob>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<FromExportWorker>) => {
      if (event.data.kind === 'file') resolve(event.data.blob);
      else reject(new Error(event.data.message));
    };
    worker.onerror = (event) => reject(new Error(event.message || 'the export worker failed'));
  });
  // Settled either way, the worker has nothing left to do.
  file.then(
    () => worker.terminate(),
    () => worker.terminate(),
  );
  send({ kind: 'start', format, title, headers });
  return {
    add: (rows) => send({ kind: 'rows', rows }),
    finish: () => {
      send({ kind: 'finish' });
      return file;
    },
    cancel: () => worker.terminate(),
  };
}

function onMainThread(format: 'xlsx' | 'csv', title: string, headers: string[]): ExportFile {
  // The writers load only when someone exports; rows wait here until they have.
  const chunks: Cell[][][] = [];
  return {
    add: (rows) => chunks.push(rows),
    finish: async () => {
      const { exportWriter } = await import('../export-files');
      const writer = exportWriter(format, title, headers);
      for (const rows of chunks) writer.add(rows);
      return writer.finish();
    },
    cancel: () => {
      chunks.length = 0;
    },
  };
}
