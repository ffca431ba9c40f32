/** The context a process runs on (the server, an operator's command): its real clock, mailer, key and audit log. */
import { appendAudit } from './audit/audit-log.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { createSecretBox } from './crypto/secret-box.js';
import type { Database } from './db/database.js';
import type { createLogger } from './log.js';
import { createMailer } from './mail/mailer.js';

export function createAppContext(config: Config, db: Database, log: ReturnType<typeof createLogger>): AppContext {
  const now = () => new Date();
  return {
    config,
    db,
    log,
    now,
    secrets: createSecretBox(config.secretKey),
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      log,
      // Mailed links are logged in demo mode only (no mailer is set up there).
      logLinks: config.demo,
    }),
    audit: async (event, tx) => {
      if (tx) await appendAudit(tx, event, now());
      else await db.transaction((t) => appendAudit(t, event, now()));
    },
  };
}
