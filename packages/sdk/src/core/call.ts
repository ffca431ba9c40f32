import type { Endpoint, EndpointArgs, EndpointResult } from './endpoint.js';
import type { Query, RequestOptions, Transport } from './transport.js';

const paramPattern = /\{([^}]+)\}/g;
/** Path parameters whose values are credentials and must never reach an error report. */
const secretParam = /token/i;

/** Fills a path template; every parameter must be given. */
export function fillPath(template: string, params: Record<string, unknown>): { path: string; secrets: string[] } {
  const secrets: string[] = [];
  const path = template.replace(paramPattern, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`Missing path parameter "${name}" for ${template}`);
    }
    const text = String(value);
    if (secretParam.test(name)) secrets.push(text);
    return encodeURIComponent(text);
  });
  return { path, secrets };
}

/** Calls one catalogue endpoint with its argument object. */
export function callEndpoint<E extends Endpoint>(
  transport: Transport,
  endpoint: E,
  args: EndpointArgs<E> | undefined,
  options?: RequestOptions,
): Promise<EndpointResult<E>> {
  const record = (args ?? {}) as Record<string, unknown> & { query?: Query; body?: unknown };
  const { path, secrets } = fillPath(endpoint.path, record);
  return transport.request<EndpointResult<E>>(
    {
      api: endpoint.api,
      method: endpoint.method,
      path,
      auth: endpoint.auth,
      query: record.query,
      body: record.body,
      bodyType: endpoint.bodyType ?? 'json',
      responseKind: endpoint.responseKind,
      secrets,
    },
    options,
  );
}

/** A typed method for one endpoint: the argument object is optional when nothing in it is required. */
export type EndpointMethod<E extends Endpoint> =
  {} extends EndpointArgs<E>
    ? (args?: EndpointArgs<E>, options?: RequestOptions) => Promise<EndpointResult<E>>
    : (args: EndpointArgs<E>, options?: RequestOptions) => Promise<EndpointResult<E>>;

export type ResourceMethods<R extends Record<string, Endpoint>> = { readonly [K in keyof R]: EndpointMethod<R[K]> };

/** Binds a resource's endpoints to a transport, one method per endpoint. */
/*#__NO_SIDE_EFFECTS__*/
export function bindResource<R extends Record<string, Endpoint>>(
  transport: Transport,
  endpoints: R,
): ResourceMethods<R> {
  const methods: Record<string, unknown> = {};
  for (const [key, endpoint] of Object.entries(endpoints)) {
    methods[key] = (args?: EndpointArgs<Endpoint>, options?: RequestOptions) =>
      callEndpoint(transport, endpoint, args, options);
  }
  return methods as ResourceMethods<R>;
}
