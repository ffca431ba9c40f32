import type { Cell } from '../export-files';

/** What the page sends the export worker: the file to write, then its rows chunk by chunk, then the end. */
export type ToExportWorker =
  | { kind: 'start'; format: 'xlsx' | 'csv'; title: string; headers: string[] }
  | { kind: 'rows'; rows: Cell[][] }
  | { kind: 'finish' };

/** What the export worker answers once, after `finish` or a failure. */
export type FromExportWorker = { kind: 'file'; blob: Blob } | { kind: 'failed'; message: string };
