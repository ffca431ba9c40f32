import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
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

/** PGlite: PostgreSQL compiled to WebAssembly, in-process, files in `dataDir` (memory when undefined). */
export async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  const parse = <T>(rows: unknown[]): T[] => rows.map((row) => normaliseRow(row as Record<string, unknown>)) as T[];
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return parse<T>((await db.query(sql, params as unknown[])).rows);
    },
    transaction(work) {
      return db.transaction((tx) =>
        work({
          async query<T>(sql: string, params: readonly unknown[] = []) {
            return parse<T>((await tx.query(sql, params as unknown[])).rows);
          },
        }),
      );
    },
    async exec(sql) {
      await db.exec(sql);
    },
    close: () => db.close(),
  };
}

/** PGlite answers int8 as bigint; the pg driver is set to numbers. Both give the same rows. */
function normaliseRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(row)) if (typeof value === 'bigint') row[key] = Number(value);
  return row;
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
