/**
 * The database layer's promises, the same on both databases: PGlite runs in a thread of its own and is
 * reached by messages, PostgreSQL through its driver's pool; PostgreSQL is the reference the embedded
 * one must behave like (run the file with TEST_DATABASE_URL for it).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite } from '../src/db/database.js';
import { openTestDatabase } from './helpers.js';

const run = promisify(execFile);
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await openTestDatabase());
  await db.exec(`
    create table t (id int primary key, name text not null, at timestamptz, data bytea, doc jsonb, big bigint);
    create table d (id int, constraint d_once unique (id) deferrable initially deferred);`);
});
afterAll(() => drop());

describe(`the database layer (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite in its thread'})`, () => {
  it('passes dates, bytes, JSON and arrays in and gives the same values back, counts as numbers', async () => {
    const at = new Date('2026-11-27T10:00:00.123Z');
    const data = Buffer.from([0, 1, 2, 250, 255]);
    await db.query('insert into t (id, name, at, data, doc, big) values ($1, $2, $3, $4, $5, $6)', [
      1,
      'one',
      at,
      data,
      { a: [1, 'x'], b: null },
      9_007_199_254_740_991,
    ]);
    const [row] = await db.query<{ at: Date; data: Uint8Array; doc: unknown; big: number; n: number }>(
      `select at, data, doc, big, (select count(*) from t where id < 10) as n from t where id = any($1::int[])`,
      [[1, 2]],
    );
    expect(row?.at).toBeInstanceOf(Date);
    expect(row?.at.toISOString()).toBe(at.toISOString());
    expect([...(row?.data ?? [])]).toEqual([...data]);
    expect(row?.doc).toEqual({ a: [1, 'x'], b: null });
    expect(row?.big).toBe(9_007_199_254_740_991);
    expect(row?.n).toBe(1);
  });

  it('gives a failed statement its SQLSTATE code and PostgreSQL message', async () => {
    await db.query(`insert into t (id, name) values (30, 'thirty')`);
    const failure = await db.query('insert into t (id, name) values (30, $1)', ['again']).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((failure as Error).message).toMatch(/duplicate key value violates unique constraint "t_pkey"/);
  });

  it('commits a transaction whole, and rolls it back whole when its work throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query(`insert into t (id, name) values (10, 'ten')`);
      await tx.query(`insert into t (id, name) values (11, 'eleven')`);
    });
    const thrown = await db
      .transaction(async (tx) => {
        await tx.query(`insert into t (id, name) values (12, 'twelve')`);
        throw new Error('changed my mind');
      })
      .catch((e: unknown) => e);
    expect((thrown as Error).message).toBe('changed my mind');
    const ids = await db.query<{ id: number }>('select id from t where id between 10 and 19 order by id');
    expect(ids.map((r) => r.id)).toEqual([10, 11]);
  });

  it('fails the transaction when its commit fails, and keeps nothing of it', async () => {
    const failure = await db
      .transaction(async (tx) => {
        await tx.query('insert into d (id) values (1)');
        await tx.query('insert into d (id) values (1)');
        return 'done';
      })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: '23505', constraint: 'd_once' });
    expect(await db.query('select * from d')).toEqual([]);
  });

  it('shows a statement outside a transaction only what was committed', async () => {
    let outside: Promise<{ n: number }[]> | undefined;
    await db.transaction(async (tx) => {
      await tx.query(`insert into t (id, name) values (20, 'twenty')`);
      outside = db.query<{ n: number }>('select count(*) as n from t where id = 20');
      await tx.query(`update t set name = 'twenty!' where id = 20`);
    });
    // PGlite runs one transaction at a time, so the statement waited for the commit; PostgreSQL's
    // read committed isolation saw the table as it was before it.
    const [seen] = (await outside) ?? [];
    expect([0, 1]).toContain(seen?.n);
    const [row] = await db.query<{ name: string }>('select name from t where id = 20');
    expect(row?.name).toBe('twenty!');
  });

  it('answers a statement run before as its tables are now, after they changed', async () => {
    // PGlite keeps statements it ran prepared; a changed table makes it prepare them again.
    await db.exec(`create table c (id int primary key, a text); insert into c values (1, 'x')`);
    const read = () => db.query('select * from c where id = $1', [1]);
    expect(await read()).toEqual([{ id: 1, a: 'x' }]);
    await db.exec(`alter table c add column b int default 7`);
    expect(await read()).toEqual([{ id: 1, a: 'x', b: 7 }]);
    await db.exec(`alter table c drop column a`);
    expect(await read()).toEqual([{ id: 1, b: 7 }]);
    await db.exec('drop table c; create table c (id int, z boolean)');
    await db.query('insert into c (id, z) values ($1, $2)', [1, true]);
    expect(await read()).toEqual([{ id: 1, z: true }]);
  });

  it('runs a statement first met in a transaction that was rolled back, and more statements than it keeps', async () => {
    const sql = `select name from t where id = $1 and name <> 'rolled back'`;
    await db.query(`insert into t (id, name) values (40, 'forty')`);
    await db
      .transaction(async (tx) => {
        expect(await tx.query(sql, [40])).toEqual([{ name: 'forty' }]);
        throw new Error('undo');
      })
      .catch(() => undefined);
    expect(await db.query(sql, [40])).toEqual([{ name: 'forty' }]);
    // Six hundred different statements (PGlite keeps five hundred), then the first again.
    for (let i = 0; i < 600; i++) {
      const [row] = await db.query<{ v: number }>(`select $1::int + ${i} as v`, [i]);
      expect(row?.v).toBe(2 * i);
    }
    expect(await db.query<{ v: number }>('select $1::int + 0 as v', [5])).toEqual([{ v: 5 }]);
    const [kept] = await db.query<{ n: number }>('select count(*) as n from pg_prepared_statements');
    expect(kept?.n).toBeLessThanOrEqual(500);
    expect(await db.query(sql, [40])).toEqual([{ name: 'forty' }]);
  });

  it("keeps a query that opens with a parenthesis prepared, as the overview's runs (a union of two)", async () => {
    await db.query(`insert into t (id, name) values (50, 'fifty'), (51, 'fifty-one')`);
    const sql = '(select name from t where id = $1) union all (select name from t where id = $2)';
    expect(await db.query(sql, [50, 51])).toEqual([{ name: 'fifty' }, { name: 'fifty-one' }]);
    const kept = await db.query<{ n: number }>(
      'select count(*)::int as n from pg_prepared_statements where statement = $1',
      [sql],
    );
    // PostgreSQL's pool prepares nothing by name.
    expect(kept).toEqual([{ n: process.env.TEST_DATABASE_URL ? 0 : 1 }]);
  });

  it('keeps statements of many callers apart when they run at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => db.query<{ v: number }>('select $1::int * 2 as v', [i])),
    );
    expect(results.map((rows) => rows[0]?.v)).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
  });
});

describe('PGlite in its thread', () => {
  it('refuses statements once closed, with a message that says so', async () => {
    const own = await openPglite();
    expect(await own.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
    await own.close();
    await expect(own.query('select 1')).rejects.toThrow(/database thread stopped/);
  });

  it('makes a new data directory in a thread that ends, then opens it; what was written is there again', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'portal-db-')), 'data');
    const first = await openPglite(dir);
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    await first.exec(`create table kept (id int primary key); insert into kept values (7)`);
    await first.close();
    const again = await openPglite(dir);
    expect(await again.query('select id from kept')).toEqual([{ id: 7 }]);
    // Its page cache is the smaller one set for the portal's memory aim.
    expect(await again.query('show shared_buffers')).toEqual([{ shared_buffers: '48MB' }]);
    await again.close();
    // Two database starts (initdb for the first): 5-10 s idle, 30 s when other suites share both cores.
  }, 90_000);

  it('copies a database from its dump: the rows are there, and the copy changes apart from the original', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'portal-db-')), 'dump.tar');
    const original = await openPglite();
    await original.exec(`create table kept (id int primary key); insert into kept values (1), (2)`);
    await original.dump(file);
    const copy = await openPglite(undefined, { from: file });
    expect(await copy.query('select id from kept order by id')).toEqual([{ id: 1 }, { id: 2 }]);
    await copy.exec('insert into kept values (3)');
    expect(await original.query<{ n: number }>('select count(*)::int as n from kept')).toEqual([{ n: 2 }]);
    expect(await copy.query('show shared_buffers')).toEqual([{ shared_buffers: '48MB' }]);
    await Promise.all([original.close(), copy.close()]);
    await expect(openPglite(join(tmpdir(), 'portal-no-dir'), { from: file })).rejects.toThrow(/in memory/);
  });

  it('keeps a process alive while a statement is under way, and lets it end once the database is idle', async () => {
    // The built module in a process of its own that never closes its database: it must print the
    // answer (the thread held the process while the statement ran) and then end by itself.
    const database = new URL('../dist/db/database.js', import.meta.url).href;
    const script = `const { openPglite } = await import(${JSON.stringify(database)});
      const db = await openPglite();
      const [row] = await db.query("select 'answered after ' || pg_sleep(0.3)::text || '300 ms' as said");
      console.log(row.said);`;
    const file = join(mkdtempSync(join(tmpdir(), 'portal-db-')), 'idle.mjs');
    writeFileSync(file, script);
    const started = performance.now();
    const { stdout } = await run(process.execPath, [file], { timeout: 30_000 });
    expect(stdout.trim()).toBe('answered after 300 ms');
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
