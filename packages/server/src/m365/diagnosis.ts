/**
 * Why Microsoft 365 could not be read, by cause: one classification for the token client, the Graph
 * client, the connection test and every screen that reads Microsoft 365 live. A cause is a refusal
 * code of the SDK (m365HostNotFound … m365Failed) with Microsoft's raw details beside it (status,
 * AADSTS code, request and correlation ids, Retry-After), so that the administrator reads the one
 * action that fixes it and support reads what Microsoft said. Causes are told apart by codes only:
 * the network's error codes, the identity platform's AADSTS codes, Graph's HTTP status and the token's
 * roles, never by the wording of a message.
 */
import type { Microsoft365Failure, Microsoft365FailureCode, PermissionArea } from '@compliance-portal/sdk';
import { GraphError } from './graph-api.js';
import { AREA_PERMISSIONS, grants, missingPermissions } from './permissions.js';

/** The tenant's app registration cannot be used as stored: no client secret, or one the server cannot open. */
export class TenantSecretError extends Error {
  constructor(readonly reason: 'missing' | 'unreadable') {
    super(
      reason === 'missing'
        ? 'The tenant has no client secret; add it in the tenant settings.'
        : 'The stored client secret cannot be read with the current PORTAL_SECRET_KEY.',
    );
    this.name = 'TenantSecretError';
  }
}

/** getaddrinfo's answers for a name that does not resolve, now or at all. */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
/** A connection refused, reset, or not made in time (the operating system's and undici's codes). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
/** OpenSSL's certificate verification errors as Node names them, and its handshake's. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

/** The network's error code of a failed request: the first one known along its causes. */
function networkCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const next = queue.shift();
    if (!next || typeof next !== 'object' || seen.has(next)) continue;
    seen.add(next);
    const { code, cause, errors } = next as { code?: unknown; cause?: unknown; errors?: unknown };
    if (
      typeof code === 'string' &&
      (DNS_CODES.has(code) ||
        UNREACHABLE_CODES.has(code) ||
        TLS_CODES.has(code) ||
        code.startsWith('ERR_SSL_') ||
        code.startsWith('ERR_TLS_'))
    )
      return code;
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return undefined;
}

function networkCause(code: string): Microsoft365FailureCode {
  if (DNS_CODES.has(code)) return 'm365HostNotFound';
  if (UNREACHABLE_CODES.has(code)) return 'm365Unreachable';
  return 'm365TlsFailed';
}

/** The identity platform's AADSTS codes and the cause each is. */
const AADSTS_CAUSES: Readonly<Record<string, Microsoft365FailureCode>> = {
  AADSTS7000215: 'm365SecretWrong',
  AADSTS7000222: 'm365SecretExpired',
  AADSTS700016: 'm365ApplicationUnknown',
  AADSTS90002: 'm365TenantUnknown',
  // A tenant id that is not a GUID nor a domain name.
  AADSTS900023: 'm365TenantUnknown',
  AADSTS65001: 'm365ConsentMissing',
};

/**
 * Of `needs` (the permissions of the call that failed, or of its area), those `roles` do not grant,
 * each with every area needing it (as the connection test names them); without either, every area's.
 */
function missingFor(roles: readonly string[], needs: readonly string[] | undefined) {
  const all = missingPermissions(roles);
  if (!needs) return all;
  const lacking = needs.filter((permission) => !grants(roles, permission));
  return all.filter((m) => lacking.includes(m.permission));
}

/** The details every failure carries, as far as they are known and within the schema's limits. */
function detailsOf(error: GraphError): Omit<Microsoft365Failure, 'code'> {
  const d = error.details;
  const cut = (value: string | undefined, max: number) => (value ? value.slice(0, max) : undefined);
  const fields: Omit<Microsoft365Failure, 'code'> = {
    ...(error.status >= 100 && error.status <= 599 && !networkCode(error) ? { status: error.status } : {}),
    ...(d.aadsts ? { aadsts: d.aadsts } : {}),
    error: error.code.slice(0, 128),
    requestId: cut(d.requestId, 128),
    clientRequestId: cut(d.clientRequestId, 128),
    correlationId: cut(d.correlationId, 128),
    traceId: cut(d.traceId, 128),
    timestamp: cut(d.timestamp, 64),
    ...(error.retryAfter !== undefined && Number.isInteger(error.retryAfter) && error.retryAfter >= 0
      ? { retryAfter: Math.min(error.retryAfter, 86_400) }
      : {}),
    host: cut(d.host, 253),
    message: cut(d.said ?? error.message, 1000),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as typeof fields;
}

/**
 * The cause of a failure to read Microsoft 365, with Microsoft's details. `area` is the portal area
 * whose call failed: a refused permission is named among those it needs (src/m365/permissions.ts), or
 * among `needs` when the caller knows the permissions of the very call (a list of users needs
 * User.Read.All, whichever area asks).
 */
export function diagnose(
  error: unknown,
  area?: PermissionArea,
  needs: readonly string[] | undefined = area ? AREA_PERMISSIONS[area] : undefined,
): Microsoft365Failure {
  if (error instanceof TenantSecretError) {
    return { code: error.reason === 'missing' ? 'm365SecretMissing' : 'm365SecretUnreadable' };
  }
  if (!(error instanceof GraphError)) {
    const code = networkCode(error);
    const said = error instanceof Error ? error.message.slice(0, 1000) : undefined;
    return {
      code: code ? networkCause(code) : 'm365Failed',
      ...(code ? { error: code } : {}),
      ...(said ? { message: said } : {}),
    };
  }
  const details = detailsOf(error);
  const network = networkCode(error);
  if (network) return { code: networkCause(network), ...details, error: network };
  const aadsts = error.details.aadsts;
  const known = aadsts ? AADSTS_CAUSES[aadsts] : undefined;
  if (known) return { code: known, ...details };
  if (error.status === 429) return { code: 'm365Throttled', ...details };
  if (error.status >= 500) return { code: 'm365Outage', ...details };
  if (aadsts) return { code: 'm365TokenRefused', ...details };
  if (error.status === 403) {
    const roles = error.details.roles;
    // A token without roles: no application permission was consented to at all.
    if (roles && roles.length === 0) return { code: 'm365ConsentMissing', ...details };
    const missing = roles ? missingFor(roles, needs) : [];
    return missing.length > 0
      ? { code: 'm365PermissionMissing', ...details, missingPermissions: missing }
      : { code: 'm365AccessDenied', ...details };
  }
  return { code: 'm365Failed', ...details };
}
