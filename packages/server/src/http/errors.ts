import type { Api, EndpointId } from '@compliance-portal/sdk';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isUniqueViolation } from '../db/unique-violation.js';
import { HttpError } from '../errors.js';

const titles: Record<number, [string, string]> = {
  400: ['Bad Request', 'https://tools.ietf.org/html/rfc9110#section-15.5.1'],
  401: ['Unauthorized', 'https://tools.ietf.org/html/rfc9110#section-15.5.2'],
  403: ['Forbidden', 'https://tools.ietf.org/html/rfc9110#section-15.5.4'],
  404: ['Not Found', 'https://tools.ietf.org/html/rfc9110#section-15.5.5'],
  409: ['Conflict', 'https://tools.ietf.org/html/rfc9110#section-15.5.10'],
  413: ['Content Too Large', 'https://tools.ietf.org/html/rfc9110#section-15.5.14'],
  414: ['URI Too Long', 'https://tools.ietf.org/html/rfc9110#section-15.5.15'],
  415: ['Unsupported Media Type', 'https://tools.ietf.org/html/rfc9110#section-15.5.16'],
  429: ['Too Many Requests', 'https://tools.ietf.org/html/rfc6585#section-4'],
  500: ['An error occurred while processing your request.', 'https://tools.ietf.org/html/rfc9110#section-15.6.1'],
  501: ['Not Implemented', 'https://tools.ietf.org/html/rfc9110#section-15.6.2'],
  502: ['Bad Gateway', 'https://tools.ietf.org/html/rfc9110#section-15.6.3'],
};

declare module 'fastify' {
  /** What a catalogue route carries in its config (see registerContract): the endpoint it serves. */
  interface FastifyContextConfig {
    endpoint?: EndpointId;
    api?: Api;
  }
}

/** The catalogue endpoint the request was routed to; undefined for the portal's other routes. */
function endpointOf(request: FastifyRequest): { endpoint: EndpointId; api: Api } | undefined {
  const config = request.routeOptions?.config;
  return config?.endpoint && config.api ? { endpoint: config.endpoint, api: config.api } : undefined;
}

/** The document upload, whose refusal of a large body names its own limit. */
const DOCUMENT_UPLOAD: EndpointId = 'legacy.files.upload';

/** Statuses whose apollo answers repeat their text as `message`: refusals the user must read. */
const MESSAGE_STATUSES = new Set([403, 409, 502]);

/**
 * Writes an error as ProblemDetails on apollo and as `{message}` on legacy and elsewhere: the API is
 * the routed endpoint's, or `api` for a request no endpoint took (an unknown path, an unreadable URL).
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: HttpError,
  api: Api | undefined = endpointOf(request)?.api,
) {
  for (const [name, value] of Object.entries(error.extras.headers ?? {})) reply.header(name, value);
  reply.code(error.status);
  if (error.extras.emptyBody) return reply.send();
  if (api === 'apollo') {
    const [title, type] = titles[error.status] ?? [error.message, undefined];
    const validation = error.extras.errors !== undefined && error.status === 400;
    return reply.type('application/problem+json').send({
      ...(type ? { type } : {}),
      title: validation ? 'One or more validation errors occurred.' : title,
      status: error.status,
      ...(error.extras.detail
        ? { detail: error.extras.detail }
        : !validation && error.message !== title
          ? { detail: error.message }
          : {}),
      ...(error.extras.errors ? { errors: error.extras.errors } : {}),
      ...(error.extras.code ? { code: error.extras.code } : {}),
      // A refusal's own text as `message` too: clients read `message`, then `title` (section 8; the
      // SDK keeps `detail` apart as `ApiError.detail`), so the refusal's words need `message`.
      ...(MESSAGE_STATUSES.has(error.status) && error.message !== title ? { message: error.message } : {}),
      ...(error.extras.microsoft365 ? { microsoft365: error.extras.microsoft365 } : {}),
      traceId: request.id,
    });
  }
  return reply.send({
    message: error.message,
    ...(error.extras.code ? { code: error.extras.code } : {}),
    ...(error.extras.errors ? { errors: error.extras.errors } : {}),
    ...(error.extras.microsoft365 ? { microsoft365: error.extras.microsoft365 } : {}),
  });
}

/** Fastify's validation errors as field errors: `{"/body/email": ["must match format \"email\""]}`. */
function validationErrors(error: FastifyError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const item of error.validation ?? []) {
    const missing = (item.params as { missingProperty?: string } | undefined)?.missingProperty;
    const field = `${error.validationContext ?? 'body'}${item.instancePath}${missing ? `/${missing}` : ''}`;
    errors[field] = [...(errors[field] ?? []), item.message ?? 'is invalid'];
  }
  return errors;
}

export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) return sendError(request, reply, error);
  if ((error as FastifyError).validation) {
    return sendError(
      request,
      reply,
      new HttpError(400, 'Invalid request', { errors: validationErrors(error as FastifyError) }),
    );
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (
    (error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE' &&
    endpointOf(request)?.endpoint === DOCUMENT_UPLOAD
  )
    return sendError(request, reply, new HttpError(413, 'The file must be a PDF of at most 3 MB.'));
  if (status === 429) return sendError(request, reply, new HttpError(429, 'Too many requests, please try again later'));
  if (status >= 400 && status < 500) return sendError(request, reply, new HttpError(status, error.message));
  if (isUniqueViolation(error)) {
    // A safety net: every service answers its own races with its documented refusal. One that slips
    // through is still the caller's conflict, not the server's failure; the log names the index.
    request.log.warn(
      { constraint: (error as { constraint?: string }).constraint },
      'unique violation answered as 409 Conflict',
    );
    return sendError(request, reply, new HttpError(409, 'Conflict'));
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(request, reply, new HttpError(500, 'Internal server error'));
}
