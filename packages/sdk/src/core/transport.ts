import type { Api, AuthMode, DownloadResult, ResponseKind } from './endpoint.js';
import {
  ApiError,
  apiErrorFor,
  type ErrorContext,
  NetworkError,
  parseRetryAfter,
  redactUrl,
  TimeoutError,
} from './errors.js';

/** How long a request may take before it fails with a TimeoutError: 500,000 ms. */
export const DEFAULT_TIMEOUT_MS = 500_000;
/**
 * The header that carries the application API key on apollo calls, unless {@link
 * ClientOptions.apiKeyHeader} names another.
 */
export const DEFAULT_API_KEY_HEADER = 'X-Api-Key';
/** Retries of an idempotent call after a 429, a 503 or a network error, unless `maxRetries` says. */
export const DEFAULT_MAX_RETRIES = 2;
/** The longest `Retry-After` the client waits for; a longer one gets the usual back-off instead. */
const MAX_RETRY_AFTER_MS = 60_000;
const RETRY_STATUSES = new Set([429, 503]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * Which apollo deployment a client calls: `production` (base path `/apollo-beta`) or `staging`
 * (`/apollo`, also the path behind a proxy). The legacy API is `/api` in both.
 */
export type Environment = 'production' | 'staging';
/**
 * The apollo base path of each {@link Environment}, appended to `origin` unless `apolloBaseUrl` is
 * given.
 */
export const apolloBasePaths: Readonly<Record<Environment, string>> = {
  production: '/apollo-beta',
  staging: '/apollo',
};
/** The legacy API's base path, appended to `origin` unless `legacyBaseUrl` is given. */
export const LEGACY_BASE_PATH = '/api';

/**
 * Apollo's sign-in: its 401 means the credentials were refused, not that a session ended, so it
 * never reaches `onUnauthorized`.
 */
const UNAUTHORIZED_MEANS_REFUSED = 'apollo.auth.login';

/**
 * An error a sent call rejects with, and what `onError` receives: {@link ApiError} (or a subclass by
 * status) for an answer outside 2xx, {@link NetworkError} when no answer came, {@link TimeoutError}
 * when `timeoutMs` ran out. Bad arguments reject with a `TypeError` instead, and an abort with the
 * signal's reason.
 */
export type SdkError = ApiError | NetworkError | TimeoutError;

/**
 * Options of {@link createClient} and {@link createTransport}. Outside a browser, `origin` is required
 * unless both `apolloBaseUrl` and `legacyBaseUrl` are given; in a browser, calls go to the page's own
 * origin by default.
 */
export interface ClientOptions {
  /** `production` sends apollo calls to /apollo-beta, `staging` to /apollo. Default `production`. */
  environment?: Environment;
  /** Scheme, host and port, such as `https://portal.example.com`. Needed outside a browser. */
  origin?: string;
  /** Overrides the apollo base URL (origin and path) entirely. */
  apolloBaseUrl?: string;
  /** Overrides the legacy base URL (origin and path) entirely. */
  legacyBaseUrl?: string;
  /** The application API key sent on apollo calls. It identifies the application, not the user. */
  apiKey?: string;
  /** Header name for {@link apiKey}. Default `X-Api-Key`. */
  apiKeyHeader?: string;
  /** The signed-in user's token, or a function that reads the current one. */
  token?: string | (() => string | null | undefined);
  /** Called with the error of a 401 on an apollo call, except the sign-in (`apollo.auth.login`). */
  onUnauthorized?: (error: ApiError) => void;
  /** Called with every error before the call rejects (for toasts, logging). */
  onError?: (error: SdkError) => void;
  /** Default 500000 ms. */
  timeoutMs?: number;
  /**
   * Retries of an idempotent call (GET, PUT, DELETE and POSTs that only read) after a 429, a 503 or
   * a network error, waiting as `Retry-After` says or with jittered exponential back-off. Default 2;
   * 0 turns retries off. Other calls are never retried.
   */
  maxRetries?: number;
  /** A fetch implementation; default the global one. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers for every call. */
  headers?: Record<string, string>;
}

/** Options of one call: the last argument of every typed method and of the generic helpers. */
export interface RequestOptions {
  /**
   * Aborts the call, also while it waits before a retry; the call then rejects with the signal's
   * reason.
   */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (it covers every attempt and the waits between them). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Asks the caller not to show an error toast; carried on the error as `disableToast`. */
  disableToast?: boolean;
  /** Extra headers for this call; they win over the client's `headers` and the SDK's own. */
  headers?: Record<string, string>;
}

/**
 * A query parameter's value: `undefined` and `null` leave the parameter out, an array repeats it once
 * per item (`?status=failed&status=running`), anything else is sent as its string.
 */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
/**
 * Query parameters by name, as the generic helpers' `query` option takes them; see {@link QueryValue}.
 */
export type Query = Record<string, QueryValue>;

/** A request as the transport sends it; the path is already filled in. */
export interface TransportRequest {
  /** The catalogue id of the endpoint, carried by its errors; absent for the generic helpers. */
  endpoint?: string | undefined;
  api: Api;
  method: string;
  path: string;
  auth: AuthMode;
  query?: Query | undefined;
  body?: unknown;
  bodyType?: 'json' | 'multipart';
  responseKind: ResponseKind;
  /** Values that must not appear in an error's URL (path tokens). */
  secrets?: readonly string[];
  /** A POST that may be retried (it only reads); GET, PUT and DELETE are retried anyway. */
  idempotent?: boolean | undefined;
}

/** Options of the generic helpers (`get`, `post`, …). `legacy` sends the call to the legacy API. */
export interface HelperOptions extends RequestOptions {
  legacy?: boolean;
  query?: Query;
  /** Default `apiKey` on apollo, `token` on legacy. */
  auth?: AuthMode;
}

/**
 * The HTTP layer that every resource is bound to, made by {@link createTransport}: base URLs,
 * authentication headers, timeout, retries and error mapping. Its generic helpers reach any path; a
 * {@link PortalClient} offers them too.
 */
export interface Transport {
  /** Sets or clears the user's token used from now on. */
  setToken(token: string | null | undefined): void;
  /** The base URL of one API, such as `https://host/apollo-beta`. */
  baseUrl(api: Api): string;
  /**
   * Sends one request as the catalogue describes it (API, method, filled path, auth mode, query, body,
   * how to read the answer) and resolves to the answer read that way. What every typed method calls.
   */
  request<T>(request: TransportRequest, options?: RequestOptions): Promise<T>;
  /**
   * GETs a path of apollo (of legacy with `legacy: true`) and resolves to its JSON answer, typed `T`
   * but not checked.
   */
  get<T = unknown>(path: string, options?: HelperOptions): Promise<T>;
  /**
   * POSTs `body` as JSON to a path of apollo (of legacy with `legacy: true`) and resolves to its JSON
   * answer, typed `T` but not checked. Never retried.
   */
  post<T = unknown>(path: string, body?: unknown, options?: HelperOptions): Promise<T>;
  /**
   * PUTs `body` as JSON to a path of apollo (of legacy with `legacy: true`) and resolves to its JSON
   * answer, typed `T` but not checked.
   */
  put<T = unknown>(path: string, body?: unknown, options?: HelperOptions): Promise<T>;
  /**
   * PATCHes a path of apollo (of legacy with `legacy: true`) with `body` as JSON and resolves to its
   * JSON answer, typed `T` but not checked. Never retried.
   */
  patch<T = unknown>(path: string, body?: unknown, options?: HelperOptions): Promise<T>;
  /**
   * DELETEs a path of apollo (of legacy with `legacy: true`) and resolves to its JSON answer, if any,
   * typed `T` but not checked.
   */
  delete<T = unknown>(path: string, options?: HelperOptions): Promise<T>;
  /** Fetches a file; on failure rejects with an {@link ApiError} whose body is the parsed error. */
  download(path: string, options?: HelperOptions & { method?: string; body?: unknown }): Promise<DownloadResult>;
  /** Sends FormData as multipart; on failure rejects with the parsed error body on an {@link ApiError}. */
  upload<T = unknown>(path: string, form: FormData, options?: HelperOptions): Promise<T>;
}

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Reads the file name of a Content-Disposition header; RFC 5987 `filename*` wins over `filename`. */
export function fileNameFromDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed extended value falls back to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const plain = /filename\s*=\s*([^;]+)/i.exec(header);
  return plain?.[1]?.trim() || undefined;
}

async function readErrorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toFormData(body: unknown): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) {
      const fileName = (value as Blob & { name?: unknown }).name;
      form.append(name, value, typeof fileName === 'string' ? fileName : name);
    } else form.append(name, String(value));
  }
  return form;
}

/**
 * Creates a {@link Transport} from the client options. Bind only the resources you use to it, such as
 * `tenantsApi(createTransport(options))`, to ship less code than {@link createClient}. Throws a
 * `TypeError` outside a browser when neither `origin` nor both base URLs are given.
 */
export function createTransport(options: ClientOptions = {}): Transport {
  const environment = options.environment ?? 'production';
  const inBrowser = typeof globalThis.location !== 'undefined';
  const origin = options.origin !== undefined ? trimSlash(options.origin) : '';
  if (!origin && !inBrowser && !(options.apolloBaseUrl && options.legacyBaseUrl)) {
    throw new TypeError('createClient: `origin` (or both base URLs) is required outside a browser');
  }
  const bases: Record<Api, string> = {
    apollo: trimSlash(options.apolloBaseUrl ?? `${origin}${apolloBasePaths[environment]}`),
    legacy: trimSlash(options.legacyBaseUrl ?? `${origin}${LEGACY_BASE_PATH}`),
  };
  const apiKeyHeader = options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER;
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetriesFor = (requestOptions: RequestOptions) =>
    Math.max(0, Math.floor(requestOptions.maxRetries ?? options.maxRetries ?? DEFAULT_MAX_RETRIES));
  let token = options.token;

  const currentToken = (): string | undefined => {
    const value = typeof token === 'function' ? token() : token;
    return value || undefined;
  };

  function headersFor(request: TransportRequest, extra: Record<string, string> | undefined): Headers {
    const headers = new Headers(options.headers);
    headers.set('Accept', request.responseKind === 'blob' ? 'application/json, */*;q=0.8' : 'application/json');
    if (request.bodyType !== 'multipart') headers.set('Content-Type', 'application/json');
    headers.set('Cache-Control', 'no-cache');
    headers.set('X-Content-Type-Options', 'nosniff');
    const userToken = currentToken();
    if (request.auth === 'apiKey') {
      if (options.apiKey) headers.set(apiKeyHeader, options.apiKey);
      // The key ships in a web bundle and is public, so the user's token always goes with it.
      if (userToken) headers.set('Authorization', `Bearer ${userToken}`);
    } else if (request.auth === 'token' && userToken) {
      headers.set('Authorization', userToken);
    }
    for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    return headers;
  }

  async function request<T>(req: TransportRequest, requestOptions: RequestOptions = {}): Promise<T> {
    const url = `${bases[req.api]}${req.path}${buildQuery(req.query)}`;
    const context: ErrorContext = {
      endpoint: req.endpoint,
      api: req.api,
      method: req.method,
      url: redactUrl(url, req.secrets),
      disableToast: requestOptions.disableToast ?? false,
    };
    const fail = (error: ApiError | NetworkError | TimeoutError): never => {
      if (
        error instanceof ApiError &&
        error.status === 401 &&
        req.api !== 'legacy' &&
        req.endpoint !== UNAUTHORIZED_MEANS_REFUSED &&
        options.onUnauthorized
      ) {
        options.onUnauthorized(error);
      }
      options.onError?.(error);
      throw error;
    };

    const timeoutMs = requestOptions.timeoutMs ?? defaultTimeout;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const callerSignal = requestOptions.signal;
    const forwardAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forwardAbort();
    else callerSignal?.addEventListener('abort', forwardAbort, { once: true });

    const hasBody = req.body !== undefined && req.method !== 'GET';
    const init: RequestInit = {
      method: req.method,
      headers: headersFor(req, requestOptions.headers),
      signal: controller.signal,
      ...(hasBody ? { body: req.bodyType === 'multipart' ? toFormData(req.body) : JSON.stringify(req.body) } : {}),
    };
    const doFetch = options.fetch ?? globalThis.fetch;
    const retries = IDEMPOTENT_METHODS.has(req.method) || req.idempotent === true ? maxRetriesFor(requestOptions) : 0;
    /** Waits before the next attempt; an abort (the caller's or the timeout) ends the wait. */
    const pause = (attempt: number, retryAfter: number | undefined) =>
      new Promise<void>((resolve, reject) => {
        const ms =
          retryAfter !== undefined && retryAfter * 1000 <= MAX_RETRY_AFTER_MS
            ? retryAfter * 1000
            : Math.min(8000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
        const onAbort = () => {
          clearTimeout(wait);
          reject(controller.signal.reason);
        };
        const wait = setTimeout(() => {
          controller.signal.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        controller.signal.addEventListener('abort', onAbort, { once: true });
      });
    try {
      let response: Response;
      for (let attempt = 0; ; attempt++) {
        try {
          response = await doFetch(url, init);
        } catch (cause) {
          if (timedOut) return fail(new TimeoutError(context, timeoutMs));
          if (callerSignal?.aborted) throw callerSignal.reason;
          if (attempt < retries) {
            await pause(attempt, undefined).catch(() => undefined);
            if (timedOut) return fail(new TimeoutError(context, timeoutMs));
            if (callerSignal?.aborted) throw callerSignal.reason;
            continue;
          }
          return fail(new NetworkError(context, cause));
        }
        if (!RETRY_STATUSES.has(response.status) || attempt >= retries) break;
        // Read to the end (not cancelled) so that the connection can serve the next attempt.
        await response.arrayBuffer().catch(() => undefined);
        await pause(attempt, parseRetryAfter(response.headers.get('Retry-After'))).catch(() => undefined);
        if (timedOut) return fail(new TimeoutError(context, timeoutMs));
        if (callerSignal?.aborted) throw callerSignal.reason;
      }
      try {
        if (!response.ok) {
          return fail(apiErrorFor(response.status, await readErrorBody(response), context, response.headers));
        }
        switch (req.responseKind) {
          case 'empty':
            await response.body?.cancel();
            return undefined as T;
          case 'text':
            return (await response.text()) as T;
          case 'blob': {
            const blob = await response.blob();
            const result: DownloadResult = {
              blob,
              fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')),
              contentType: response.headers.get('Content-Type') ?? undefined,
            };
            return result as T;
          }
          default: {
            const text = await response.text();
            return (text ? JSON.parse(text) : undefined) as T;
          }
        }
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (timedOut) return fail(new TimeoutError(context, timeoutMs));
        if (callerSignal?.aborted) throw callerSignal.reason;
        if (error instanceof SyntaxError) {
          return fail(
            new ApiError(response.status, undefined, context, response.headers.get('request-id') ?? undefined),
          );
        }
        return fail(new NetworkError(context, error));
      }
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', forwardAbort);
    }
  }

  const helper =
    (method: string, withBody: boolean) =>
    <T>(path: string, bodyOrOptions?: unknown, maybeOptions?: HelperOptions): Promise<T> => {
      const opts = (withBody ? maybeOptions : (bodyOrOptions as HelperOptions | undefined)) ?? {};
      const api: Api = opts.legacy ? 'legacy' : 'apollo';
      return request<T>(
        {
          api,
          method,
          path,
          auth: opts.auth ?? (api === 'apollo' ? 'apiKey' : 'token'),
          query: opts.query,
          body: withBody ? bodyOrOptions : undefined,
          responseKind: 'json',
        },
        opts,
      );
    };

  return {
    setToken(next) {
      token = next ?? undefined;
    },
    baseUrl: (api) => bases[api],
    request,
    get: helper('GET', false),
    post: helper('POST', true),
    put: helper('PUT', true),
    patch: helper('PATCH', true),
    delete: helper('DELETE', false),
    download(path, opts = {}) {
      const api: Api = opts.legacy ? 'legacy' : 'apollo';
      return request<DownloadResult>(
        {
          api,
          method: opts.method ?? 'GET',
          path,
          auth: opts.auth ?? (api === 'apollo' ? 'apiKey' : 'token'),
          query: opts.query,
          body: opts.body,
          responseKind: 'blob',
        },
        opts,
      );
    },
    upload<T>(path: string, form: FormData, opts: HelperOptions = {}) {
      const api: Api = opts.legacy ? 'legacy' : 'apollo';
      return request<T>(
        {
          api,
          method: 'POST',
          path,
          auth: opts.auth ?? (api === 'apollo' ? 'apiKey' : 'token'),
          query: opts.query,
          body: form,
          bodyType: 'multipart',
          responseKind: 'json',
        },
        opts,
      );
    },
  };
}
