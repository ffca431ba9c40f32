// Verifies the audit log's hash chain: `pnpm --filter @compliance-portal/server audit:verify`.
// Exits 0 when intact, 1 with the first broken entry otherwise.
import { openDatabase } from '../db/database.js';
import { prepareProcess } from '../process-start.js';
import { verifyAuditChain } from './audit-log.js';

const { config, warnings } = prepareProcess();
for (const warning of warnings) console.error(warning);
const db = await openDatabase(config);
try {
  const report = await verifyAuditChain(db);
  if (report.ok) {
    console.log(`audit log intact: ${report.entries} entries`);
  } else {
    console.error(
      `audit log broken at entry ${report.brokenAt}: ${report.reason} (${report.entries} entries verified before it)`,
    );
    process.exitCode = 1;
  }
} finally {
  await db.close();
}
