/**
 * Microsoft Graph v1.0 and the Entra ID token endpoint over the simulated tenants: Graph's JSON shapes,
 * paging with @odata.nextLink, delta links, error bodies, throttling with Retry-After, and writes
 * (uploads, upload sessions, folders, version restore and removal, mail import) that change the
 * tenant, so a test can read back what a job wrote. Transport-free: `handle` takes and gives plain
 * objects; `startSimulator` (server.ts) puts it on a port.
 */
import { directoryRoutes } from './graph/directory.js';
import { drivePathCall, driveRoutes, uploadFragment } from './graph/drives.js';
import { mailRoutes } from './graph/mail.js';
import { graphError, type SimRequest, type SimResponse } from './graph/odata.js';
import { type GraphContext, type GraphRoute, matchRoute, type UploadSession } from './graph/router.js';
import { teamsRoutes } from './graph/teams.js';
import { type IssuedToken, issueToken, openidConfiguration, type Registration } from './identity.js';
import { buildTenant, evolve, type SimTenant, type TenantSize } from './model.js';

export type { SimRequest, SimResponse } from './graph/odata.js';

export interface SimulatorOptions {
  /**
   * The tenants served, with their content sizes; other tenant ids are unknown to the simulator. With
   * `clientId` and `clientSecret`, a token is issued only to that application with that secret, as the
   * identity platform does; without them any application with any non-empty secret gets one.
   */
  tenants: { tenantId: string; clientId?: string; clientSecret?: string; size?: Partial<TenantSize> }[];
  /** Every this many ms each tenant changes a little (new and edited files, new mail and messages). */
  changeEveryMs?: number;
  /** Answer every n-th Graph request with 429 (0: never). */
  throttleEvery?: number;
  /** Retry-After seconds of a throttled answer. */
  retryAfter?: number;
  /** Items per page of a list or delta answer. */
  pageSize?: number;
  /** Base URL the simulator is reached at (for @odata.nextLink), without a trailing slash. */
  baseUrl?: string;
}

export interface SimulatorState {
  tenant(tenantId: string): SimTenant;
  /** Requests answered, throttled, and the most Graph requests in flight at once. */
  stats: { requests: number; throttled: number; inFlight: number; maxInFlight: number };
  setThrottle(every: number, retryAfter?: number): void;
  baseUrl: string;
}

const ROUTES: readonly GraphRoute[] = [...directoryRoutes, ...teamsRoutes, ...mailRoutes, ...driveRoutes];

export function createSimulatorHandler(options: SimulatorOptions) {
  const tenants = new Map<string, { model: SimTenant } & Registration>();
  for (const t of options.tenants) {
    tenants.set(t.tenantId.toLowerCase(), {
      model: buildTenant(t.tenantId.toLowerCase(), t.size),
      ...(t.clientId ? { clientId: t.clientId } : {}),
      ...(t.clientSecret ? { clientSecret: t.clientSecret } : {}),
    });
  }
  const tokens = new Map<string, IssuedToken>();
  let throttleEvery = options.throttleEvery ?? 0;
  let retryAfter = options.retryAfter ?? 0;
  const state: SimulatorState = {
    tenant(tenantId) {
      const t = tenants.get(tenantId.toLowerCase());
      if (!t) throw new Error(`the simulator does not serve tenant ${tenantId}`);
      return t.model;
    },
    stats: { requests: 0, throttled: 0, inFlight: 0, maxInFlight: 0 },
    setThrottle(every, after = 0) {
      throttleEvery = every;
      retryAfter = after;
    },
    baseUrl: options.baseUrl ?? '',
  };
  const context: GraphContext = {
    pageSize: options.pageSize ?? 200,
    baseUrl: () => state.baseUrl,
    sessions: new Map<string, UploadSession>(),
  };

  let timer: NodeJS.Timeout | undefined;
  if (options.changeEveryMs) {
    timer = setInterval(() => {
      for (const { model } of tenants.values()) {
        evolve(model, { newFiles: 2, editedFiles: 3, newMessages: 4, newChannelMessages: 2 });
      }
    }, options.changeEveryMs);
    timer.unref();
  }

  async function graph(request: SimRequest, tenant: SimTenant): Promise<SimResponse> {
    const path = request.path.replace(/^\/v1\.0/, '');
    const byPath = drivePathCall(request, tenant, path, context);
    if (byPath) return byPath;
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    const matched = matchRoute(ROUTES, request.method, segments);
    if (!matched) return graphError(400, 'BadRequest', `Resource not found for the segment '${segments[0] ?? ''}'.`);
    return matched.route.handle({ request, tenant, path, segments, params: matched.params, context });
  }

  async function handle(request: SimRequest): Promise<SimResponse> {
    const seg = request.path.split('/').filter(Boolean);
    if (seg[0] === 'login') {
      const tenantId = seg[1] ?? '';
      const rest = seg.slice(2).join('/');
      if (request.method === 'POST' && rest === 'oauth2/v2.0/token') {
        const form = new URLSearchParams(request.body.toString('utf8'));
        return issueToken(form, tenantId, tenants.get(tenantId.toLowerCase()), tokens);
      }
      if (request.method === 'GET' && rest === 'v2.0/.well-known/openid-configuration') {
        return openidConfiguration(`${state.baseUrl}/login`, tenantId);
      }
      return { status: 404, json: { error: 'not_found' } };
    }
    if (seg[0] === 'upload') {
      const tenant = tenants.get((seg[1] ?? '').toLowerCase());
      return tenant
        ? uploadFragment(request, tenant.model, seg[2] ?? '', context)
        : graphError(404, 'NotFound', 'Unknown path.');
    }
    if (seg[0] !== 'v1.0') return graphError(404, 'NotFound', 'Unknown path.');
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const session = bearer ? tokens.get(bearer) : undefined;
    if (!session || session.expires < Date.now()) {
      return graphError(401, 'InvalidAuthenticationToken', 'Access token is empty or invalid.');
    }
    state.stats.requests += 1;
    if (throttleEvery > 0 && state.stats.requests % throttleEvery === 0) {
      state.stats.throttled += 1;
      return graphError(429, 'TooManyRequests', 'Too many requests.', { 'retry-after': String(retryAfter) });
    }
    state.stats.inFlight += 1;
    state.stats.maxInFlight = Math.max(state.stats.maxInFlight, state.stats.inFlight);
    try {
      // A turn of the event loop, so that concurrent requests overlap as they do over a network.
      await new Promise((r) => setImmediate(r));
      return await graph(request, state.tenant(session.tenantId));
    } finally {
      state.stats.inFlight -= 1;
    }
  }

  return {
    handle,
    state,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
