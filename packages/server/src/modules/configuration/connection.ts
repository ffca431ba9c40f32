/**
 * The tenant's connection to Microsoft 365: the connection test (a token, the application permissions
 * it carries against those the portal's areas need, and one real Graph call) and user synchronisation
 * (the tenant's accounts read again into discovery, with what changed).
 */
import type { ConnectionTestResult, MissingPermission, SyncUsersResult } from '@compliance-portal/sdk';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { dataPlaneOf, graphConnectionFor } from '../../jobs/data-plane.js';
import { type GraphApi, GraphError } from '../../m365/graph-api.js';
import { createGraphApi } from '../../m365/graph-client.js';
import { missingPermissions, tokenRoles } from '../../m365/permissions.js';
import { createTokenSource } from '../../m365/token.js';
import { refreshDiscovery } from '../discovery/service.js';
import type { Actor } from '../jobs/service.js';
import type { TenantRecord } from '../tenants/repository.js';
import { discoveredUserIds } from './repository.js';

const SYNC_FAILED = 'Failures to synchronize users';

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

/** What the connection test works with: an app-only token for Graph and Graph reached with it. */
interface ConnectionProbe {
  token: string;
  graph: GraphApi;
}

/**
 * A token asked for now, and Graph reached with it. Not the data plane's client: its token is cached
 * for up to an hour with the roles it was issued with, and a permission granted a minute ago must show.
 */
async function openProbe(ctx: AppContext, tenant: TenantRecord): Promise<ConnectionProbe> {
  const connection = graphConnectionFor(ctx, tenant);
  const token = await createTokenSource(connection).token();
  const graph = createGraphApi(connection, {
    tokens: { token: async () => token },
    maxRetries: 2,
    maxRetryDelayMs: 2000,
  });
  return { token, graph };
}

/**
 * A token, the permissions its `roles` lack for the portal's areas, and one page of users (a real
 * Graph call). Missing permissions do not fail a connection that works: they come as a warning beside
 * ok, and beside the reason when Graph refused the call too.
 */
async function testConnection(ctx: AppContext, probe: () => Promise<ConnectionProbe>): Promise<ConnectionTestResult> {
  const started = Date.now();
  let missing: MissingPermission[] = [];
  const answer = (result: { ok: boolean; message?: string }): ConnectionTestResult => ({
    ...result,
    latencyMs: Date.now() - started,
    checkedAt: ctx.now().toISOString(),
    ...(missing.length > 0 ? { missingPermissions: missing } : {}),
  });
  try {
    const { token, graph } = await probe();
    const roles = tokenRoles(token);
    // A token that is not a readable JWT says nothing of its permissions: nothing is reported missing.
    if (roles) missing = missingPermissions(roles);
    // One page of users: the connection test's own permission.
    for await (const _user of graph.users()) break;
    return answer({ ok: true });
  } catch (error) {
    return answer({ ok: false, message: connectionProblem(error) });
  }
}

/**
 * The connection test as `actor` runs it from the configuration page: a token asked for now, the test,
 * and its audit entry (`tenant.connectionTest`, with the problem and the permissions found missing),
 * which the overview's first-run guide reads.
 */
export async function runConnectionTest(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
): Promise<ConnectionTestResult> {
  const result = await testConnection(ctx, () => openProbe(ctx, tenant));
  const missing = result.missingPermissions?.map((m) => m.permission);
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'tenant.connectionTest',
    target: tenant.tenantId,
    outcome: result.ok ? 'success' : 'failure',
    ...(result.message || missing
      ? {
          details: {
            ...(result.message ? { message: result.message } : {}),
            ...(missing ? { missingPermissions: missing } : {}),
          },
        }
      : {}),
  });
  return result;
}

/**
 * The tenant's accounts read again into discovery (OneDrive and Exchange), with how many were added
 * and removed since the last read. A tenant Graph cannot be read for is a 502 with the reason.
 */
async function syncUsers(
  ctx: AppContext,
  connect: () => Promise<GraphApi>,
  tenant: TenantRecord,
): Promise<SyncUsersResult> {
  const before = new Set(await discoveredUserIds(ctx.db, tenant.tenantId));
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

/**
 * User synchronisation as `actor` starts it from the configuration page, through the data plane's
 * Graph client, and its audit entry (`users.sync`, with the figures).
 */
export async function runUserSync(ctx: AppContext, actor: Actor, tenant: TenantRecord): Promise<SyncUsersResult> {
  const result = await syncUsers(ctx, () => dataPlaneOf(ctx).graph(tenant, { interactive: true }), tenant);
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action: 'users.sync',
    target: tenant.tenantId,
    outcome: 'success',
    details: { synchronized: result.synchronized, added: result.added, removed: result.removed },
  });
  return result;
}
