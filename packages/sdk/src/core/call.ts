import type { Endpoint, EndpointArgs, EndpointResult } from './endpoint.js';
import type { Query, RequestOptions, Transport } from './transport.js';

const paramPattern = /\{([^}]+)\}/g;
/** Path parameters whose values are credentials and must never reach an error report. */
const secretParam = /token/i;

/** Fills a path template; every parameter must be given. */
function fillPath(template: string, params: Record<string, unknown>): { path: string; secrets: string[] } {
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

const REQUEST_OPTION_KEYS = new Set(['signal', 'timeoutMs', 'maxRetries', 'disableToast', 'headers']);

/**
 * Refuses argument keys the endpoint does not take, naming where they belong: a body field or query
 * parameter given at the top level, or request options (`{ signal }`) given as the first argument,
 * would otherwise be dropped without a word.
 */
function checkArgs(endpoint: Endpoint, record: Record<string, unknown>): void {
  const pathNames = new Set([...endpoint.path.matchAll(paramPattern)].map((m) => m[1]));
  for (const key of Object.keys(record)) {
    if (pathNames.has(key) || (key === 'query' && endpoint.query) || (key === 'body' && endpoint.body)) continue;
    const where = `${endpoint.id} (${endpoint.method} ${endpoint.path})`;
    let hint: string;
    if (endpoint.body?.properties?.[key] !== undefined || (key !== 'body' && endpoint.bodyType === 'multipart')) {
      hint = `it belongs in \`body\`: { body: { ${key}: … } }`;
    } else if (endpoint.query?.properties?.[key] !== undefined) {
      hint = `it belongs in \`query\`: { query: { ${key}: … } }`;
    } else if (REQUEST_OPTION_KEYS.has(key)) {
      hint = `request options go in the second argument: method(args, { ${key} })`;
    } else {
      const takes = [...pathNames, ...(endpoint.query ? ['query'] : []), ...(endpoint.body ? ['body'] : [])];
      hint = takes.length > 0 ? `it takes ${takes.map((k) => `\`${k}\``).join(', ')}` : 'it takes no arguments';
    }
    throw new TypeError(`${where}: unknown argument \`${key}\`; ${hint}.`);
  }
}

/**
 * The argument object a method takes: the endpoint's arguments, and the request options' names refused
 * there (typed `never`), so that `list({ signal })` fails to compile as it fails at run time. Without
 * them, a method without arguments (whose argument object is `{}`) would take any object, and an
 * object spread into the arguments would bring its options unseen.
 */
type MethodArgs<E extends Endpoint> = EndpointArgs<E> & {
  readonly [K in Exclude<keyof RequestOptions, keyof EndpointArgs<E>>]?: never;
};

/** Calls one catalogue endpoint with its argument object. */
export function callEndpoint<E extends Endpoint>(
  transport: Transport,
  endpoint: E,
  args: MethodArgs<E> | undefined,
  options?: RequestOptions,
): Promise<EndpointResult<E>> {
  const record = (args ?? {}) as Record<string, unknown> & { query?: Query; body?: unknown };
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return Promise.reject(new TypeError(`${endpoint.id}: the first argument must be an object of arguments.`));
  }
  let filled: { path: string; secrets: string[] };
  try {
    checkArgs(endpoint, record);
    filled = fillPath(endpoint.path, record);
  } catch (error) {
    // Bad arguments reject the call's promise, as every other failure does.
    return Promise.reject(error);
  }
  const { path, secrets } = filled;
  return transport.request<EndpointResult<E>>(
    {
      endpoint: endpoint.id,
      api: endpoint.api,
      method: endpoint.method,
      path,
      auth: endpoint.auth,
      query: record.query,
      body: record.body,
      bodyType: endpoint.bodyType ?? 'json',
      responseKind: endpoint.responseKind,
      secrets,
      idempotent: endpoint.idempotent,
    },
    options,
  );
}

/** The item type of a paged list's answer (`{ items, total, page, pageSize }`), `never` for other answers. */
type PageItem<E extends Endpoint> =
  EndpointResult<E> extends { items: readonly (infer T)[]; total: number; page: number; pageSize: number } ? T : never;

type CallArgs<E extends Endpoint> = {} extends EndpointArgs<E> ? [args?: MethodArgs<E>] : [args: MethodArgs<E>];

/**
 * What a paged list's method offers besides one page: async iterators over every page and every item,
 * fetching the next page only when the loop asks for it. They start at `query.page` (default 1) and
 * keep the rest of the query (filter, sort, page size).
 */
interface PagedMethod<E extends Endpoint> {
  /** Each page in turn, as the list method answers it. */
  pages(...args: [...CallArgs<E>, options?: RequestOptions]): AsyncIterableIterator<EndpointResult<E>>;
  /** Each item of each page in turn. */
  items(...args: [...CallArgs<E>, options?: RequestOptions]): AsyncIterableIterator<PageItem<E>>;
}

/** A typed method for one endpoint: the argument object is optional when nothing in it is required. */
export type EndpointMethod<E extends Endpoint> = ({} extends EndpointArgs<E>
  ? (args?: MethodArgs<E>, options?: RequestOptions) => Promise<EndpointResult<E>>
  : (args: MethodArgs<E>, options?: RequestOptions) => Promise<EndpointResult<E>>) &
  ([PageItem<E>] extends [never] ? {} : PagedMethod<E>);

/** Does the endpoint answer one page of a server-side list (page and pageSize in, items and total out)? */
export function isPaged(endpoint: Endpoint): boolean {
  const query = endpoint.query?.properties ?? {};
  const response = endpoint.response?.properties ?? {};
  return 'page' in query && 'pageSize' in query && 'items' in response && 'total' in response;
}

interface AnyPage {
  items: unknown[];
  total: number;
  page: number;
  pageSize: number;
}

async function* pagesOf(
  transport: Transport,
  endpoint: Endpoint,
  args: Record<string, unknown> | undefined,
  options: RequestOptions | undefined,
): AsyncGenerator<AnyPage> {
  const query = (args?.query ?? {}) as Query;
  let page = typeof query.page === 'number' ? query.page : 1;
  for (;;) {
    const answer = (await callEndpoint(
      transport,
      endpoint,
      { ...args, query: { ...query, page } } as never,
      options,
    )) as AnyPage;
    yield answer;
    const seen = answer.page * answer.pageSize;
    if (answer.items.length === 0 || seen >= answer.total) return;
    page = answer.page + 1;
  }
}

/**
 * The methods of one bound resource, as `tenantsApi(transport)` and the other resource functions answer
 * them: one {@link EndpointMethod} per endpoint of the resource, under the endpoint's key (`list`,
 * `get`, `create`, …).
 */
export type ResourceMethods<R extends Record<string, Endpoint>> = { readonly [K in keyof R]: EndpointMethod<R[K]> };

/** Binds a resource's endpoints to a transport, one method per endpoint. */
/*#__NO_SIDE_EFFECTS__*/
export function bindResource<R extends Record<string, Endpoint>>(
  transport: Transport,
  endpoints: R,
): ResourceMethods<R> {
  const methods: Record<string, unknown> = {};
  for (const [key, endpoint] of Object.entries(endpoints)) {
    const method = (args?: EndpointArgs<Endpoint>, options?: RequestOptions) =>
      callEndpoint(transport, endpoint, args, options);
    if (isPaged(endpoint)) {
      type Args = Record<string, unknown> | undefined;
      Object.assign(method, {
        pages: (args?: Args, options?: RequestOptions) => pagesOf(transport, endpoint, args, options),
        async *items(args?: Args, options?: RequestOptions) {
          for await (const page of pagesOf(transport, endpoint, args, options)) yield* page.items;
        },
      });
    }
    methods[key] = method;
  }
  return methods as ResourceMethods<R>;
}
