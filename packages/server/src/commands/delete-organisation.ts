// Deletes an organisation for good, its data key first (crypto-shredding), then its data, and
// collects its blobs: `pnpm --filter @compliance-portal/server organisation:delete <id> --yes`.
import { createDataPlane } from '../jobs/data-plane.js';
import { deleteOrganisation } from '../modules/organisations/deletion.js';
import { counted } from '../words.js';
import { openCommandContext } from './context.js';

const [organisationId] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!organisationId || !process.argv.includes('--yes')) {
  console.error('Usage: organisation:delete <organisation id> --yes (its data cannot be read again afterwards)');
  process.exit(2);
}
const ctx = await openCommandContext();
try {
  const result = await deleteOrganisation(ctx, createDataPlane(ctx), organisationId);
  console.log(
    `organisation ${organisationId} deleted: its key destroyed, ${counted(result.tenants, 'tenant')}, ${counted(result.items, 'item')}, ${counted(result.blobs, 'blob')} collected, ${counted(result.documents, 'document')} removed`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await ctx.db.close();
}
