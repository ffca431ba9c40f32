// Points a tenant at the Microsoft 365 of another cloud (its identity platform and Graph), or back at
// Microsoft's global one:
// `pnpm --filter @compliance-portal/server tenant:endpoints <tenant id> <authority host> <Graph base URL> --yes`,
// `pnpm --filter @compliance-portal/server tenant:endpoints <tenant id> --microsoft --yes`.
import { endpointProblem, setTenantEndpoints } from '../modules/tenants/endpoints.js';
import { openCommandContext } from './context.js';

const GUID = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const [tenantId, authorityHost, graphBaseUrl, ...extra] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const microsoft = process.argv.includes('--microsoft');
const wellFormed =
  tenantId !== undefined &&
  GUID.test(tenantId) &&
  extra.length === 0 &&
  (microsoft ? authorityHost === undefined : graphBaseUrl !== undefined);
if (!wellFormed || !process.argv.includes('--yes')) {
  console.error(
    "Usage: tenant:endpoints <tenant id> <authority host> <Graph base URL> --yes (the tenant's identity platform and Graph, e.g. https://login.partner.microsoftonline.cn https://microsoftgraph.chinacloudapi.cn/v1.0)\n" +
      "       tenant:endpoints <tenant id> --microsoft --yes (back to Microsoft's global ones: https://login.microsoftonline.com, https://graph.microsoft.com/v1.0)",
  );
  process.exit(2);
}
const problems = microsoft
  ? []
  : [
      endpointProblem('The authority host', authorityHost ?? ''),
      endpointProblem('The Graph base URL', graphBaseUrl ?? ''),
    ];
for (const problem of problems) if (problem) console.error(problem);
if (problems.some(Boolean)) process.exit(2);

const ctx = await openCommandContext();
try {
  const endpoints = microsoft ? null : { authorityHost: authorityHost ?? '', graphBaseUrl: graphBaseUrl ?? '' };
  if (await setTenantEndpoints(ctx, tenantId, endpoints)) {
    console.log(
      endpoints
        ? `Tenant ${tenantId} now signs in at ${endpoints.authorityHost} and reads Microsoft Graph at ${endpoints.graphBaseUrl}.`
        : `Tenant ${tenantId} now uses Microsoft's global endpoints.`,
    );
  } else {
    console.error(`No tenant ${tenantId}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await ctx.db.close();
}
