import type { Database } from './database.js';
import { migration as m001 } from './migrations/001-identity.js';
import { migration as m003 } from './migrations/003-archive.js';
import { migration as m004 } from './migrations/004-jobs.js';
import { migration as m005 } from './migrations/005-version-cleanup.js';
import { migration as m006 } from './migrations/006-run-sources.js';
import { migration as m007 } from './migrations/007-discovery.js';
import { migration as m008 } from './migrations/008-run-source-names.js';
import { migration as m009 } from './migrations/009-proxy-rights.js';
import { migration as m010 } from './migrations/010-ediscovery-cases.js';
import { migration as m011 } from './migrations/011-teams-chats.js';
import { migration as m012 } from './migrations/012-documents.js';
import { migration as m013 } from './migrations/013-support-requests.js';
import { migration as m015 } from './migrations/015-storage-usage.js';
import { migration as m016 } from './migrations/016-audit-actor.js';
import { migration as m017 } from './migrations/017-read-indexes.js';
import { migration as m018 } from './migrations/018-usage-totals.js';
import { migration as m019 } from './migrations/019-location-stores.js';
import { migration as m020 } from './migrations/020-rate-limits.js';
import { migration as m021 } from './migrations/021-organisation-keys.js';
import { migration as m022 } from './migrations/022-legal-hold.js';
import { migration as m023 } from './migrations/023-entra-sign-in.js';
import { migration as m024 } from './migrations/024-entra-tenant-proof.js';
import { migration as m025 } from './migrations/025-ediscovery-custodians.js';
import { migration as m026 } from './migrations/026-unique-names-and-sign-in-failures.js';
import { migration as m027 } from './migrations/027-tenant-consent.js';
import { migration as m028 } from './migrations/028-active-tenants-and-location-probes.js';
import { migration as m029 } from './migrations/029-user-administration.js';
import { migration as m030 } from './migrations/030-run-figures.js';
import { migration as m031 } from './migrations/031-run-retries.js';
import { migration as m032 } from './migrations/032-archive-deletions.js';
import { migration as m033 } from './migrations/033-teams-reply-to.js';
import { migration as m034 } from './migrations/034-tenant-default-domain.js';
import { migration as m035 } from './migrations/035-fleet-indexes.js';
import { migration as m036 } from './migrations/036-notification-sends.js';
import { migration as m037 } from './migrations/037-fair-claims.js';
import { migration as m038 } from './migrations/038-site-lists-and-pages.js';
import { migration as m039 } from './migrations/039-mailbox-items.js';
import { migration as m040 } from './migrations/040-event-search.js';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/**
 * Ordered, append-only: a released migration is never edited, a change is a new file in
 * ./migrations with the next id, listed here.
 */
const migrations: readonly Migration[] = [
  m001,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
  m027,
  m028,
  m029,
  m030,
  m031,
  m032,
  m033,
  m034,
  m035,
  m036,
  m037,
  m038,
  m039,
  m040,
];

/**
 * Applies the migrations not yet applied, each in its own transaction, serialised by an advisory lock;
 * with `through`, only those up to that id (a database as an earlier release left it, for tests of a
 * migration's treatment of existing rows).
 */
export async function migrate(db: Database, { through = Number.POSITIVE_INFINITY } = {}): Promise<number[]> {
  await db.exec(
    'create table if not exists schema_migrations (id integer primary key, name text not null, applied_at timestamptz not null default now())',
  );
  // What is recorded as applied stays applied: only the others are looked at again under the lock.
  const recorded = new Set(
    (await db.query<{ id: number }>('select id from schema_migrations')).map((row) => Number(row.id)),
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.id > through) break;
    if (recorded.has(migration.id)) continue;
    const done = await db.transaction(async (tx) => {
      // Two servers starting on one PostgreSQL database must not both migrate.
      await tx.query('select pg_advisory_xact_lock(72361)');
      const rows = await tx.query('select 1 from schema_migrations where id = $1', [migration.id]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('insert into schema_migrations (id, name) values ($1, $2)', [migration.id, migration.name]);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

/**
 * The statements of a migration: split where a semicolon ends a line, except inside a dollar-quoted
 * body (a function's), whose own statements end lines too.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  sql.split('$$').forEach((part, i) => {
    if (i % 2 === 1) {
      current += `$$${part}$$`;
      return;
    }
    const [first = '', ...rest] = part.split(/;\s*\n/);
    current += first;
    for (const piece of rest) {
      statements.push(current);
      current = piece;
    }
  });
  statements.push(current);
  return statements.map((s) => s.trim()).filter(Boolean);
}
