// Binds a Microsoft Entra tenant to an organisation as proved by the operator, taking it from the
// organisation that had it, or releases it:
// `pnpm --filter @compliance-portal/server entra:reassign <tenant id> <organisation id> --yes`,
// `pnpm --filter @compliance-portal/server entra:reassign <tenant id> --release --yes`.
import { reassignEntraTenant } from '../modules/identity/entra-reassign.js';
import { counted } from '../words.js';
import { openCommandContext } from './context.js';

const GUID = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const [tenantId, organisationId, ...extra] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const releasing = process.argv.includes('--release');
const wellFormed =
  tenantId !== undefined &&
  GUID.test(tenantId) &&
  extra.length === 0 &&
  (releasing ? organisationId === undefined : organisationId !== undefined);
if (!wellFormed || !process.argv.includes('--yes')) {
  console.error(
    'Usage: entra:reassign <Entra tenant id> <organisation id> --yes (binds the tenant to the organisation, taking it from any other)\n' +
      '       entra:reassign <Entra tenant id> --release --yes (unbinds it)\n' +
      "The organisation that loses the tenant signs in with passwords again, and its members' links to Microsoft accounts end.",
  );
  process.exit(2);
}
const ctx = await openCommandContext();
try {
  const result = await reassignEntraTenant(ctx, tenantId, releasing ? null : (organisationId ?? null));
  switch (result.outcome) {
    case 'bound': {
      const from = result.releasedFrom;
      console.log(
        [
          `Entra tenant ${tenantId} bound to organisation ${result.organisation.id} (${result.organisation.name}) as proved by the operator; sign-in with Microsoft is on for it.`,
          from
            ? `Released from organisation ${from.id} (${from.name}): sign-in with Microsoft off, password sign-in on, ${counted(from.unlinked, 'member')} unlinked from their Microsoft accounts.`
            : 'No other organisation had it bound.',
          `Pending claims of it ended: ${result.pendingEnded}.`,
        ].join('\n'),
      );
      break;
    }
    case 'alreadyBound':
      console.log(
        `Entra tenant ${tenantId} is already bound to organisation ${result.organisation.id} (${result.organisation.name}); nothing changed.`,
      );
      break;
    case 'released':
      console.log(
        `Entra tenant ${tenantId} released from organisation ${result.organisation.id} (${result.organisation.name}): sign-in with Microsoft off, password sign-in on, ${counted(result.organisation.unlinked, 'member')} unlinked from their Microsoft accounts.`,
      );
      break;
    case 'notBound':
      console.error(`No organisation has the Entra tenant ${tenantId} bound; nothing changed.`);
      process.exitCode = 1;
      break;
    case 'noOrganisation':
      console.error(`No organisation ${organisationId}`);
      process.exitCode = 1;
      break;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await ctx.db.close();
}
