import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from './database.js';

/**
 * What a scratch database can be copied from, made once by makeScratchTemplate: for PGlite the file
 * of a dumped database, for PostgreSQL the name of a template database on the same server.
 */
export type ScratchTemplate = string;

const uniqueName = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '')}`;

/** Runs `work` with a connection to the server of `url` (its maintenance database). */
async function onServer(url: string, work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * A database to throw away (tests, benchmarks): in-memory PGlite, or a fresh database on the
 * PostgreSQL server of `url`, dropped by `drop()`. With a `template` (makeScratchTemplate's), the new
 * database starts as a copy of it: a PGlite copy skips initdb, seconds each time on a small machine.
 */
export async function openScratchDatabase(
  url: string | undefined,
  prefix = 'portal_scratch',
  template?: ScratchTemplate,
): Promise<{ db: Database; drop: () => Promise<void>; url?: string }> {
  if (!url) {
    const db = await openPglite(undefined, template ? { from: template } : {});
    return { db, drop: () => db.close() };
  }
  const name = uniqueName(prefix);
  await onServer(url, (admin) => admin.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  const target = databaseUrl(url, name);
  const db = await openPostgres(target, 8);
  return {
    db,
    url: target,
    drop: async () => {
      await db.close();
      await onServer(url, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * A database made by `prepare` once, for openScratchDatabase to copy: on PGlite, dumped to a file in
 * `dir`; on the PostgreSQL server of `url`, a template database, dropped by `drop()`.
 */
export async function makeScratchTemplate(
  url: string | undefined,
  dir: string,
  prepare: (db: Database) => Promise<void>,
): Promise<{ template: ScratchTemplate; drop: () => Promise<void> }> {
  if (!url) {
    const db = await openPglite();
    const file = join(dir, `${uniqueName('template')}.tar`);
    try {
      await prepare(db);
      await db.dump(file);
    } finally {
      await db.close();
    }
    return { template: file, drop: async () => undefined };
  }
  const name = uniqueName('portal_template');
  await onServer(url, (admin) => admin.query(`create database ${name}`));
  const db = await openPostgres(databaseUrl(url, name), 2);
  try {
    await prepare(db);
  } finally {
    // A template is copied only while nobody is connected to it.
    await db.close();
  }
  return {
    template: name,
    drop: () => onServer(url, (admin) => admin.query(`drop database if exists ${name} with (force)`)),
  };
}
