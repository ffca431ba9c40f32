/**
 * Requests that the server must refuse, for the catalogue-wide tests of refusals
 * (authenticate-first.test.ts, documented-refusals.test.ts): every base path an API is served under,
 * and per endpoint the bodies, paths and queries that its body parser or its validation would refuse.
 */
import { type AnyEndpoint, type Api, apolloBasePaths, LEGACY_BASE_PATH } from '@compliance-portal/sdk';
import type { LightMyRequestResponse } from 'fastify';
import type { Answer } from './openapi-answers.js';

/** The base paths each API is served under: apollo's production and staging ones, legacy's. */
export const BASE_PATHS: Readonly<Record<Api, readonly string[]>> = {
  apollo: [apolloBasePaths.production, apolloBasePaths.staging],
  legacy: [LEGACY_BASE_PATH],
};

export interface RefusedRequest {
  /** What is wrong with it. */
  label: string;
  url: string;
  /** The body as sent, with its content type; none on a GET. */
  payload?: string;
  type?: string;
}

/** A JSON text longer than the server's body limit (1 MiB). */
const TOO_LARGE = JSON.stringify('x'.repeat(1024 * 1024));

/**
 * The bodies of an endpoint that is not a GET: an empty JSON object, a list where an object belongs,
 * JSON that does not parse, a JSON text sent as text/plain, XML (a media type the server reads none
 * of), no body at all, and for the upload a form that is none. `parsedOnly` keeps those that the body
 * parser itself refuses (JSON that does not parse, XML), which no handler ever sees; `tooLarge` adds
 * JSON beyond the body limit (sent only where asked: a megabyte a request).
 */
export function refusedBodies(
  endpoint: AnyEndpoint,
  { parsedOnly = false, tooLarge = false } = {},
): { label: string; payload?: string; type?: string }[] {
  if (endpoint.method === 'GET') return parsedOnly ? [] : [{ label: 'no body' }];
  const unreadable = [
    { label: 'malformed JSON', payload: '{"not json', type: 'application/json' },
    { label: 'XML', payload: '<a/>', type: 'application/xml' },
    ...(tooLarge ? [{ label: 'too large', payload: TOO_LARGE, type: 'application/json' }] : []),
  ];
  if (parsedOnly) return unreadable;
  return [
    { label: '{}', payload: '{}', type: 'application/json' },
    { label: 'a list', payload: '[1, 2, 3]', type: 'application/json' },
    { label: '{} as text/plain', payload: '{}', type: 'text/plain' },
    { label: 'no body' },
    ...(endpoint.bodyType === 'multipart'
      ? [{ label: 'a form that is none', payload: 'not a form', type: 'multipart/form-data; boundary=x' }]
      : []),
    ...unreadable,
  ];
}

/**
 * The requests to one endpoint under one base path: each refused body on a path whose parameters are
 * plain text (`x`), then, without a body, a path parameter and query values that cannot be stored
 * (NUL) with an unknown query parameter.
 */
export function refusedRequests(
  endpoint: AnyEndpoint,
  base: string,
  bodies: ReturnType<typeof refusedBodies> = refusedBodies(endpoint),
): RefusedRequest[] {
  const names = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const path = (bad: boolean) => endpoint.path.replace(/\{([^}]+)\}/g, () => (bad ? 'a%00b' : 'x'));
  const queryNames = Object.keys((endpoint.query as { properties?: object } | undefined)?.properties ?? {});
  const out: RefusedRequest[] = bodies.map((body) => ({ ...body, url: `${base}${path(false)}` }));
  if (names.length > 0) out.push({ label: 'path', url: `${base}${path(true)}` });
  if (queryNames.length > 0) {
    const query = queryNames.map((name) => `${name}=a%00b`).join('&');
    out.push({ label: 'query', url: `${base}${path(false)}?${query}&unknown=1` });
  }
  return out;
}

/** An injected answer as the OpenAPI answer check takes it. */
export function answerOf(
  endpoint: AnyEndpoint,
  request: RefusedRequest,
  response: LightMyRequestResponse,
): Answer & { operationId: string } {
  return {
    operationId: endpoint.id,
    method: endpoint.method,
    path: request.url,
    status: response.statusCode,
    headers: Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name, value === undefined ? undefined : String(value)]),
    ),
    body: response.rawPayload,
  };
}
