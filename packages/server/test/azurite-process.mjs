// Azurite's blob service as a child process, for the tests (test/azurite.ts) and the object-store
// bench alike: on 127.0.0.1:`port`, its data in `location`, telemetry off, and the SDK's newer API
// version allowed (@azure/storage-blob 12.32 speaks a later one than Azurite 3.35, the last for
// Node 20, knows).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Azurite's development account, the same in every installation (documented by Microsoft). */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

const require = createRequire(import.meta.url);
const main = join(require.resolve('azurite/package.json'), '..', 'dist', 'src', 'blob', 'main.js');

/**
 * Starts Azurite; resolves with its process once it listens (rejects if it ends first or takes 20 s).
 * It is killed when this process ends.
 */
export async function spawnAzurite(port, location) {
  const child = spawn(
    process.execPath,
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
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Azurite did not listen within 20 s: ${output}`)), 20_000);
    const read = (chunk) => {
      output += chunk.toString();
      if (/successfully listens on/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Azurite ended (${code}) before it listened: ${output}`));
    });
  });
  return child;
}
