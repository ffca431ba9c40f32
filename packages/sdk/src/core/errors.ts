import { type ErrorMessageKey, errorMessage } from './messages.js';

export interface ErrorContext {
  method: string;
  /** The request URL with secrets (tokens, codes, keys) replaced by `[REDACTED]`. */
  url: string;
  /** The request asked the caller not to show an error toast for it. */
  disableToast: boolean;
}

/** Reads a failed response body's message: its `message`, else its `title`. */
export function bodyMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { message, title } = body as { message?: unknown; title?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof title === 'string' && title) return title;
  }
  return undefined;
}

/** A response with a status outside 2xx. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The parsed response body: JSON when it parses, else its text, else undefined. */
  readonly body: unknown;
  readonly method: string;
  readonly url: string;
  readonly disableToast: boolean;
  /** The key of the user-facing message in {@link errorMessage}'s catalogue. */
  readonly messageKey: ErrorMessageKey;

  constructor(status: number, body: unknown, context: ErrorContext) {
    super(bodyMessage(body) ?? `Request failed with status code ${status}`);
    this.status = status;
    this.body = body;
    this.method = context.method;
    this.url = context.url;
    this.disableToast = context.disableToast;
    this.messageKey = errorMessage(this).key;
  }
}

/** The request never got a response (DNS, refused connection, CORS, offline). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly method: string;
  readonly url: string;
  readonly disableToast: boolean;
  readonly messageKey: ErrorMessageKey = 'networkError';

  constructor(context: ErrorContext, cause?: unknown) {
    super('Network Error', { cause });
    this.method = context.method;
    this.url = context.url;
    this.disableToast = context.disableToast;
  }
}

/** The request ran longer than its timeout and was aborted. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly method: string;
  readonly url: string;
  readonly disableToast: boolean;
  readonly timeoutMs: number;
  readonly messageKey: ErrorMessageKey = 'requestTimeout';

  constructor(context: ErrorContext, timeoutMs: number) {
    super('Request timeout');
    this.method = context.method;
    this.url = context.url;
    this.disableToast = context.disableToast;
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
