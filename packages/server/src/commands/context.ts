/** The context of an operator's command: the server's configuration and database, migrated. */
import { appendAudit } from '../audit/audit-log.js';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { createSecretBox } from '../crypto/secret-box.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrations.js';
import { createLogger } from '../log.js';
import { createMailer } from '../mail/mailer.js';

export async function openCommandContext(): Promise<AppContext> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const db = await openDatabase(config);
  await migrate(db);
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
      logLinks: false,
    }),
    audit: async (event, tx) => {
      if (tx) await appendAudit(tx, event, now());
      else await db.transaction((t) => appendAudit(t, event, now()));
    },
  };
}
