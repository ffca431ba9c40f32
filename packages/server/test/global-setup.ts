/**
 * One data directory for every simulator a test starts without one of its own: its CA, certificate
 * and signing key are made once here, before the test processes are forked. They inherit this
 * environment, so each trusts that CA through NODE_EXTRA_CA_CERTS (read by Node at its start) and
 * each startSimulator() uses that directory (M365_SIMULATOR_DATA_DIR); so do the servers they spawn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSimulatorDataDir } from '@compliance-portal/m365-simulator';

export default async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-test-simulator-'));
  const { caCertificatePath } = await prepareSimulatorDataDir(dataDir);
  process.env.M365_SIMULATOR_DATA_DIR = dataDir;
  process.env.NODE_EXTRA_CA_CERTS = caCertificatePath;
  return () => rmSync(dataDir, { recursive: true, force: true });
}
