/**
 * One data directory for every simulator a test starts without one of its own: its CA, certificate
 * and signing key are made once here, before the test processes are forked. They inherit this
 * environment, so each trusts that CA through NODE_EXTRA_CA_CERTS (read by Node at its start) and
 * each startSimulator() uses that directory (M365_SIMULATOR_DATA_DIR); so do the servers they spawn.
 *
 * Every simulator of the run also checks each JSON answer it gives against Microsoft Graph's
 * published v1.0 metadata (M365_SIMULATOR_VALIDATE) and leaves its figures in one directory; the
 * teardown prints their sum and fails the run on any mismatch.
 *
 * The databases the tests copy are made here too (database-templates.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  formatValidationSummary,
  prepareSimulatorDataDir,
  summariseValidation,
  VALIDATE_ENV,
  VALIDATION_DIR_ENV,
} from '@compliance-portal/m365-simulator';
import { prepareDatabaseTemplates } from './database-templates.js';

export default async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-test-simulator-'));
  const { caCertificatePath } = await prepareSimulatorDataDir(dataDir);
  const validationDir = join(dataDir, 'validation');
  mkdirSync(validationDir, { recursive: true });
  process.env.M365_SIMULATOR_DATA_DIR = dataDir;
  process.env.NODE_EXTRA_CA_CERTS = caCertificatePath;
  process.env[VALIDATE_ENV] = '1';
  process.env[VALIDATION_DIR_ENV] = validationDir;
  const dropTemplates = await prepareDatabaseTemplates();
  return async () => {
    await dropTemplates();
    const summary = summariseValidation(validationDir);
    rmSync(dataDir, { recursive: true, force: true });
    console.log(formatValidationSummary(summary));
    if (summary.answers === 0) throw new Error('No simulator answer was checked against the Graph metadata.');
    if (summary.mismatches > 0)
      throw new Error(`${summary.mismatches} simulator answers differ from the Graph metadata.`);
  };
}
