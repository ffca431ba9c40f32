/**
 * One data directory for every simulator the tests start without their own: its CA is made once
 * here, and the test processes (forked after this, with this environment) trust it through
 * NODE_EXTRA_CA_CERTS, as an integrator's process would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSimulatorDataDir } from '../src/server.js';

export default async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'm365-simulator-tests-'));
  const { caCertificatePath } = await prepareSimulatorDataDir(dataDir);
  process.env.M365_SIMULATOR_DATA_DIR = dataDir;
  process.env.NODE_EXTRA_CA_CERTS = caCertificatePath;
  return () => rmSync(dataDir, { recursive: true, force: true });
}
