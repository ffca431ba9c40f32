import type { FastifyBaseLogger } from 'fastify';
import type { AuditEvent } from './audit/audit-log.js';
import type { Config } from './config.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Database, Queryable } from './db/database.js';
import type { Mailer } from './mail/mailer.js';

/** What every module works with; tests build it with an in-memory database, a fake clock and mailer. */
export interface AppContext {
  config: Config;
  db: Database;
  mailer: Mailer;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  now: () => Date;
  /** Appends to the audit log inside `tx` when given, else in a transaction of its own. */
  audit: (event: AuditEvent, tx?: Queryable) => Promise<void>;
}
