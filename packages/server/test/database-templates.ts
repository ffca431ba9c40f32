/**
 * The databases every test copies instead of making its own: an empty one (PGlite only: initdb takes
 * seconds on a small machine, copying a dump under one) and a migrated one (the schema of every
 * migration, for the test servers). Made once by global-setup.ts, before the test processes are
 * forked; they find them through the environment they inherit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../src/db/migrations.js';
import { makeScratchTemplate, type ScratchTemplate } from '../src/db/scratch.js';

const ENV = { empty: 'PORTAL_TEST_DATABASE_EMPTY', migrated: 'PORTAL_TEST_DATABASE_MIGRATED' } as const;

export type TemplateKind = keyof typeof ENV;

/** The template of this kind, when global-setup.ts made one (a test run alone without it makes its own database). */
export function databaseTemplate(kind: TemplateKind): ScratchTemplate | undefined {
  return process.env[ENV[kind]] || undefined;
}

/** Makes the templates for the database of TEST_DATABASE_URL (PGlite without it); returns their removal. */
export async function prepareDatabaseTemplates(): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  const dir = mkdtempSync(join(tmpdir(), 'portal-test-databases-'));
  const made: { drop: () => Promise<void> }[] = [];
  // PostgreSQL makes an empty database in milliseconds: only PGlite's is worth a template.
  if (!url) {
    const empty = await makeScratchTemplate(undefined, dir, async () => undefined);
    made.push(empty);
    process.env[ENV.empty] = empty.template;
  }
  const migrated = await makeScratchTemplate(url, dir, async (db) => {
    await migrate(db);
  });
  made.push(migrated);
  process.env[ENV.migrated] = migrated.template;
  return async () => {
    for (const template of made) await template.drop();
    rmSync(dir, { recursive: true, force: true });
  };
}
