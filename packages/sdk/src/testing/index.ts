/**
 * Test-only entry: MSW request handlers built from the endpoint catalogue, so the SDK's tests and the
 * web app's component tests mock the same contract. Needs `msw` 2 (an optional peer dependency).
 */
import { HttpResponse, type HttpResponseResolver, http, type RequestHandler } from 'msw';
import { type AnyEndpoint, type EndpointId, endpoints } from '../catalogue.js';
import type { Endpoint } from '../core/endpoint.js';
import { apolloBasePaths, type Environment, LEGACY_BASE_PATH } from '../core/transport.js';

export interface HandlerOptions {
  /** Scheme, host and port the client under test calls; default none (relative, as in a browser). */
  origin?: string;
  environment?: Environment;
  /** A resolver per endpoint id; endpoints without one answer 501 with a `{message}` body. */
  resolvers?: Partial<Record<EndpointId, HttpResponseResolver>>;
}

/** The MSW URL pattern of an endpoint: the base path and the template with `:param` segments. */
export function endpointUrl(endpoint: Endpoint, options: Pick<HandlerOptions, 'origin' | 'environment'> = {}): string {
  const base = endpoint.api === 'apollo' ? apolloBasePaths[options.environment ?? 'production'] : LEGACY_BASE_PATH;
  return `${options.origin ?? ''}${base}${endpoint.path.replace(/\{([^}]+)\}/g, ':$1')}`;
}

const methods = {
  GET: http.get,
  POST: http.post,
  PUT: http.put,
  PATCH: http.patch,
  DELETE: http.delete,
} as const;

/** One handler per catalogue endpoint. */
export function createHandlers(options: HandlerOptions = {}): RequestHandler[] {
  return endpoints.map((endpoint: AnyEndpoint) => {
    const resolver: HttpResponseResolver =
      options.resolvers?.[endpoint.id] ??
      (() => HttpResponse.json({ message: `No mock for ${endpoint.id}` }, { status: 501 }));
    return methods[endpoint.method](endpointUrl(endpoint, options), resolver);
  });
}

export { endpoints };
