/**
 * The tenant's connection to Microsoft 365: the connection test (a token, the application permissions
 * it carries against those the portal's areas need, and one real Graph call) and user synchronisation
 * (the tenant's accounts read again into discovery, with what changed).
 */
import {
  type ConnectionTestResult,
  errorTexts,
  type MissingPermission,
  type SyncUsersResult,
} from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { dataPlaneOf, graphConnectionFor } from '../../jobs/data-plane.js';
import { diagnose } from '../../m365/diagnosis.js';
import type { GraphApi } from '../../m365/graph-api.js';
import { createGraphApi } from '../../m365/graph-client.js';
import { missingPermissions, tokenRoles } from '../../m365/permissions.js';
import { createTokenSource } from '../../m365/token.js';
import { refreshDiscovery } from '../discovery/service.js';
import type { TenantRecord } from '../tenants/repository.js';
import { learnDefaultDomain } from '../tenants/service.js';
import { discoveredUserIds } from './repository.js';

const SYNC_FAILED = 'Failures to synchronize users';

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
 * ok, and beside the reason when Graph refused the call too. Once the connection works, `connected`
 * reads more through it; that neither counts in the latency nor may fail the test.
 */
async function testConnection(
  ctx: AppContext,
  probe: () => Promise<ConnectionProbe>,
  connected: (graph: GraphApi) => Promise<void>,
): Promise<ConnectionTestResult> {
  const started = Date.now();
  let missing: MissingPermission[] = [];
  const answer = (result: Pick<ConnectionTestResult, 'ok' | 'message' | 'failure'>): ConnectionTestResult => ({
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
    const works = answer({ ok: true });
    await connected(graph);
    return works;
  } catch (error) {
    // What can fail it is the token or the page of users: the domain read after cannot.
    const failure = diagnose(error, 'connectionTest', ['User.Read.All']);
    return answer({ ok: false, message: errorTexts[failure.code](), failure });
  }
}

/**
 * The connection test as `actor` runs it from the configuration page: a token asked for now, the test,
 * and its audit entry (`tenant.connectionTest`, with the problem, its cause and the permissions found
 * missing),
 * which the overview's first-run guide reads. A connection that works also reads the tenant's default
 * domain again (the header names the tenant by it); a failure there is logged, not reported.
 */
export async function runConnectionTest(
  ctx: AppContext,
  actor: Actor,
  tenant: TenantRecord,
): Promise<ConnectionTestResult> {
  const result = await testConnection(
    ctx,
    () => openProbe(ctx, tenant),
    (graph) => learnDefaultDomain(ctx, tenant, graph),
  );
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
            ...(result.failure ? { code: result.failure.code } : {}),
            ...(missing ? { missingPermissions: missing } : {}),
          },
        }
      : {}),
  });
  return result;
}

/**
 * The tenant's accounts read again into discovery (OneDrive and Exchange), with how many were added
 * and removed since the last read. A tenant Graph cannot be read for is a 502 "Failures to synchronize
 * users" with the cause (its code, text and Microsoft's details).
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
    const failure = diagnose(error, 'userSync');
    throw new HttpError(502, SYNC_FAILED, {
      detail: errorTexts[failure.code](),
      code: failure.code,
      microsoft365: failure,
    });
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
