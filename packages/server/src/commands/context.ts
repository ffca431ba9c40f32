/** The context of an operator's command: the server's configuration and database, migrated. */
import { createAppContext } from '../app-context.js';
import type { AppContext } from '../context.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrations.js';
import { createLogger } from '../log.js';
import { prepareProcess } from '../process-start.js';

export async function openCommandContext(): Promise<AppContext> {
  const { config, warnings } = prepareProcess();
  for (const warning of warnings) console.error(warning);
  const db = await openDatabase(config);
  await migrate(db);
  return createAppContext(config, db, createLogger(config.logLevel));
}
