// Azurite's blob service as a child process, for the tests (test/azurite.ts) and the object-store
// bench alike: on 127.0.0.1:`port`, its data in `location`, telemetry off, and the SDK's newer API
// version allowed (@azure/storage-blob 12.32 speaks a later one than Azurite 3.35, the last for
// Node 20, knows).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { spawnReady } from './spawn-ready.mjs';

/** Azurite's development account, the same in every installation (documented by Microsoft). */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

const require = createRequire(import.meta.url);
const main = join(require.resolve('azurite/package.json'), '..', 'dist', 'src', 'blob', 'main.js');

/**
 * Starts Azurite; resolves with its process once it listens (rejects if it ends first or takes 20 s).
 * It is killed when this process ends.
 */
export function spawnAzurite(port, location) {
  return spawnReady(
    'Azurite',
    [
      main,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(port),
      '--location',
      location,
      '--disableTelemetry',
      '--silent',
      '--skipApiVersionCheck',
    ],
    /successfully listens on/i,
  );
}
