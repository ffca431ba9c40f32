/**
 * Test-only entry: MSW request handlers built from the endpoint catalogue, so the SDK's tests and the
 * web app's component tests mock the same contract. Needs `msw` 2 (an optional peer dependency).
 *
 * Resolvers are typed by the endpoint they answer: a JSON endpoint's resolver must answer its result
 * type (`HttpResponse.json(...)` takes its body type from the resolver), a text endpoint's a string,
 * and its request body and path parameters are the endpoint's. So a contract change breaks the tests
 * that mock it at compile time. Errors are answered with {@link refuse}.
 *
 * @module
 */
import {
  type DefaultBodyType,
  type HttpRequestResolverExtras,
  HttpResponse,
  type HttpResponseInit,
  type HttpResponseResolver,
  http,
  type JsonBodyType,
  type PathParams,
  type RequestHandler,
  type ResponseResolverInfo,
} from 'msw';
import { type AnyEndpoint, type EndpointId, endpointById, endpoints } from '../catalogue.js';
import type { Endpoint, EndpointResult, PathParamNames } from '../core/endpoint.js';
import type { Schema, Static } from '../core/schema.js';
import { apolloBasePaths, type Environment, LEGACY_BASE_PATH } from '../core/transport.js';
import type { ProblemDetails } from '../resources/apollo/auth.js';

/** The catalogue entry of an endpoint id. */
type EndpointOf<I extends EndpointId> = Extract<AnyEndpoint, { id: I }>;

type AsBody<T, Fallback> = unknown extends T ? Fallback : T extends Fallback ? T : Fallback;

/**
 * The body a resolver answers an endpoint's success with: the endpoint's result for JSON, a string
 * for text, and `undefined` for downloads and empty answers (their resolvers answer any `Response`).
 */
export type ResolverResponseBody<I extends EndpointId> = EndpointOf<I>['responseKind'] extends 'json' | 'text'
  ? AsBody<EndpointResult<EndpointOf<I>>, JsonBodyType>
  : undefined;

/** The request body a resolver reads with `request.json()`: the endpoint's JSON body, if it has one. */
export type ResolverRequestBody<I extends EndpointId> =
  EndpointOf<I> extends { readonly bodyType: 'json' }
    ? EndpointOf<I> extends Endpoint<string, Schema | undefined, Schema | undefined, infer Body>
      ? Body extends Schema
        ? AsBody<Static<Body>, JsonBodyType>
        : DefaultBodyType
      : DefaultBodyType
    : DefaultBodyType;

/** The path parameters MSW gives a resolver: those of the endpoint's path template. */
export type ResolverParams<I extends EndpointId> = PathParams<PathParamNames<EndpointOf<I>['path']>>;

/**
 * What a resolver may answer: for JSON and text endpoints an `HttpResponse` of the result type
 * (`HttpResponse.json(...)` and `HttpResponse.text(...)` take it from the resolver) or an error from
 * {@link refuse}, not a plain `Response` that would escape the check; any `Response` for downloads
 * and empty answers; nothing, to let the next handler answer.
 */
export type ResolverAnswer<I extends EndpointId> = [ResolverResponseBody<I>] extends [undefined]
  ? Response | undefined
  : HttpResponse<ResolverResponseBody<I>> | undefined;

/**
 * An MSW resolver for one endpoint, typed by its path parameters, request body and result: an
 * `HttpResponseResolver<ResolverParams<I>, ResolverRequestBody<I>, ResolverResponseBody<I>>` that
 * answers an `HttpResponse` (not a plain `Response`) for JSON and text endpoints.
 */
export type EndpointResolver<I extends EndpointId> = (
  info: ResponseResolverInfo<HttpRequestResolverExtras<ResolverParams<I>>, ResolverRequestBody<I>>,
) => ResolverAnswer<I> | Promise<ResolverAnswer<I>>;

/** A resolver per endpoint id, each typed by its endpoint. */
export type TypedResolvers = { [I in EndpointId]?: EndpointResolver<I> };

/** What {@link createHandlers} serves: where the client under test calls, and the endpoints' answers. */
export interface HandlerOptions {
  /** Scheme, host and port the client under test calls; default none (relative, as in a browser). */
  origin?: string;
  /** Which apollo base path the handlers answer under (default production), as the client's option. */
  environment?: Environment;
  /** A resolver per endpoint id; endpoints without one answer 501 with a `{message}` body. */
  resolvers?: TypedResolvers;
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
    // Each resolver was checked against its own endpoint where it was written.
    const resolver =
      (options.resolvers?.[endpoint.id] as HttpResponseResolver | undefined) ??
      (() => HttpResponse.json({ message: `No mock for ${endpoint.id}` }, { status: 501 }));
    return methods[endpoint.method](endpointUrl(endpoint, options), resolver);
  });
}

/** What {@link respond} answers a download with: the file's bytes. */
export type DownloadBody = Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | string;

/** The success body {@link respond} takes for an endpoint: its result, text, a file's bytes, or none. */
export type RespondBody<I extends EndpointId> = EndpointOf<I>['responseKind'] extends 'blob'
  ? DownloadBody
  : EndpointOf<I>['responseKind'] extends 'empty'
    ? undefined
    : ResolverResponseBody<I>;

type RespondArgs<I extends EndpointId> = EndpointOf<I>['responseKind'] extends 'empty'
  ? [body?: undefined, init?: HttpResponseInit]
  : [body: RespondBody<I>, init?: HttpResponseInit];

/**
 * A resolver that answers an endpoint's success with this body: JSON for JSON endpoints, plain text
 * for text ones, the bytes for downloads (with the endpoint's first media type unless `init` sets
 * one), nothing for empty ones. The status is the endpoint's success status unless `init` sets one.
 *
 * @example
 * renderPortal('/jobs', { 'apollo.jobs.list': respond('apollo.jobs.list', { items: [], total: 0, page: 1, pageSize: 25 }) })
 */
export function respond<I extends EndpointId>(id: I, ...[body, init]: RespondArgs<I>): EndpointResolver<I> {
  const endpoint: Endpoint = endpointById(id);
  const status = init?.status ?? endpoint.successStatus ?? 200;
  const answer = (): Response => {
    switch (endpoint.responseKind) {
      case 'json':
        return HttpResponse.json(body as JsonBodyType, { ...init, status });
      case 'text':
        return HttpResponse.text(body as string, { ...init, status });
      case 'blob': {
        const headers = new Headers(init?.headers);
        if (!headers.has('Content-Type'))
          headers.set('Content-Type', endpoint.contentTypes?.[0] ?? 'application/octet-stream');
        return new HttpResponse(body as BodyInit as never, { ...init, status, headers });
      }
      case 'empty':
        return new HttpResponse(null, { ...init, status });
    }
  };
  // The body was checked against the endpoint by RespondArgs; the answer is what the resolver promises.
  return answer as unknown as EndpointResolver<I>;
}

/**
 * An error body: RFC 9457 problem details as apollo answers them, or the legacy API's `{message}`,
 * each with whatever other members a test needs (`code`, `errors`), or a plain text.
 */
export type RefusalBody = ProblemDetails | { message: string; code?: string } | string;

/**
 * An error answer (status 400 to 599) any resolver may give whatever its endpoint's result type:
 * JSON for an object body, text for a string, nothing without one.
 *
 * @example
 * 'apollo.jobs.get': () => refuse(404, { title: 'Not Found', status: 404 })
 */
export function refuse(status: number, body?: RefusalBody, init?: HttpResponseInit): HttpResponse<never> {
  if (!Number.isInteger(status) || status < 400 || status > 599)
    throw new RangeError(`refuse answers errors (400 to 599), not ${status}`);
  const options = { ...init, status };
  const response =
    body === undefined
      ? new HttpResponse(null, options)
      : typeof body === 'string'
        ? HttpResponse.text(body, options)
        : HttpResponse.json(body, options);
  // `never` as the body type: an error is a valid answer of every resolver.
  return response as HttpResponse<never>;
}

export { endpoints };
