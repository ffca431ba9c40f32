// @ts-check
/**
 * The embedded database in a thread of its own: PGlite (PostgreSQL compiled to WebAssembly) runs its
 * statements and parses their answers here, so that the process's main thread keeps serving HTTP
 * while a query runs. database.ts talks to it by messages (`Request` below); each answer carries the
 * request's id. Plain JavaScript, so that the same file runs under the tests (from src) and the build
 * (copied to dist).
 *
 * @typedef {{ id: number; op: 'query'; sql: string; params: unknown[]; tx?: number }
 *   | { id: number; op: 'exec'; sql: string }
 *   | { id: number; op: 'begin' }
 *   | { id: number; op: 'end'; tx: number; commit: boolean }
 *   | { id: number; op: 'close' }} Request
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-thread.mjs runs as a worker thread');

/** @type {{ dataDir?: string }} */
const options = workerData ?? {};
const db = await PGlite.create(options.dataDir ? { dataDir: options.dataDir } : {});

/**
 * The open transactions by id: the statement runner of each, how to end it (true: commit) and its
 * outcome (a failed commit rejects it).
 * @typedef {{ query: PGlite['query']; rollback: () => Promise<void> }} Runner
 * @type {Map<number, { tx: Runner; end: (commit: boolean) => void; done: Promise<void> }>}
 */
const open = new Map();

/** PGlite answers int8 as bigint; the pg driver is set to numbers. Both give the same rows. */
function normalise(/** @type {Record<string, unknown>[]} */ rows) {
  for (const row of rows)
    for (const [key, value] of Object.entries(row)) if (typeof value === 'bigint') row[key] = Number(value);
  return rows;
}

/** An error as plain data: a clone of an Error keeps only its message, and the SQLSTATE code matters. */
function plain(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { message: String(error) };
  /** @type {Record<string, unknown>} */
  const data = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error))
    if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
  return data;
}

/** Runs one request; its answer (or its error) goes back with its id. */
async function handle(/** @type {Request} */ request) {
  switch (request.op) {
    case 'query': {
      const runner = request.tx === undefined ? db : open.get(request.tx)?.tx;
      if (!runner) throw new Error(`transaction ${request.tx} is not open`);
      return normalise((await runner.query(request.sql, request.params)).rows);
    }
    case 'exec':
      await db.exec(request.sql);
      return null;
    case 'begin':
      return begin(request.id);
    case 'end': {
      const transaction = open.get(request.tx);
      if (!transaction) throw new Error(`transaction ${request.tx} is not open`);
      open.delete(request.tx);
      transaction.end(request.commit);
      await transaction.done;
      return null;
    }
    case 'close':
      await db.close();
      return null;
  }
}

/**
 * Opens a transaction and answers with its id once it holds the database (other statements wait
 * until it ends); the `end` request with that id commits or rolls it back.
 */
function begin(/** @type {number} */ id) {
  /** @type {(commit: boolean) => void} */
  let end = () => undefined;
  /** @type {Promise<boolean>} */
  const decided = new Promise((resolve) => {
    end = resolve;
  });
  return new Promise((opened, failed) => {
    const done = db.transaction(async (tx) => {
      open.set(id, { tx, end, done });
      opened(id);
      if (!(await decided)) await tx.rollback();
    });
    // Before it opened, a failure is the begin's; after, the end's (which awaits `done`).
    done.catch(failed);
  });
}

port.on('message', (/** @type {Request} */ request) => {
  handle(request).then(
    (rows) => port.postMessage({ id: request.id, rows }),
    (error) => port.postMessage({ id: request.id, error: plain(error) }),
  );
});
port.postMessage({ id: 0, rows: null });
