/**
 * The identity platform's side, at Entra ID's paths under the simulator's origin (the authority is
 * `{origin}/{tenantId}`): the token endpoint of the client credentials flow (user sign-in's code and
 * refresh token grants are in sign-in.ts), the OpenID configuration and the JWKS, with Entra ID's refusals (error, AADSTS code, error_codes, trace and correlation ids).
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { SimRequest, SimResponse } from './graph/odata.js';
import { GRAPH_AUDIENCE, graphAccessToken, jwks, servicePrincipalId, type TokenKeys } from './tokens.js';

/** A tenant's app registration as the token endpoint checks it, and the permissions granted to it. */
export interface Registration {
  clientId?: string;
  clientSecret?: string;
  /** Application permissions granted (the token's `roles`). */
  consent: readonly string[];
  /** How the token endpoint refuses the client credentials of this tenant on purpose (`none`: it does not). */
  tokenFault?: TokenFault;
}

/**
 * A multi-tenant app registration published outside the tenants served (a partner's or a vendor's
 * app): it has no service principal in a tenant, so no token there, until an administrator of the
 * tenant consents to it (admin-consent.ts); then its tokens carry the permissions consented to.
 */
export interface MultiTenantApp {
  clientId: string;
  clientSecret: string;
  displayName: string;
  /** The redirect URIs registered; an admin consent request's must be one of them, exactly. */
  redirectUris: readonly string[];
  /** The Microsoft Graph application permissions it asks for (its API permissions). */
  applicationPermissions: readonly string[];
}

/** The multi-tenant apps and, per tenant, the permissions consented to each (its service principal there). */
export interface MultiTenantApps {
  app(clientId: string): MultiTenantApp | undefined;
  consented(tenantId: string, clientId: string): readonly string[] | undefined;
}

/**
 * The token endpoint's refusals a client can be made to meet on purpose, each Entra ID's answer with
 * its AADSTS code: a wrong client secret (7000215), an expired one (7000222), an application the
 * tenant does not know (700016), a tenant Entra ID does not know (90002), and no consent to the
 * application in the tenant (65001). `none`: tokens are issued as usual.
 */
export const TOKEN_FAULTS = [
  'none',
  'invalidClientSecret',
  'expiredClientSecret',
  'unknownApplication',
  'unknownTenant',
  'consentRequired',
] as const;
export type TokenFault = (typeof TOKEN_FAULTS)[number];

/** Scopes naming Microsoft Graph's application permissions in the client credentials flow. */
const GRAPH_SCOPES = new Set([`${GRAPH_AUDIENCE}/.default`, '00000003-0000-0000-c000-000000000000/.default']);
const TOKEN_LIFETIME_S = 3600;

/** Compares two secrets in constant time. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * An identity platform error body: `error`, `error_description` (AADSTS code first) and its trace
 * fields; `suberror` where Entra ID adds one (`consent_required`), which MSAL reads.
 */
export function identityError(
  status: number,
  error: string,
  code: number,
  description: string,
  suberror?: string,
): SimResponse {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  return {
    status,
    // Entra ID's request id is its trace id.
    headers: { 'x-ms-request-id': traceId },
    json: {
      error,
      error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
      error_codes: [code],
      timestamp,
      trace_id: traceId,
      correlation_id: correlationId,
      ...(suberror ? { suberror } : {}),
    },
  };
}

/** The client's id and secret from the form (client_secret_post) or the Basic header (client_secret_basic). */
export function clientCredentials(request: SimRequest, form: URLSearchParams) {
  const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return { clientId: decodeURIComponent(id), secret: decodeURIComponent(secret) };
  }
  return { clientId: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
}

const unknownTenant = (tenantId: string) =>
  identityError(
    400,
    'invalid_tenant',
    90002,
    `Tenant '${tenantId}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
  );
const unknownApplication = (tenantId: string, clientId: string) =>
  identityError(
    400,
    'unauthorized_client',
    700016,
    `Application with identifier '${clientId}' was not found in the directory '${tenantId}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant.`,
  );
const invalidSecret = (clientId: string) =>
  identityError(
    401,
    'invalid_client',
    7000215,
    `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
  );

/** Entra ID's answer to client credentials under `fault`, as it words each refusal. */
function faultAnswer(fault: Exclude<TokenFault, 'none'>, tenantId: string, clientId: string): SimResponse {
  switch (fault) {
    case 'invalidClientSecret':
      return invalidSecret(clientId);
    case 'expiredClientSecret':
      return identityError(
        401,
        'invalid_client',
        7000222,
        `The provided client secret keys for app '${clientId}' are expired. Visit the Azure portal to create new keys for your app: https://aka.ms/NewClientSecret, or consider using certificate credentials for added security: https://aka.ms/certCreds.`,
      );
    case 'unknownApplication':
      return unknownApplication(tenantId, clientId);
    case 'unknownTenant':
      return unknownTenant(tenantId);
    case 'consentRequired':
      return identityError(
        400,
        'invalid_grant',
        65001,
        `The user or administrator has not consented to use the application with ID '${clientId}'. Send an interactive authorization request for this user and resource.`,
      );
  }
}

/**
 * POST {tenant}/oauth2/v2.0/token with grant_type=client_credentials and Graph's `.default` scope.
 * A registration's `tokenFault` refuses every request as that fault says. A multi-tenant app gets a
 * token with its secret once the tenant has consented to it (AADSTS7000229 before: no service
 * principal there), its `roles` those consented to. Otherwise, with the tenant registration's client
 * id and secret, only that application with that secret gets a token; without them any application
 * with any non-empty secret does; its `roles` are the tenant's consent set.
 */
export function issueToken(
  request: SimRequest,
  tenantId: string,
  registration: Registration | undefined,
  keys: TokenKeys,
  apps?: MultiTenantApps,
): SimResponse {
  const form = new URLSearchParams(request.body.toString('utf8'));
  if (!registration) return unknownTenant(tenantId);
  if (form.get('grant_type') !== 'client_credentials') {
    return identityError(
      400,
      'unsupported_grant_type',
      70003,
      'The app requested an unsupported grant type. This simulator issues tokens by client_credentials, and to the sign-in apps by authorization_code and refresh_token.',
    );
  }
  const { clientId, secret } = clientCredentials(request, form);
  if (registration.tokenFault && registration.tokenFault !== 'none') {
    return faultAnswer(registration.tokenFault, tenantId, clientId);
  }
  const shared = apps?.app(clientId);
  if (!shared && registration.clientId && clientId !== registration.clientId) {
    return unknownApplication(tenantId, clientId);
  }
  const expectedSecret = shared ? shared.clientSecret : registration.clientSecret;
  if (expectedSecret ? !safeEqual(secret, expectedSecret) : !secret) {
    return invalidSecret(clientId);
  }
  const scope = form.get('scope');
  if (!scope) {
    return identityError(
      400,
      'invalid_request',
      900144,
      "The request body must contain the following parameter: 'scope'.",
    );
  }
  if (!scope.split(' ').some((s) => GRAPH_SCOPES.has(s))) {
    return identityError(
      400,
      'invalid_scope',
      1002012,
      `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI). This simulator serves Microsoft Graph only (${GRAPH_AUDIENCE}/.default).`,
    );
  }
  const tid = tenantId.toLowerCase();
  const roles = shared ? apps?.consented(tid, clientId) : registration.consent;
  if (!roles) {
    return identityError(
      400,
      'invalid_client',
      7000229,
      `The client application ${clientId} is missing service principal in the tenant ${tid}. An administrator of the tenant must consent to the application first.`,
    );
  }
  const now = Math.floor(Date.now() / 1000);
  const oid = servicePrincipalId(tid, clientId);
  const accessToken = graphAccessToken(keys, {
    tid,
    clientId,
    oid,
    sub: oid,
    now,
    lifetime: TOKEN_LIFETIME_S,
    idtyp: 'app',
    roles,
  });
  return {
    status: 200,
    headers: { 'cache-control': 'no-store, no-cache', pragma: 'no-cache' },
    json: {
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_S - 1,
      ext_expires_in: TOKEN_LIFETIME_S - 1,
      access_token: accessToken,
    },
  };
}

/**
 * The tenant's OpenID configuration (v2.0), every endpoint under the authority `{origin}/{tenantId}`.
 * Served for any tenant id: against login.microsoftonline.com MSAL knows these endpoints without
 * asking, so an unknown tenant is refused by the token endpoint (AADSTS90002), here as there.
 */
export function openidConfiguration(origin: string, tenantId: string): SimResponse {
  const authority = `${origin}/${tenantId}`;
  return {
    status: 200,
    json: {
      token_endpoint: `${authority}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${authority}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: `${authority}/v2.0`,
      request_uri_parameter_supported: false,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      device_authorization_endpoint: `${authority}/oauth2/v2.0/devicecode`,
      end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'nbf',
        'nonce',
        'name',
        'preferred_username',
        'email',
        'tid',
        'oid',
        'azp',
        'roles',
        'ver',
      ],
      tenant_region_scope: 'EU',
      cloud_instance_name: new URL(origin).host,
      msgraph_host: new URL(origin).host,
    },
  };
}

/** The JWKS of discovery/v2.0/keys: the key the access tokens are signed with. */
export function signingKeys(keys: TokenKeys): SimResponse {
  return { status: 200, json: jwks(keys) };
}
