/**
 * The identity platform's side: the token endpoint of the client credentials flow and the OpenID
 * configuration, with Entra ID's refusals (error, AADSTS code, error_codes, trace and correlation ids).
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SimResponse } from './graph/odata.js';

/** A tenant's app registration as the token endpoint checks it. */
export interface Registration {
  clientId?: string;
  clientSecret?: string;
}

/** An issued access token: the tenant it reads. */
export interface IssuedToken {
  tenantId: string;
  expires: number;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** An identity platform error body: `error`, `error_description` (AADSTS code first) and its trace fields. */
export function identityError(status: number, error: string, code: number, description: string): SimResponse {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  return {
    status,
    json: {
      error,
      error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
      error_codes: [code],
      timestamp,
      trace_id: traceId,
      correlation_id: correlationId,
    },
  };
}

/**
 * POST {tenant}/oauth2/v2.0/token with grant_type=client_credentials. With a registration's client id
 * and secret, only that application with that secret gets a token; without them any application with
 * any non-empty secret does.
 */
export function issueToken(
  form: URLSearchParams,
  tenantId: string,
  registration: Registration | undefined,
  tokens: Map<string, IssuedToken>,
): SimResponse {
  if (!registration) {
    return identityError(
      400,
      'invalid_tenant',
      90002,
      `Tenant '${tenantId}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
    );
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return identityError(
      400,
      'unsupported_grant_type',
      70003,
      'The app requested an unsupported grant type. This simulator issues app-only tokens (client_credentials).',
    );
  }
  const clientId = form.get('client_id') ?? '';
  if (registration.clientId && clientId !== registration.clientId) {
    return identityError(
      400,
      'unauthorized_client',
      700016,
      `Application with identifier '${clientId}' was not found in the directory '${tenantId}'.`,
    );
  }
  const secret = form.get('client_secret') ?? '';
  if (registration.clientSecret ? !safeEqual(secret, registration.clientSecret) : !secret) {
    return identityError(
      401,
      'invalid_client',
      7000215,
      `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
    );
  }
  const accessToken = randomBytes(24).toString('base64url');
  tokens.set(accessToken, { tenantId: tenantId.toLowerCase(), expires: Date.now() + 3600_000 });
  return {
    status: 200,
    json: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: accessToken },
  };
}

/** The tenant's OpenID configuration, its endpoints under `loginBase`. */
export function openidConfiguration(loginBase: string, tenantId: string): SimResponse {
  const login = `${loginBase}/${tenantId}`;
  return {
    status: 200,
    json: {
      token_endpoint: `${login}/oauth2/v2.0/token`,
      authorization_endpoint: `${login}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${login}/oauth2/v2.0/logout`,
      issuer: `${login}/v2.0`,
      jwks_uri: `${login}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
    },
  };
}
