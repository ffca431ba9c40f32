/**
 * What every process of the server does first (the server, each operator command): files and folders
 * it makes are its owner's only, the data directory included, and its configuration is read or the
 * process stops with the one message that says what to set.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { type Config, loadConfig } from './config.js';

/**
 * Everything the process creates (PGlite's files, generated keys, the outbox, documents, blobs,
 * restores, the demo simulator's keys and certificates) is made 0600 and folders 0700, whatever
 * mode the code making them asks for: one umask instead of a mode at every call.
 */
const OWNER_ONLY = 0o077;

/**
 * Sets the owner-only umask, reads the configuration and tightens the data directory itself to 0700
 * (one made by an earlier version, or by hand, may be open to the group or others; what lies below it
 * is then out of their reach whatever its own mode). A configuration the server refuses ends the
 * process with exit code 1 and its message alone. `warnings` are for the process's log, at every start.
 */
export function prepareProcess(): { config: Config; warnings: string[] } {
  process.umask(OWNER_ONLY);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const warnings: string[] = [];
  try {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    chmodSync(config.dataDir, 0o700);
  } catch (error) {
    warnings.push(`The data directory ${config.dataDir} could not be made owner-only: ${(error as Error).message}`);
  }
  if (config.secretKeyInDataDir && !config.demo) {
    warnings.push(
      `The secret key is kept in the data directory (${config.dataDir}) it protects, as PORTAL_SECRET_KEY_IN_DATA_DIR=allow says: anyone with a copy of the directory can open its secrets and data keys. Give the key as PORTAL_SECRET_KEY or PORTAL_SECRET_KEY_FILE, outside the data directory.`,
    );
  }
  return { config, warnings };
}
