/**
 * The operator's word on where a tenant's Microsoft 365 is (`tenant:endpoints`): its identity
 * platform (authority host) and Microsoft Graph base URL, for a tenant in another cloud than
 * Microsoft's global one (Microsoft 365 operated by 21Vianet, US Government clouds) or a test double,
 * or back to Microsoft's global endpoints. The API never sets them: an administrator's tenant form
 * names a tenant, not a server for the portal's server to talk to. Audited with the command as the
 * actor, in the change's transaction.
 */
import { type M365Cloud, MICROSOFT_CLOUD } from '../../config.js';
import type { AppContext } from '../../context.js';
import { storeEndpoints } from './repository.js';

const OPERATOR = 'operator (tenant:endpoints)';

/** A tenant's endpoints: both, or null for Microsoft's global ones. */
type TenantEndpoints = { authorityHost: string; graphBaseUrl: string } | null;

/**
 * What a tenant connected now keeps as its endpoints (consent and the tenant form alike): those of the
 * Microsoft cloud the server is configured for (PORTAL_M365_AUTHORITY, PORTAL_M365_GRAPH), each null
 * where it is Microsoft's global one, as `tenant:endpoints` stores them.
 */
export function configuredEndpoints(cloud: M365Cloud): { authorityUrl: string | null; graphBaseUrl: string | null } {
  return {
    authorityUrl: cloud.authority === MICROSOFT_CLOUD.authority ? null : cloud.authority,
    graphBaseUrl: cloud.graph === MICROSOFT_CLOUD.graph ? null : `${cloud.graph}/v1.0`,
  };
}

/** An https address without credentials, query or fragment; the reason when it is not one. */
export function endpointProblem(name: string, value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${name} is not an address: ${value}`;
  }
  if (url.protocol !== 'https:') return `${name} must be an https address: ${value}`;
  if (url.username || url.password || url.search || url.hash)
    return `${name} may not carry credentials, a query or a fragment: ${value}`;
  return undefined;
}

/** Sets the tenant's endpoints; false when there is no such tenant. */
export async function setTenantEndpoints(
  ctx: AppContext,
  tenantIdGiven: string,
  endpoints: TenantEndpoints,
): Promise<boolean> {
  const tenantId = tenantIdGiven.trim().toLowerCase();
  const authority = endpoints ? endpoints.authorityHost.replace(/\/+$/, '') : null;
  const graph = endpoints ? endpoints.graphBaseUrl.replace(/\/+$/, '') : null;
  return ctx.db.transaction(async (tx) => {
    const organisationId = await storeEndpoints(
      tx,
      tenantId,
      { authorityUrl: authority, graphBaseUrl: graph },
      ctx.now(),
    );
    if (organisationId === undefined) return false;
    await ctx.audit(
      {
        actorEmail: OPERATOR,
        organisationId,
        action: 'tenant.endpoints',
        target: tenantId,
        outcome: 'success',
        details: { authorityHost: authority ?? 'microsoft', graphBaseUrl: graph ?? 'microsoft' },
      },
      tx,
    );
    return true;
  });
}
