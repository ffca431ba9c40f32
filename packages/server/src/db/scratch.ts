import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from './database.js';

/**
 * A database to throw away (tests, benchmarks): in-memory PGlite, or a fresh database on the
 * PostgreSQL server of `url`, dropped by `drop()`.
 */
export async function openScratchDatabase(
  url: string | undefined,
  prefix = 'portal_scratch',
): Promise<{ db: Database; drop: () => Promise<void>; url?: string }> {
  if (!url) {
    const db = await openPglite();
    return { db, drop: () => db.close() };
  }
  const name = `${prefix}_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openPostgres(target.toString(), 8);
  return {
    db,
    url: target.toString(),
    drop: async () => {
      await db.close();
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
