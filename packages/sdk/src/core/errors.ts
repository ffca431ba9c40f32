import type { Api } from './endpoint.js';
import { type ErrorMessageKey, errorMessageKey } from './message-keys.js';
import { signInRefusalCode } from './sign-in-refusals.js';

/**
 * The request an error is about, as the transport hands it to a {@link PortalError}: its method, its
 * URL with secrets redacted, and whether the caller asked for no toast.
 */
export interface ErrorContext {
  /**
   * The catalogue id of the endpoint called, such as `apollo.auth.login` (see `endpointById`);
   * undefined for a call made with the generic helpers (`get`, `post`, …).
   */
  endpoint?: string | undefined;
  /** The API the call went to; undefined when the error was made without a call. */
  api?: Api | undefined;
  /** The HTTP method, such as `GET`. */
  method: string;
  /** The request URL with secrets (tokens, codes, keys) replaced by `[REDACTED]`. */
  url: string;
  /** The request asked the caller not to show an error toast for it. */
  disableToast: boolean;
}

/**
 * Reads a failed response body's message as section 8 maps it: its `message`, else its `title`. A
 * problem details' `detail` is not the message (see {@link bodyDetail}).
 */
export function bodyMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { message, title } = body as { message?: unknown; title?: unknown };
    for (const text of [message, title]) if (typeof text === 'string' && text) return text;
  }
  return undefined;
}

/** Reads a failed response body's `detail` (problem details: this occurrence's own explanation). */
export function bodyDetail(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { detail } = body as { detail?: unknown };
    if (typeof detail === 'string' && detail) return detail;
  }
  return undefined;
}

/** Reads a failed response body's machine-readable `code` (problem details member, legacy field). */
export function bodyCode(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { code } = body as { code?: unknown };
    if (typeof code === 'string' && code) return code;
  }
  return undefined;
}

/**
 * The base of every error a call rejects with: {@link ApiError} (an answer outside 2xx, with a
 * subclass per status class), {@link NetworkError} (no answer) and {@link TimeoutError}.
 */
export abstract class PortalError extends Error {
  /**
   * The catalogue id of the endpoint called, such as `apollo.auth.login`; undefined for the generic
   * helpers. Decide what a failure means by this id (and `status`, `code`), never by the URL.
   */
  readonly endpoint: string | undefined;
  /** The API the call went to: `apollo` or `legacy`; undefined when the error was made without a call. */
  readonly api: Api | undefined;
  readonly method: string;
  /** The request URL with secrets (tokens, codes, keys) replaced by `[REDACTED]`. */
  readonly url: string;
  /** The request asked the caller not to show an error toast for it. */
  readonly disableToast: boolean;
  /** The key of the user-facing message in {@link errorMessage}'s catalogue. */
  abstract readonly messageKey: ErrorMessageKey;

  constructor(message: string, context: ErrorContext, options?: { cause?: unknown }) {
    super(message, options);
    this.endpoint = context.endpoint;
    this.api = context.api;
    this.method = context.method;
    this.url = context.url;
    this.disableToast = context.disableToast;
  }
}

/**
 * A response with a status outside 2xx. Calls reject with the subclass of its status class
 * (`NotFoundError` for 404 and so on; `ApiError` itself for the rest), so `instanceof ApiError`
 * catches them all.
 */
export class ApiError extends PortalError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  /** The parsed response body: JSON when it parses, else its text, else undefined. */
  readonly body: unknown;
  /**
   * The refusal's machine-readable code, such as `invalidCredentials`: the body's `code` when the
   * server gives one; for a sign-in refusal whose body names none, the code it stands for (apollo
   * `/login`'s `detail`, such as `NotAllowed`: `signInNotAllowed`; a legacy sign-in text). Decide by
   * it, never by the wording.
   */
  readonly code: string | undefined;
  /** The server's id of the request (its `request-id` header), for support and its logs. */
  readonly requestId: string | undefined;
  /**
   * The problem details' `detail`: what went wrong on this occasion, such as "No job 42", or apollo
   * `/login`'s `Failed`; undefined when the body has none.
   */
  readonly detail: string | undefined;
  readonly messageKey: ErrorMessageKey;

  /**
   * `message` is the answer's own text as section 8 reads it (`message`, else `title`), such as
   * "Access denied" or "Unauthorized"; without either, "Request failed with status code N". The
   * `detail` stays on {@link ApiError.detail}.
   */
  constructor(status: number, body: unknown, context: ErrorContext, requestId?: string) {
    super(bodyMessage(body) ?? `Request failed with status code ${status}`, context);
    this.status = status;
    this.body = body;
    this.detail = bodyDetail(body);
    this.code = bodyCode(body) ?? signInRefusalCode(context.endpoint, status, body);
    this.requestId = requestId;
    this.messageKey = errorMessageKey(this);
  }
}

/** 400: the request was refused as invalid; field errors are in `body.errors` when given. */
export class BadRequestError extends ApiError {
  override readonly name: string = 'BadRequestError';
}
/** 401: not signed in, the session ended, or the credentials are wrong. */
export class AuthenticationError extends ApiError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: signed in, but not allowed (another organisation's tenant, a trial licence's limit, a role). */
export class PermissionDeniedError extends ApiError {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: nothing with that id, or nothing the caller may see. */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
}
/** 409: the request conflicts with the current state (a duplicate name, a running job). */
export class ConflictError extends ApiError {
  override readonly name: string = 'ConflictError';
}
/** 429: too many requests; `retryAfter` holds the seconds the server asked to wait, when it said. */
export class RateLimitError extends ApiError {
  override readonly name: string = 'RateLimitError';
  readonly retryAfter: number | undefined;
  constructor(status: number, body: unknown, context: ErrorContext, requestId?: string, retryAfter?: number) {
    super(status, body, context, requestId);
    this.retryAfter = retryAfter;
  }
}
/** 5xx: the server failed. */
export class InternalServerError extends ApiError {
  override readonly name: string = 'InternalServerError';
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), undefined when absent or bad. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error of a failed answer: the subclass of its status class. */
export function apiErrorFor(
  status: number,
  body: unknown,
  context: ErrorContext,
  headers?: { get(name: string): string | null },
): ApiError {
  const requestId = headers?.get('request-id') ?? headers?.get('x-request-id') ?? undefined;
  switch (status) {
    case 400:
      return new BadRequestError(status, body, context, requestId);
    case 401:
      return new AuthenticationError(status, body, context, requestId);
    case 403:
      return new PermissionDeniedError(status, body, context, requestId);
    case 404:
      return new NotFoundError(status, body, context, requestId);
    case 409:
      return new ConflictError(status, body, context, requestId);
    case 429:
      return new RateLimitError(status, body, context, requestId, parseRetryAfter(headers?.get('retry-after')));
    default:
      return status >= 500
        ? new InternalServerError(status, body, context, requestId)
        : new ApiError(status, body, context, requestId);
  }
}

/** The request never got a response (DNS, refused connection, CORS, offline). */
export class NetworkError extends PortalError {
  override readonly name = 'NetworkError';
  readonly messageKey: ErrorMessageKey = 'networkError';

  constructor(context: ErrorContext, cause?: unknown) {
    super('Network Error', context, { cause });
  }
}

/** The request ran longer than its timeout and was aborted. */
export class TimeoutError extends PortalError {
  override readonly name = 'TimeoutError';
  readonly timeoutMs: number;
  readonly messageKey: ErrorMessageKey = 'requestTimeout';

  constructor(context: ErrorContext, timeoutMs: number) {
    super('Request timeout', context);
    this.timeoutMs = timeoutMs;
  }
}

const secretQueryName = /token|code|key|secret|password|signature|sig$/i;

/**
 * Replaces secret path parameters and secret-looking query values with `[REDACTED]`, so an error
 * can be logged or reported without leaking a reset token or a verification code.
 */
export function redactUrl(url: string, secretPathValues: readonly string[] = []): string {
  let out = url;
  for (const value of secretPathValues) {
    if (value) out = out.split(encodeURIComponent(value)).join('[REDACTED]');
  }
  const q = out.indexOf('?');
  if (q < 0) return out;
  const params = new URLSearchParams(out.slice(q + 1));
  for (const name of [...params.keys()]) {
    if (secretQueryName.test(name)) params.set(name, '[REDACTED]');
  }
  return `${out.slice(0, q)}?${params.toString().replaceAll('%5BREDACTED%5D', '[REDACTED]')}`;
}
