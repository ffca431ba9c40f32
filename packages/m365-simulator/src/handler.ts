/**
 * Microsoft Graph v1.0 and the Entra ID token endpoint over the simulated tenants: Graph's JSON shapes,
 * paging with @odata.nextLink, delta links, error bodies, throttling with Retry-After, JSON batches
 * (`POST /v1.0/$batch`, each request inside answered through the same dispatch), and writes
 * (uploads, upload sessions, folders, version restore and removal, mail import) that change the
 * tenant, so a test can read back what a job wrote. Paths as Microsoft's, on one origin: Graph under
 * /v1.0, the identity platform under /{tenantId}, upload sessions under /upload, and the control
 * endpoint under /_simulator. Transport-free: `handle` takes and gives plain objects;
 * `startSimulator` (server.ts) puts it on an https port.
 */
import { randomBytes } from 'node:crypto';
import { type ConsentableApp, createAdminConsent } from './admin-consent.js';
import { CONTROL_PREFIX, controlRequest, Throttle, type ThrottleSetting, throttleSetting } from './control.js';
import { answerBatch } from './graph/batch.js';
import { uploadFragment } from './graph/drives.js';
import { graphError, type SimRequest, type SimResponse } from './graph/odata.js';
import type { GraphContext, UploadSession } from './graph/router.js';
import { createGraphService, DEFAULT_PAGE_SIZE } from './graph/service.js';
import {
  issueToken,
  type MultiTenantApp,
  type MultiTenantApps,
  openidConfiguration,
  type Registration,
  signingKeys,
  type TokenFault,
} from './identity.js';
import type { ValidationState } from './metadata/validation.js';
import { buildTenant, evolve, type SimTenant, type TenantSize } from './model.js';
import { ALL_APPLICATION_PERMISSIONS, type GraphAccess } from './permissions.js';
import { createSignIn, type IdTokenFault, type SignInApp } from './sign-in.js';
import { ephemeralTokenKeys, GRAPH_AUDIENCE, type TokenKeys, verifyToken } from './tokens.js';

export type { SimRequest, SimResponse } from './graph/odata.js';

export interface SimulatorOptions {
  /**
   * The tenants served, with their content sizes; other tenant ids are unknown to the simulator. With
   * `clientId` and `clientSecret`, a token is issued only to that application with that secret, as the
   * identity platform does; without them any application with any non-empty secret gets one.
   * `consent`: the application permissions granted (the tokens' `roles`), ALL_APPLICATION_PERMISSIONS
   * by default. For the admin consent endpoint, the app registration (with `clientId`) has
   * `redirectUris`, asks for `applicationPermissions` (what a consent grants; `consent` by default)
   * and is shown as `appDisplayName`.
   */
  tenants: {
    tenantId: string;
    clientId?: string;
    clientSecret?: string;
    size?: Partial<TenantSize>;
    consent?: readonly string[];
    redirectUris?: readonly string[];
    applicationPermissions?: readonly string[];
    appDisplayName?: string;
  }[];
  /**
   * Multi-tenant app registrations published outside the tenants served (a partner's, a vendor's): a
   * tenant's administrator consents to one through the admin consent endpoint, and only then does the
   * token endpoint issue it tokens for that tenant, with the permissions consented to.
   */
  multiTenantApps?: readonly MultiTenantApp[];
  /** Every this many ms each tenant changes a little (new and edited files, new mail and messages, dated then). */
  changeEveryMs?: number;
  /** Answer every n-th Graph request with 429 (0: never); `throttle` says more and wins. */
  throttleEvery?: number;
  /** Retry-After seconds of a throttled answer. */
  retryAfter?: number;
  /** Throttling at start: every n-th request on the paths matched, with 429 or 503 and Retry-After. */
  throttle?: Partial<ThrottleSetting>;
  /** Items per page of a list or delta answer when the client asks no `$top` (5 by default, so that lists page). */
  pageSize?: number;
  /**
   * Check every JSON answer against Graph v1.0's published metadata (also M365_SIMULATOR_VALIDATE=1);
   * the figures are in `state.validation`, and in M365_SIMULATOR_VALIDATION_DIR when set.
   */
  validate?: boolean;
  /** Origin the simulator is reached at (for links it returns), without a trailing slash. */
  baseUrl?: string;
  /** The key access tokens are signed with; one kept in memory when absent. */
  tokenKeys?: TokenKeys;
  /** What the control endpoint's x-simulator-control header must carry; random when absent. */
  controlKey?: string;
  /**
   * Web applications registered for user sign-in (OpenID Connect, authorization code with PKCE), each
   * usable in every tenant served, as a multi-tenant app consented there is.
   */
  signInApps?: readonly SignInApp[];
  /** The password every simulated user signs in with on the sign-in page; without one it asks only for the account. */
  userPassword?: string;
}

export interface SimulatorState {
  tenant(tenantId: string): SimTenant;
  /**
   * Graph requests answered (a `$batch` counts as one: one round trip), throttled (requests inside a
   * batch included), the most in flight at once, and the requests answered inside batches.
   */
  stats: { requests: number; throttled: number; inFlight: number; maxInFlight: number; batched: number };
  /** Every n-th Graph request from now on (0: none) answered with `status` (429) and Retry-After. */
  setThrottle(every: number, retryAfter?: number, options?: { status?: 429 | 503; paths?: string }): void;
  /** The throttling in force. */
  readonly throttle: ThrottleSetting;
  /**
   * Grants the tenant's app registration these application permissions (the `roles` of its next
   * tokens; tokens issued before keep theirs, as Entra ID's do). Graph routes refuse a token holding
   * none of the permissions Microsoft documents for them (see ROUTE_PERMISSIONS).
   */
  setConsent(tenantId: string, roles: readonly string[]): void;
  consent(tenantId: string): string[];
  /**
   * Makes the token endpoint refuse the tenant's client credentials as Entra ID does for `fault`
   * (its AADSTS code: 7000215, 7000222, 700016, 90002, 65001) until set back to `none`.
   */
  setTokenFault(tenantId: string, fault: TokenFault): void;
  /** The origin links are built on, e.g. https://localhost:8444. */
  baseUrl: string;
  /** Answers and properties checked against Graph's metadata, and the mismatches (null unless validating). */
  readonly validation: ValidationState | null;
  /** How the next ID tokens of user sign-in are made wrong, for a relying party's tests (`none`: right). */
  idTokenFault: IdTokenFault;
  /** Tokens the token endpoint issued so far, per grant type. */
  readonly grants: Readonly<Record<GrantType, number>>;
  /**
   * Ends every refresh token issued so far, as 90 days without use would (Entra ID's default lifetime,
   * theirs here too): redeeming one is then refused with AADSTS700082. Answers how many were good.
   */
  expireRefreshTokens(): number;
}

/** The token endpoint's grant types: an app's own (client credentials), and a signed-in user's. */
const GRANT_TYPES = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** A served tenant: its content, its own app registration and what the admin consent endpoint knows of that app. */
type ServedTenant = { model: SimTenant } & Registration & {
    redirectUris: readonly string[];
    applicationPermissions: readonly string[];
    appDisplayName: string;
  };

export function createSimulatorHandler(options: SimulatorOptions) {
  const tenants = new Map<string, ServedTenant>();
  for (const t of options.tenants) {
    const consent = [...(t.consent ?? ALL_APPLICATION_PERMISSIONS)];
    tenants.set(t.tenantId.toLowerCase(), {
      model: buildTenant(t.tenantId.toLowerCase(), t.size),
      ...(t.clientId ? { clientId: t.clientId } : {}),
      ...(t.clientSecret ? { clientSecret: t.clientSecret } : {}),
      consent,
      redirectUris: [...(t.redirectUris ?? [])],
      applicationPermissions: [...(t.applicationPermissions ?? consent)],
      appDisplayName: t.appDisplayName ?? `App ${t.clientId ?? ''}`.trim(),
    });
  }
  // Per tenant, the multi-tenant apps consented to and their permissions (their service principals).
  const servicePrincipals = new Map<string, Map<string, readonly string[]>>();
  const multiTenant: MultiTenantApps = {
    app: (clientId) => options.multiTenantApps?.find((a) => a.clientId === clientId),
    consented: (tenantId, clientId) => servicePrincipals.get(tenantId.toLowerCase())?.get(clientId),
  };
  const servedTenant = (idOrDomain: string) => {
    const key = idOrDomain.toLowerCase();
    return tenants.get(key) ?? [...tenants.values()].find((t) => t.model.domain.toLowerCase() === key);
  };
  const adminConsent = createAdminConsent({
    tenant: (idOrDomain) => servedTenant(idOrDomain)?.model,
    app(clientId): ConsentableApp | undefined {
      const shared = multiTenant.app(clientId);
      if (shared) return { ...shared, homeTenantId: undefined };
      const home = [...tenants.values()].find((t) => t.clientId !== undefined && t.clientId === clientId);
      if (!home) return undefined;
      return {
        clientId,
        displayName: home.appDisplayName,
        homeTenantId: home.model.tenantId,
        redirectUris: home.redirectUris,
        applicationPermissions: home.applicationPermissions,
      };
    },
    grant(tenantId, app) {
      const tenant = registration(tenantId);
      if (app.homeTenantId !== undefined) {
        tenant.consent = [...app.applicationPermissions];
        return;
      }
      const granted = servicePrincipals.get(tenant.model.tenantId) ?? new Map<string, readonly string[]>();
      granted.set(app.clientId, [...app.applicationPermissions]);
      servicePrincipals.set(tenant.model.tenantId, granted);
    },
    ...(options.userPassword ? { userPassword: options.userPassword } : {}),
  });
  const registration = (tenantId: string) => {
    const t = tenants.get(tenantId.toLowerCase());
    if (!t) throw new Error(`the simulator does not serve tenant ${tenantId}`);
    return t;
  };
  const tokenKeys = options.tokenKeys ?? ephemeralTokenKeys();
  const signIn = createSignIn({
    apps: options.signInApps ?? [],
    ...(options.userPassword ? { userPassword: options.userPassword } : {}),
    tenant: (tenantId) => tenants.get(tenantId.toLowerCase())?.model,
    keys: tokenKeys,
    origin: () => state.baseUrl,
  });
  const controlKey = options.controlKey ?? randomBytes(24).toString('base64url');
  const grants: Record<GrantType, number> = { client_credentials: 0, authorization_code: 0, refresh_token: 0 };
  const throttle = new Throttle(
    throttleSetting({ every: options.throttleEvery ?? 0, retryAfter: options.retryAfter ?? 0, ...options.throttle }),
  );
  const state: SimulatorState = {
    tenant: (tenantId) => registration(tenantId).model,
    stats: { requests: 0, throttled: 0, inFlight: 0, maxInFlight: 0, batched: 0 },
    setThrottle(every, retryAfter = 0, more = {}) {
      throttle.set(throttleSetting({ every, retryAfter, ...more }));
    },
    get throttle() {
      return throttle.setting;
    },
    setConsent(tenantId, roles) {
      registration(tenantId).consent = [...roles];
    },
    consent: (tenantId) => [...registration(tenantId).consent],
    setTokenFault(tenantId, fault) {
      registration(tenantId).tokenFault = fault;
    },
    baseUrl: options.baseUrl ?? '',
    get validation() {
      return graphService.validation;
    },
    get idTokenFault() {
      return signIn.fault;
    },
    set idTokenFault(fault) {
      signIn.fault = fault;
    },
    grants,
    expireRefreshTokens: () => signIn.expireRefreshTokens(),
  };
  const context: GraphContext = {
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    baseUrl: () => state.baseUrl,
    sessions: new Map<string, UploadSession>(),
  };
  const graphService = createGraphService(context, {
    validate: options.validate,
    tenant: (tenantId) => tenants.get(tenantId.toLowerCase())?.model,
  });

  let timer: NodeJS.Timeout | undefined;
  if (options.changeEveryMs) {
    timer = setInterval(() => {
      for (const { model } of tenants.values()) {
        evolve(model, {
          newFiles: 2,
          editedFiles: 3,
          newMessages: 4,
          newChannelMessages: 2,
          at: new Date().toISOString(),
        });
      }
    }, options.changeEveryMs);
    timer.unref();
  }

  /** Throttling as set, counted over Graph requests and upload fragments alike. */
  function throttled(request: SimRequest): SimResponse | undefined {
    const refusal = throttle.check(request.path);
    if (refusal) state.stats.throttled += 1;
    return refusal;
  }

  /**
   * The tenant a Graph request's bearer token was issued for and who calls with it (an app with its
   * `roles`, or a user of the tenant with the delegated `scp`, which marks a user's token), or Graph's 401.
   */
  function authenticate(request: SimRequest): { tenant: SimTenant; access: GraphAccess } | { refusal: SimResponse } {
    const refuse = (message: string) => ({ refusal: graphError(401, 'InvalidAuthenticationToken', message) });
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer) return refuse('Access token is empty.');
    const claims = verifyToken(tokenKeys, bearer);
    if (!claims) return refuse('Access token has expired or is not yet valid, or its signature is invalid.');
    const tenant = tenants.get(String(claims.tid).toLowerCase());
    if (claims.aud !== GRAPH_AUDIENCE) return refuse('Access token validation failure. Invalid audience.');
    if (!tenant) return refuse('Access token validation failure. The tenant is not served here.');
    if (typeof claims.scp === 'string') {
      const user = tenant.model.users.find((u) => u.id === claims.oid);
      if (!user) return refuse('Access token validation failure. The signed-in user is not in the tenant.');
      return {
        tenant: tenant.model,
        access: { kind: 'delegated', userId: user.id, scopes: claims.scp.split(' ').filter(Boolean) },
      };
    }
    return {
      tenant: tenant.model,
      access: { kind: 'application', roles: Array.isArray(claims.roles) ? claims.roles : [] },
    };
  }

  /**
   * Entra ID's paths under /{tenantId}: the authorization endpoint, the admin consent endpoint, the
   * token endpoint (client credentials, and a user's authorization code and refresh token), the
   * OpenID configuration and the JWKS.
   */
  function identity(request: SimRequest, tenantId: string, rest: string): SimResponse {
    if ((request.method === 'GET' || request.method === 'POST') && rest === 'v2.0/adminconsent') {
      return adminConsent.adminConsent(request, tenantId);
    }
    if ((request.method === 'GET' || request.method === 'POST') && rest === 'oauth2/v2.0/authorize') {
      return signIn.authorize(request, tenantId);
    }
    if (request.method === 'POST' && rest === 'oauth2/v2.0/token') {
      const form = new URLSearchParams(request.body.toString('utf8'));
      const grantType = form.get('grant_type');
      const served = tenants.has(tenantId.toLowerCase());
      const answer =
        grantType === 'authorization_code' && served
          ? signIn.redeem(request, tenantId, form)
          : grantType === 'refresh_token' && served
            ? signIn.refresh(request, tenantId, form)
            : issueToken(request, tenantId, tenants.get(tenantId.toLowerCase()), tokenKeys, multiTenant);
      const counted = GRANT_TYPES.find((g) => g === grantType);
      if (answer.status === 200 && counted) grants[counted] += 1;
      // As Entra ID, the client's request id (a header, or MSAL's form parameter) is echoed.
      const clientRequestId = request.headers['client-request-id'] || form.get('client-request-id');
      return clientRequestId
        ? { ...answer, headers: { ...answer.headers, 'client-request-id': clientRequestId } }
        : answer;
    }
    if (request.method === 'GET' && rest === 'v2.0/.well-known/openid-configuration') {
      return openidConfiguration(state.baseUrl, tenantId);
    }
    if (request.method === 'GET' && rest === 'discovery/v2.0/keys') return signingKeys(tokenKeys);
    return graphError(404, 'NotFound', 'Unknown path.');
  }

  async function handle(request: SimRequest): Promise<SimResponse> {
    const seg = request.path.split('/').filter(Boolean);
    const [first = ''] = seg;
    if (first === CONTROL_PREFIX) {
      return controlRequest(request, seg.slice(1), controlKey, {
        throttle: { get: () => throttle.setting, set: (setting) => throttle.set(setting) },
        consent: {
          get: () => Object.fromEntries([...tenants].map(([id, t]) => [id, [...t.consent]])),
          set(tenantId, roles) {
            const tenant = tenants.get(tenantId.toLowerCase());
            if (tenant) tenant.consent = roles;
            return tenant !== undefined;
          },
        },
        signIn: { get: () => signIn.fault, set: (fault) => (signIn.fault = fault) },
        tokenFault: {
          get: () => Object.fromEntries([...tenants].map(([id, t]) => [id, t.tokenFault ?? 'none'])),
          set(tenantId, fault) {
            const tenant = tenants.get(tenantId.toLowerCase());
            if (tenant) tenant.tokenFault = fault;
            return tenant !== undefined;
          },
        },
        evolve(tenantId, change) {
          const tenant = tenants.get(tenantId.toLowerCase());
          return tenant ? evolve(tenant.model, change) : null;
        },
        tenants: () =>
          [...tenants.values()].map(({ model }) => ({
            tenantId: model.tenantId,
            domain: model.domain,
            users: model.users.filter((u) => u.hasMailbox).length,
            sites: model.sites.filter((s) => !s.deleted).length,
            teams: model.teams.length,
          })),
        stats: () => ({ ...state.stats }),
      });
    }
    if (first === 'upload') {
      const tenant = tenants.get((seg[1] ?? '').toLowerCase());
      if (!tenant) return graphError(404, 'NotFound', 'Unknown path.');
      return throttled(request) ?? uploadFragment(request, tenant.model, seg[2] ?? '', context);
    }
    if (first === 'download') return graphService.download(request, seg.slice(1));
    if (first !== 'v1.0') {
      return first ? identity(request, first, seg.slice(1).join('/')) : graphError(404, 'NotFound', 'Unknown path.');
    }
    const caller = authenticate(request);
    if ('refusal' in caller) return caller.refusal;
    state.stats.requests += 1;
    if (request.method === 'POST' && seg.length === 2 && seg[1] === '$batch') {
      // The envelope itself is not throttled: Graph weighs each request inside it on its own.
      return inFlight(() =>
        answerBatch(request, (inner) => {
          state.stats.batched += 1;
          return throttled(inner) ?? graphService.graph(inner, caller.tenant, caller.access);
        }),
      );
    }
    const refusal = throttled(request);
    if (refusal) return refusal;
    return inFlight(async () => {
      // A turn of the event loop, so that concurrent requests overlap as they do over a network.
      await new Promise((r) => setImmediate(r));
      return graphService.graph(request, caller.tenant, caller.access);
    });
  }

  async function inFlight(work: () => Promise<SimResponse>): Promise<SimResponse> {
    state.stats.inFlight += 1;
    state.stats.maxInFlight = Math.max(state.stats.maxInFlight, state.stats.inFlight);
    try {
      return await work();
    } finally {
      state.stats.inFlight -= 1;
    }
  }

  return {
    handle,
    state,
    controlKey,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
