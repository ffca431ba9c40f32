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
 *   | { id: number; op: 'dump'; path: string }
 *   | { id: number; op: 'close' }} Request
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';

// The data directory's files are their owner's only (the process's umask of 0o077), but PGlite's
// emulated file system sets the mode of every file it creates with chmod, which no umask restrains:
// its tables, WAL and settings came out 0666. Its chmod calls go through this thread's `fs` (the
// module object, read at each call), so they are made owner-only here.
const OTHERS = 0o077;
const chmodSync = fs.chmodSync;
const fchmodSync = fs.fchmodSync;
fs.chmodSync = (path, mode) => chmodSync(path, typeof mode === 'number' ? mode & ~OTHERS : mode);
fs.fchmodSync = (fd, mode) => fchmodSync(fd, typeof mode === 'number' ? mode & ~OTHERS : mode);

const port = parentPort;
if (!port) throw new Error('pglite-thread.mjs runs as a worker thread');

/** @type {{ dataDir?: string; createOnly?: boolean; from?: string }} */
const options = workerData ?? {};
// PostgreSQL's page cache inside the WebAssembly memory: 48 MB instead of 128. The files' pages stay
// in the system's cache besides. bench:data-plane at full scale: the process's peak 564 -> 481 MB
// (aim 500); search over 100,000 mails p50 427 -> 439 ms, mail archive 1,388 -> 1,246 mails/s (one run each).
const SHARED_BUFFERS = '48MB';
const db = await PGlite.create({
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  // A copy of a database dumped before (the `dump` request): no initdb, which takes seconds.
  ...(options.from ? { loadDataDir: new Blob([fs.readFileSync(options.from)]) } : {}),
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
});
if (options.createOnly) {
  // Only the new data directory was wanted (database.ts): the thread ends, and what initdb left in
  // memory ends with it.
  await db.close();
  process.exit(0);
}

/**
 * The open transactions by id: the statement runner of each, how to end it (true: commit) and its
 * outcome (a failed commit rejects it).
 * @typedef {{ query: PGlite['query']; rollback: () => Promise<void> }} Runner
 * @type {Map<number, { tx: Runner; end: (commit: boolean) => void; done: Promise<void> }>}
 */
const open = new Map();

/**
 * Statements the portal runs again and again are prepared once, by name, and then only bound and
 * executed: PGlite's own `query` parses, describes and plans the text every time, in six calls into
 * WebAssembly, where a prepared statement takes one (bind, describe, execute and sync together) and
 * PostgreSQL keeps its plan. Planning alone is about 0.6 ms of a 1 ms lookup by key in WebAssembly.
 * Only data statements of bounded size are kept, the least recently used beyond `KEPT` are closed.
 */
const KEPT = 500;
// A query may open with parentheses: `(select …) union all (select …)`.
const PREPARABLE = /^[\s(]*(select|insert|update|delete|with)\b/i;
/** @type {Map<string, { name: string; types: number[] }>} */
const prepared = new Map();
let named = 0;
const { serialize } = protocol;
/** SQLSTATEs after which a kept statement is prepared again: it was dropped, or its tables changed. */
const STALE = new Set(['26000', '0A000']);

/** The messages joined into one buffer: PostgreSQL reads them in order in one call. */
function joined(/** @type {Uint8Array[]} */ parts) {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Sends `parts`; the answer's messages, or its error (with the statement, as PGlite's `query` gives it). */
async function exchange(/** @type {Uint8Array[]} */ parts, /** @type {string} */ sql) {
  const messages = await db.execProtocolStream(joined(parts), { syncToFs: false, throwOnError: false });
  const error = messages.find((m) => m instanceof Error);
  if (error) throw Object.assign(error, { query: sql });
  return messages;
}

/** Closes a kept statement (closing one PostgreSQL no longer has is no error). */
const closeStatement = (/** @type {string} */ name, /** @type {string} */ sql) =>
  exchange([serialize.close({ type: 'S', name }), serialize.sync()], sql);

/** Runs `sql` as a kept statement, inside the open transaction or outside any. */
async function runPrepared(/** @type {string} */ sql, /** @type {unknown[]} */ params, inTransaction = false) {
  const once = async () => {
    let statement = prepared.get(sql);
    if (statement) {
      prepared.delete(sql);
      prepared.set(sql, statement);
    } else {
      const name = `portal_${++named}`;
      const described = await exchange(
        [serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()],
        sql,
      );
      statement = { name, types: parse.parseDescribeStatementResults(described) };
      prepared.set(sql, statement);
      // The map is in order of use: its first entry is the least recently used.
      const [oldest] = prepared;
      if (prepared.size > KEPT && oldest) {
        prepared.delete(oldest[0]);
        await closeStatement(oldest[1].name, sql);
      }
    }
    const types = statement.types;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[types[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await exchange(
      [
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ],
      sql,
    );
    if (!inTransaction) await db.syncToFs();
    return parse.parseResults(messages, db.parsers)[0] ?? { rows: [] };
  };
  const exclusive = async () => {
    try {
      return await once();
    } catch (error) {
      // Prepared again once when PostgreSQL no longer has it as it was.
      const stale = prepared.get(sql);
      if (!stale || !STALE.has(/** @type {{ code?: string }} */ (error).code ?? '')) throw error;
      prepared.delete(sql);
      await closeStatement(stale.name, sql);
      return once();
    }
  };
  // The same locks as PGlite's own statements: one statement at a time, none inside another's transaction.
  return inTransaction ? db.runExclusive(exclusive) : db._runExclusiveTransaction(() => db.runExclusive(exclusive));
}

const preparable = (/** @type {string} */ sql, /** @type {unknown[]} */ params) =>
  params.length <= 100 && sql.length <= 20_000 && PREPARABLE.test(sql);

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
      if (preparable(request.sql, request.params))
        return normalise((await runPrepared(request.sql, request.params, request.tx !== undefined)).rows);
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
    case 'dump': {
      const dumped = await db.dumpDataDir('none');
      fs.writeFileSync(request.path, Buffer.from(await dumped.arrayBuffer()), { mode: 0o600 });
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
