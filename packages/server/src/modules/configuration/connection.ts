/**
 * The tenant's connection to Microsoft 365: the connection test (a token and one real Graph call)
 * and user synchronisation (the tenant's accounts read again into discovery, with what changed).
 */
import type { ConnectionTestResult, SyncUsersResult } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { type GraphApi, GraphError } from '../../m365/graph-api.js';
import { refreshDiscovery } from '../discovery/service.js';
import type { TenantRecord } from '../tenants/repository.js';

export const SYNC_FAILED = 'Failures to synchronize users';

/** The identity platform's own description inside an MSAL error text, without its boilerplate. */
function description(message: string): string {
  const found = /Description:\s*(.*?)\s*-\s*(Correlation ID|Trace ID|Timestamp)/.exec(message);
  return (found?.[1] ?? message).trim();
}

/** What went wrong reaching Microsoft 365, in words an administrator can act on. */
export function connectionProblem(error: unknown): string {
  if (error instanceof GraphError) {
    if (error.status === 401) {
      const said = description(error.message);
      if (/invalid_tenant|AADSTS90002|AADSTS900023/i.test(error.message))
        return `Microsoft 365 does not know this tenant ID: check the tenant ID (${said}).`;
      if (/AADSTS7000215|AADSTS7000222|invalid client secret/i.test(error.message))
        return `The client secret was refused (wrong or expired): enter the app registration's current secret (${said}).`;
      if (/unauthorized_client|AADSTS700016/i.test(error.message))
        return `The application (client) ID is not known in this tenant: check the application ID (${said}).`;
      return `The app registration was refused (${said}): check the application (client) ID, the client secret and the tenant ID.`;
    }
    if (error.status === 403)
      return `Microsoft Graph refused access (${error.code}): grant the app registration its application permissions and admin consent.`;
    if (error.status === 404) return `Microsoft Graph does not know this tenant (${error.code}).`;
    return `Microsoft Graph answered ${error.status} (${error.code}): ${error.message}`;
  }
  return `Microsoft 365 could not be reached: ${error instanceof Error ? error.message : String(error)}`;
}

export async function testConnection(ctx: AppContext, connect: () => Promise<GraphApi>): Promise<ConnectionTestResult> {
  const started = Date.now();
  try {
    const graph = await connect();
    // One page of users: needs a token and the directory read permission.
    for await (const _user of graph.users()) break;
    return { ok: true, latencyMs: Date.now() - started, checkedAt: ctx.now().toISOString() };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Date.now() - started,
      message: connectionProblem(error),
      checkedAt: ctx.now().toISOString(),
    };
  }
}

export async function syncUsers(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
): Promise<SyncUsersResult> {
  const before = new Set(
    (
      await ctx.db.query<{ source_id: string }>(
        "select source_id from discovered_sources where tenant_id = $1 and application = 'onedrive'",
        [tenant.tenantId],
      )
    ).map((r) => r.source_id),
  );
  const ids = new Set<string>();
  try {
    const graph = await connect();
    for await (const user of graph.users()) if (user.id) ids.add(user.id);
  } catch (error) {
    ctx.log.warn({ err: error, tenantId: tenant.tenantId }, 'user synchronisation failed');
    throw new HttpError(502, SYNC_FAILED, { detail: connectionProblem(error) });
  }
  for (const application of ['onedrive', 'exchange'] as const)
    await refreshDiscovery(ctx, connect, tenant, application, { force: true });
  return {
    tenantId: tenant.tenantId,
    synchronized: ids.size,
    added: [...ids].filter((id) => !before.has(id)).length,
    removed: before.size === 0 ? 0 : [...before].filter((id) => !ids.has(id)).length,
    finished: ctx.now().toISOString(),
  };
}
