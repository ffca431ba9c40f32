// Rotates PORTAL_SECRET_KEY: `PORTAL_SECRET_KEY=<new> PORTAL_SECRET_KEY_PREVIOUS=<old>
// pnpm --filter @compliance-portal/server secrets:rotate`, with the same DATABASE_URL or data
// directory as the server (stopped, or every process restarted with the new key right after).
// Exits 1 when a value neither key opens is left.
import { parseKey } from '../config.js';
import { rotateSecrets } from '../crypto/rotation.js';
import { createSecretBox } from '../crypto/secret-box.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrations.js';
import { prepareProcess } from '../process-start.js';

const previousKey = process.env.PORTAL_SECRET_KEY_PREVIOUS;
if (!previousKey || !(process.env.PORTAL_SECRET_KEY || process.env.PORTAL_SECRET_KEY_FILE)) {
  console.error(
    'Set PORTAL_SECRET_KEY (or PORTAL_SECRET_KEY_FILE) to the new key and PORTAL_SECRET_KEY_PREVIOUS to the one it replaces.',
  );
  process.exit(2);
}
const { config, warnings } = prepareProcess();
for (const warning of warnings) console.error(warning);
const db = await openDatabase(config);
try {
  await migrate(db);
  const report = await rotateSecrets(
    db,
    createSecretBox(parseKey(previousKey, 'PORTAL_SECRET_KEY_PREVIOUS')),
    createSecretBox(config.secretKey),
  );
  console.log(
    `secrets rewrapped with the new key: ${report.rewrapped}; already under it: ${report.current}; unreadable: ${report.unreadable.length}`,
  );
  for (const row of report.unreadable) console.error(`neither key opens: ${row}`);
  if (report.unreadable.length > 0) process.exitCode = 1;
} finally {
  await db.close();
}
