/** The context of an operator's command: the server's configuration and database, migrated. */
import { createAppContext } from '../app-context.js';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrations.js';
import { createLogger } from '../log.js';

export async function openCommandContext(): Promise<AppContext> {
  const config = loadConfig();
  const db = await openDatabase(config);
  await migrate(db);
  return createAppContext(config, db, createLogger(config.logLevel));
}
