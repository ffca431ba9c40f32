// Encrypts the blobs stored before encryption at rest, or verifies them:
// `pnpm --filter @compliance-portal/server blobs:encrypt [--limit=N]` and `… blobs:encrypt --verify`,
// with the server's DATABASE_URL, data directory, PORTAL_SECRET_KEY and PORTAL_BLOB_STORE. Safe to
// stop and run again; exits 1 when a blob could not be read.
import { createDataPlane } from '../jobs/data-plane.js';
import { encryptStoredBlobs, verifyStoredBlobs } from '../jobs/encrypt-blobs.js';
import { openCommandContext } from './context.js';

const ctx = await openCommandContext();
const limit = process.argv.find((a) => a.startsWith('--limit='))?.slice('--limit='.length);
try {
  const plane = createDataPlane(ctx);
  if (process.argv.includes('--verify')) {
    const report = await verifyStoredBlobs(ctx, plane);
    console.log(
      `blobs encrypted: ${report.encrypted}; in the clear: ${report.plain}; unreadable: ${report.failed.length}`,
    );
    for (const f of report.failed) console.error(`${f.hash}: ${f.reason}`);
    if (report.failed.length > 0) process.exitCode = 1;
  } else {
    const report = await encryptStoredBlobs(ctx, plane, limit ? { limit: Number(limit) } : {});
    console.log(
      `blobs encrypted now: ${report.encrypted}; encrypted before: ${report.already}; unreadable: ${report.failed.length}`,
    );
    for (const f of report.failed) console.error(`${f.hash}: ${f.reason}`);
    if (report.failed.length > 0) process.exitCode = 1;
  }
} finally {
  await ctx.db.close();
}
