import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';

export type SqlValue = string | number | boolean | null | Date | Buffer | Uint8Array | readonly unknown[] | object;

/** The part of a connection that runs statements: the database itself or one transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

// Counts and sums come back as bigint text from PostgreSQL; the portal's figures fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

type ThreadRequest =
  | { op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { op: 'exec'; sql: string }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump'; path: string }
  | { op: 'close' };
type ThreadAnswer = { id: number; rows: unknown; error?: undefined } | { id: number; error: Record<string, unknown> };

/**
 * A new PGlite data directory, made by initdb in a thread that then ends. initdb leaves about 450 MB
 * in the memory of the thread that ran it (measured: a process that made a new directory holds 763 MB,
 * one that opened the finished directory 291 MB); made apart, that memory goes with its thread.
 */
async function createPgliteDirectory(dataDir: string): Promise<void> {
  const thread = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { dataDir, createOnly: true },
  });
  // `once` rejects with the thread's error, should it fail before it exits.
  const [code] = (await once(thread, 'exit')) as [number];
  if (code !== 0) throw new Error(`making the database directory ${dataDir} failed (exit code ${code})`);
}

/** An embedded database, which can also be written whole to a file (for openPglite's `from`). */
export interface PgliteDatabase extends Database {
  dump(path: string): Promise<void>;
}

/**
 * PGlite: PostgreSQL compiled to WebAssembly, files in `dataDir` (memory when undefined). It runs in
 * a thread of its own (pglite-thread.mjs): its statements and the parsing of their answers (most of
 * a read's time) leave the main thread free for HTTP, so a request waiting for the database does not
 * hold up the others, and the process uses a second core. `from`: a file written by `dump()`, copied
 * into a new database in memory instead of running initdb (seconds on a small machine).
 */
export async function openPglite(dataDir?: string, options: { from?: string } = {}): Promise<PgliteDatabase> {
  if (dataDir) {
    if (options.from) throw new Error('a database copied from a dump lives in memory: no dataDir');
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await createPgliteDirectory(dataDir);
  }
  const thread = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { dataDir, ...(options.from ? { from: options.from } : {}) },
  });
  const pending = new Map<number, { resolve: (rows: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  let stopped: Error | undefined;
  // The thread keeps the process alive only while a statement is under way, as an in-process database would.
  thread.unref();
  thread.on('message', (answer: ThreadAnswer) => {
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    if (pending.size === 0) thread.unref();
    if (answer.error) waiting.reject(Object.assign(new Error(String(answer.error.message)), answer.error));
    else waiting.resolve(answer.rows);
  });
  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiting of pending.values()) waiting.reject(stopped);
    pending.clear();
  };
  thread.on('error', stop);
  thread.on('exit', (code) => stop(new Error(`the database thread stopped (exit code ${code})`)));
  const call = (request: ThreadRequest) =>
    new Promise<unknown>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = next++;
      if (pending.size === 0) thread.ref();
      pending.set(id, { resolve, reject });
      thread.postMessage({ ...request, id });
    });
  // The thread answers id 0 once the database is open.
  await new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: () => resolve(), reject });
    thread.ref();
  });
  const query = async <T>(sql: string, params: readonly unknown[] = [], tx?: number) =>
    (await call({ op: 'query', sql, params: [...params], ...(tx === undefined ? {} : { tx }) })) as T[];
  return {
    kind: 'pglite',
    query: (sql, params) => query(sql, params),
    async transaction(work) {
      const tx = (await call({ op: 'begin' })) as number;
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work({ query: (sql, params) => query(sql, params, tx) });
      } catch (error) {
        // A broken thread cannot roll back; the original error is the one worth reporting.
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async exec(sql) {
      await call({ op: 'exec', sql });
    },
    async dump(path) {
      await call({ op: 'dump', path });
    },
    async close() {
      if (!stopped) await call({ op: 'close' });
      await thread.terminate();
    },
  };
}

/** A PostgreSQL server through a connection pool. */
export async function openPostgres(
  connectionString: string,
  max = 10,
  onIdleError?: (error: Error) => void,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max });
  // An idle connection the server closes (restart, terminate) must not crash the process: the pool
  // drops it and opens a new one on the next query.
  pool.on('error', (error) => onIdleError?.(error));
  await pool.query('select 1');
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return (await pool.query(sql, params as unknown[])).rows as T[];
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work({
          async query<T>(sql: string, params: readonly unknown[] = []) {
            return (await client.query(sql, params as unknown[])).rows as T[];
          },
        });
        await client.query('commit');
        return result;
      } catch (error) {
        // A broken connection cannot roll back; the original error is the one worth reporting.
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

export function openDatabase(
  options: { databaseUrl?: string | undefined; dataDir?: string | undefined },
  onIdleError?: (error: Error) => void,
) {
  return options.databaseUrl ? openPostgres(options.databaseUrl, 10, onIdleError) : openPglite(options.dataDir);
}
