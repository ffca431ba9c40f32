// Seals the documents stored in the clear before encryption at rest, or verifies them:
// `pnpm --filter @compliance-portal/server documents:encrypt [--limit=N]` and `… documents:encrypt --verify`,
// with the server's DATABASE_URL, data directory and PORTAL_SECRET_KEY (or PORTAL_SECRET_KEY_FILE),
// the server stopped. Safe to stop and run again; exits 1 when a document could not be read.
import { encryptStoredDocuments, verifyStoredDocuments } from '../modules/files/encrypt-documents.js';
import { openCommandContext } from './context.js';

const ctx = await openCommandContext();
const limit = process.argv.find((a) => a.startsWith('--limit='))?.slice('--limit='.length);
try {
  if (process.argv.includes('--verify')) {
    const report = await verifyStoredDocuments(ctx);
    console.log(
      `documents encrypted: ${report.encrypted}; in the clear: ${report.plain}; unreadable: ${report.failed.length}; files no document refers to: ${report.leftovers}`,
    );
    for (const f of report.failed) console.error(`${f.documentId}: ${f.reason}`);
    if (report.failed.length > 0) process.exitCode = 1;
  } else {
    const report = await encryptStoredDocuments(ctx, limit ? { limit: Number(limit) } : {});
    console.log(
      `documents encrypted now: ${report.encrypted}; encrypted before: ${report.already}; unreadable: ${report.failed.length}; files no document refers to removed: ${report.leftovers}`,
    );
    for (const f of report.failed) console.error(`${f.documentId}: ${f.reason}`);
    if (report.failed.length > 0) process.exitCode = 1;
  }
} finally {
  await ctx.db.close();
}
