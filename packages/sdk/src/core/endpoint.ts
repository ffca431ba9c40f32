import { bounded, type Schema, type Static } from './schema.js';

/** Which of the two back ends answers an endpoint. */
export type Api = 'apollo' | 'legacy';
/** The HTTP method of a catalogue endpoint (its `method`). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * How a call authenticates: `apiKey` sends the application key header (plus the user's bearer token
 * when one is known), `token` sends the user's token in `Authorization`, `none` sends neither.
 */
export type AuthMode = 'apiKey' | 'token' | 'none';
/** How the success body is read: JSON, plain text, a file download, or nothing. */
export type ResponseKind = 'json' | 'text' | 'blob' | 'empty';
/**
 * Who may call an endpoint, as the server enforces it: `public` anyone (apollo still asks the
 * application key unless the auth mode is `none`), `signin` the short-lived token of a password
 * sign-in that still needs its second factor, or a session; `session` a signed-in user only.
 */
export type Access = 'public' | 'signin' | 'session';
/** Where a request carries the value that names what it acts on: its path, its query or its JSON body. */
export type ScopeSource = 'path' | 'query' | 'body';

/**
 * Names the worker whose active tenant a legacy worker screen works on: the parameter `name` in the
 * path, query or body. With `index`, the parameter of that name must also be the worker's archive index
 * address, or the worker counts as unknown.
 */
export interface WorkerTenantScope {
  readonly in: ScopeSource;
  readonly name: 'workerIp' | 'ip';
  readonly index?: 'indexIp';
}

/** Names a worker itself: by its address (`workerIp`) or its id (`workerId`), in the path, query or body. */
export interface WorkerScope {
  readonly in: ScopeSource;
  readonly name: 'workerIp' | 'workerId';
}

/**
 * What a signed-in call acts on. The server resolves it once, after authentication and validation and
 * before the handler, and answers a tenant, worker or organisation the caller may not act for with the
 * same 404 as an unknown one; the handler receives what was resolved.
 * - `{ tenant: in }`: the tenant that `tenantId` in the path, query or body names.
 * - `{ workerTenant: { in, name, index? } }`: the active tenant of the worker that `name` names (the
 *   legacy worker screens); 404 also while the worker has no tenant configured.
 * - `{ worker: { in, name } }`: the worker itself.
 * - `{ organisation: 'query' }`: the organisation that `organisationId` names; without it the caller's own.
 * - `'caller'`: nothing beyond the caller's own account and organisation. Roles, and ids a body or query
 *   names (a job, a user, an organisation), are checked by the handler's service, with the same 404s.
 *
 * Every endpoint whose access is not `public` declares one (`defineResource` refuses one without).
 */
export type Scope =
  | 'caller'
  | { readonly tenant: ScopeSource }
  | { readonly workerTenant: WorkerTenantScope }
  | { readonly worker: WorkerScope }
  | { readonly organisation: 'query' };

/** Refusals particular to one endpoint, by status, each saying when it is given. */
export interface Refusals {
  /** Given to an endpoint that needs no token: credentials refused. */
  readonly 401?: string;
  /**
   * How that 401 comes on apollo when not as problem details, as ASP.NET Identity's endpoints answer:
   * `empty`, a bare 401 (its `TypedResults.Unauthorized()`); `challenge`, an empty body with
   * `WWW-Authenticate: Bearer` (its `TypedResults.Challenge()`). A wrong application key is still
   * refused with problem details.
   */
  readonly emptyBody401?: 'empty' | 'challenge';
  /** A refusal of its own beyond "not for this tenant or organisation" (a role the caller lacks). */
  readonly 403?: string;
  /** What else than the path's resources may be unknown (ids in the body or query). */
  readonly 404?: string;
  readonly 409?: string;
  readonly 429?: string;
}

/** One entry of the endpoint catalogue. `path` is a template such as `/api/{tenantId}/jobs/{jobId}/start`. */
export interface Endpoint<
  P extends string = string,
  Params extends Schema | undefined = Schema | undefined,
  Query extends Schema | undefined = Schema | undefined,
  Body extends Schema | undefined = Schema | undefined,
  Response extends Schema | undefined = Schema | undefined,
> {
  readonly id: string;
  readonly api: Api;
  readonly method: HttpMethod;
  readonly path: P;
  readonly auth: AuthMode;
  /** Who may call it (default: `public` when the auth mode is `none`, else `session`). */
  readonly access: Access;
  /** What it acts on, resolved by the server before its handler; absent on `public` endpoints. */
  readonly scope?: Scope;
  /** The resource group (OpenAPI tag). */
  readonly resource: string;
  readonly summary: string;
  /** Path parameter schemas where they are narrower than a plain string. */
  readonly params?: Params;
  readonly query?: Query;
  readonly body?: Body;
  /** `multipart` bodies are sent as FormData; their schema lists the form fields. */
  readonly bodyType?: 'json' | 'multipart';
  readonly response?: Response;
  readonly responseKind: ResponseKind;
  /** Success status when it is not 200. */
  readonly successStatus?: number;
  /**
   * A POST that only reads (a search, a preview, a download): retried on 429, 503 and network
   * errors like GET, PUT and DELETE. Other POSTs are never retried.
   */
  readonly idempotent?: boolean;
  /** A download's media types, as the server sends them (`responseKind: 'blob'`). */
  readonly contentTypes?: readonly string[];
  /** Limited per client address and minute (the server's PORTAL_AUTH_RATE_LIMIT); 429 beyond it. */
  readonly rateLimited?: boolean;
  /** Refusals beyond those every endpoint of its kind may give. */
  readonly refusals?: Refusals;
}

/** The parameter names of a path template: `'/a/{x}/b/{y}'` gives `'x' | 'y'`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type HasRequiredKey<T> = {} extends T ? false : true;

type ParamsArgs<E extends Endpoint> =
  E extends Endpoint<infer P, infer Params>
    ? Params extends Schema
      ? Static<Params>
      : { [K in PathParamNames<P>]: string | number }
    : never;
type QueryOf<E extends Endpoint> = E extends Endpoint<string, Schema | undefined, infer Q> ? Q : undefined;
type BodyOf<E extends Endpoint> =
  E extends Endpoint<string, Schema | undefined, Schema | undefined, infer B> ? B : undefined;
type ResponseOf<E extends Endpoint> =
  E extends Endpoint<string, Schema | undefined, Schema | undefined, Schema | undefined, infer R> ? R : undefined;
type QueryArgs<E extends Endpoint> =
  QueryOf<E> extends Schema
    ? HasRequiredKey<Static<QueryOf<E>>> extends true
      ? { query: Static<QueryOf<E>> }
      : { query?: Static<QueryOf<E>> }
    : {};
type BodyArgs<E extends Endpoint> = BodyOf<E> extends Schema ? { body: Static<BodyOf<E>> | FormDataLike<E> } : {};
type FormDataLike<E extends Endpoint> = E['bodyType'] extends 'multipart' ? FormData : never;

/** The single argument object of an endpoint's method: its path parameters, `query` and `body`. */
export type EndpointArgs<E extends Endpoint> = Simplify<ParamsArgs<E> & QueryArgs<E> & BodyArgs<E>>;

/** What an endpoint's method resolves to. */
export type EndpointResult<E extends Endpoint> = E['responseKind'] extends 'blob'
  ? DownloadResult
  : E['responseKind'] extends 'empty'
    ? undefined
    : ResponseOf<E> extends Schema
      ? Static<ResponseOf<E>>
      : unknown;

/** A downloaded file. */
export interface DownloadResult {
  blob: Blob;
  /** From the response's Content-Disposition header, when it names one. */
  fileName: string | undefined;
  contentType: string | undefined;
}

type Definition<P extends string, Params, Query, Body, Response> = {
  method: HttpMethod;
  path: P;
  summary: string;
  auth?: AuthMode;
  params?: Params;
  query?: Query;
  body?: Body;
  bodyType?: 'json' | 'multipart';
  response?: Response;
  responseKind?: ResponseKind;
  successStatus?: number;
  idempotent?: boolean;
  access?: Access;
  scope?: Scope;
  contentTypes?: readonly string[];
  rateLimited?: boolean;
  refusals?: Refusals;
};

/**
 * A definition whose access is not `public` (given, or by default: `session` unless the auth mode is
 * `none`) must declare its scope: the check that keeps one organisation from another's data is never
 * left to be remembered in a handler.
 */
type ScopeDeclared<D> = D extends { access: 'public' }
  ? unknown
  : D extends { auth: 'none'; access?: undefined }
    ? unknown
    : D extends { scope: Scope }
      ? unknown
      : { scope: Scope };

/**
 * Declares one resource's endpoints: ids become `{api}.{resource}.{key}`; the auth mode defaults to
 * `apiKey` on apollo and `token` on legacy; the response kind to `json` when a response schema is
 * given and `empty` otherwise.
 */
/*#__NO_SIDE_EFFECTS__*/
export function defineResource<
  const A extends Api,
  const Res extends string,
  const R extends Record<
    string,
    Definition<string, Schema | undefined, Schema | undefined, Schema | undefined, Schema | undefined>
  >,
>(
  api: A,
  resource: Res,
  definitions: R & { [K in keyof R]: ScopeDeclared<R[K]> },
): {
  [K in keyof R]: R[K] extends Definition<infer P, infer Params, infer Query, infer Body, infer Response>
    ? Endpoint<
        P,
        Params extends Schema ? Params : undefined,
        Query extends Schema ? Query : undefined,
        Body extends Schema ? Body : undefined,
        Response extends Schema ? Response : undefined
      > & {
        readonly id: `${A}.${Res}.${K & string}`;
        readonly api: A;
        readonly responseKind: R[K]['responseKind'] extends ResponseKind
          ? R[K]['responseKind']
          : Response extends Schema
            ? 'json'
            : 'empty';
        readonly bodyType: R[K]['bodyType'] extends 'multipart' ? 'multipart' : 'json';
        readonly scope: R[K] extends { scope: infer S extends Scope } ? S : undefined;
      }
    : never;
} {
  const out: Record<string, Endpoint> = {};
  for (const [key, def] of Object.entries(definitions)) {
    out[key] = {
      ...def,
      // Request values get the catalogue's default bounds wherever a schema leaves one open.
      ...(def.params ? { params: bounded(def.params) } : {}),
      ...(def.query ? { query: bounded(def.query) } : {}),
      ...(def.body ? { body: bounded(def.body) } : {}),
      id: `${api}.${resource}.${key}`,
      api,
      resource,
      auth: def.auth ?? (api === 'apollo' ? 'apiKey' : 'token'),
      access: def.access ?? (def.auth === 'none' ? 'public' : 'session'),
      responseKind: def.responseKind ?? (def.response ? 'json' : 'empty'),
      bodyType: def.bodyType ?? 'json',
    };
  }
  // The mapped type above is exactly what the loop builds; TypeScript cannot follow a loop.
  return out as never;
}
