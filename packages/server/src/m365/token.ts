/**
 * App-only tokens for Microsoft Graph by OAuth 2.0 client credentials, through MSAL. Against
 * login.microsoftonline.com a real tenant needs only its tenant id, client id and secret. Any other
 * authority host (the Microsoft 365 simulator, like any cloud MSAL does not know) is named in
 * `knownAuthorities`, so MSAL reads its OpenID configuration over https instead of asking Microsoft's
 * instance discovery; its certificate must be trusted by this process (see trust.ts).
 *
 * MSAL's requests go through a network client of our own (global fetch, as MSAL's default), which
 * keeps what went wrong as it happened: the network's error with its code, or the identity platform's
 * refusal with its status, AADSTS code, ids and time. MSAL words both its own way (a network error, an
 * OpenID configuration it could not read); a failed token request is raised as a GraphError carrying
 * what was kept, so that diagnosis.ts tells the causes apart.
 */
import {
  ConfidentialClientApplication,
  type INetworkModule,
  type NetworkRequestOptions,
  type NetworkResponse,
} from '@azure/msal-node';
import { GraphError } from './graph-api.js';

const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
const MICROSOFT_AUTHORITY_HOST = 'login.microsoftonline.com';
/** A token is renewed this long before it expires. */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

export interface TokenSource {
  token(): Promise<string>;
}

/** What went wrong in a request of MSAL's: no answer, an answer that is not JSON, or a refusal. */
type Mishap =
  | { kind: 'network'; url: string; error: unknown }
  | { kind: 'unreadable'; url: string; status: number }
  | { kind: 'refused'; url: string; status: number; headers: Record<string, string>; body: unknown };

/** MSAL's network client (as its own: global fetch, JSON answers), keeping the last mishap. */
function observingNetwork() {
  let last: Mishap | undefined;
  const send = async <T>(
    url: string,
    method: 'GET' | 'POST',
    options: NetworkRequestOptions | undefined,
    timeout?: number,
  ): Promise<NetworkResponse<T>> => {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: options?.headers ?? {},
        ...(method === 'POST' ? { body: options?.body ?? '' } : {}),
        ...(timeout ? { signal: AbortSignal.timeout(timeout) } : {}),
      });
    } catch (error) {
      last = { kind: 'network', url, error };
      throw error;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      last = { kind: 'unreadable', url, status: response.status };
      throw error;
    }
    if (response.status >= 400) last = { kind: 'refused', url, status: response.status, headers, body };
    return { headers, body: body as T, status: response.status };
  };
  const network: INetworkModule = {
    sendGetRequestAsync: (url, options, timeout) => send(url, 'GET', options, timeout),
    sendPostRequestAsync: (url, options) => send(url, 'POST', options),
  };
  return {
    network,
    /** The mishap since the last call, if any, and forgets it. */
    take(): Mishap | undefined {
      const mishap = last;
      last = undefined;
      return mishap;
    },
  };
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** The identity platform's description without the ids and time it appends (kept apart). */
const description = (said: string) => said.replace(/\s*Trace ID:.*$/s, '').trim();

/** The GraphError of a failed token request: what was kept of it, else MSAL's own words. */
function tokenFailure(mishap: Mishap | undefined, error: unknown): GraphError {
  const msal = error instanceof Error ? error.message : String(error);
  if (!mishap) return new GraphError(401, 'authenticationFailed', `The tenant's app registration was refused: ${msal}`);
  const host = new URL(mishap.url).host;
  if (mishap.kind === 'network') {
    const cause = mishap.error instanceof Error && mishap.error.cause instanceof Error ? mishap.error.cause : undefined;
    const said = cause?.message ?? (mishap.error instanceof Error ? mishap.error.message : String(mishap.error));
    return new GraphError(
      503,
      'networkError',
      `The identity platform could not be reached at ${host}: ${said}`,
      undefined,
      { host, said },
      { cause: mishap.error },
    );
  }
  if (mishap.kind === 'unreadable') {
    return new GraphError(
      mishap.status >= 400 ? mishap.status : 502,
      'invalidAnswer',
      `The identity platform at ${host} answered ${mishap.status} with something other than JSON.`,
      undefined,
      { host },
    );
  }
  const body = (mishap.body && typeof mishap.body === 'object' ? mishap.body : {}) as Record<string, unknown>;
  const said = text(body.error_description);
  const codes = Array.isArray(body.error_codes) ? body.error_codes : [];
  const first =
    typeof codes[0] === 'number' ? `AADSTS${codes[0]}` : (/\bAADSTS\d+\b/.exec(said ?? '')?.[0] ?? undefined);
  const retryAfter = Number(mishap.headers['retry-after']);
  const details = {
    host,
    ...(first ? { aadsts: first } : {}),
    ...(said ? { said: description(said) } : {}),
    ...(text(body.correlation_id) ? { correlationId: text(body.correlation_id) } : {}),
    ...(text(body.trace_id) ? { traceId: text(body.trace_id) } : {}),
    ...(text(body.timestamp) ? { timestamp: text(body.timestamp) } : {}),
    ...(mishap.headers['x-ms-request-id'] ? { requestId: mishap.headers['x-ms-request-id'] } : {}),
    ...(mishap.headers['client-request-id'] ? { clientRequestId: mishap.headers['client-request-id'] } : {}),
  };
  return new GraphError(
    mishap.status,
    text(body.error) ?? `http${mishap.status}`,
    `The tenant's app registration was refused: ${said ? description(said) : `${mishap.status}`}`,
    Number.isFinite(retryAfter) && mishap.headers['retry-after'] !== undefined ? retryAfter : undefined,
    details,
  );
}

export function createTokenSource(connection: {
  directoryId: string;
  clientId: string;
  clientSecret: string;
  authorityHost: string;
}): TokenSource {
  const authority = `${connection.authorityHost.replace(/\/$/, '')}/${connection.directoryId}`;
  const { host } = new URL(authority);
  const observed = observingNetwork();
  const app = new ConfidentialClientApplication({
    auth: {
      clientId: connection.clientId,
      clientSecret: connection.clientSecret,
      authority,
      ...(host === MICROSOFT_AUTHORITY_HOST ? {} : { knownAuthorities: [host] }),
    },
    system: { networkClient: observed.network },
  });
  const acquire = async () => {
    observed.take();
    const result = await app.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE] }).catch((error: unknown) => {
      throw tokenFailure(observed.take(), error);
    });
    if (!result?.accessToken)
      throw new GraphError(401, 'authenticationFailed', 'No token was issued for Microsoft Graph.');
    // MSAL's own cache answers too, but looking it up costs more than a request to the simulator on
    // loopback: the token is kept here until shortly before it expires.
    const expiresAt = result.expiresOn ? result.expiresOn.getTime() : 0;
    return { token: result.accessToken, refreshAt: expiresAt - TOKEN_REFRESH_MARGIN_MS };
  };
  let current: { token: string; refreshAt: number } | undefined;
  let pending: Promise<{ token: string; refreshAt: number }> | undefined;
  return {
    async token() {
      if (current && Date.now() < current.refreshAt) return current.token;
      pending ??= acquire().finally(() => {
        pending = undefined;
      });
      current = await pending;
      return current.token;
    },
  };
}
