/**
 * The refusals the portal's services and routes throw: a status, the text the caller reads and, for
 * refusals clients act on, a machine-readable code. They belong to no layer: any part of the server
 * may refuse, and src/http/errors.ts writes them in the shape of the API that was called.
 */
import { type ErrorCode, errorTexts, type Microsoft365Failure } from '@compliance-portal/sdk';

/** A failure the client caused or may see; everything else is a 500 that hides its details. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extras: {
      detail?: string;
      errors?: Record<string, string[]>;
      emptyBody?: boolean;
      headers?: Record<string, string>;
      /** The machine-readable code clients act on (problem details `code`, legacy `code`). */
      code?: ErrorCode;
      /** A failure of Microsoft 365 behind the request: its cause and Microsoft's details. */
      microsoft365?: Microsoft365Failure;
    } = {},
  ) {
    super(message);
  }
}

/** A refusal with its code and the SDK's fixed text for it (the one place those texts live). */
export function refusal<C extends ErrorCode>(
  status: number,
  code: C,
  ...args: Parameters<(typeof errorTexts)[C]>
): HttpError {
  const text = (errorTexts[code] as (...a: string[]) => string)(...(args as string[]));
  return new HttpError(status, text, { code });
}

export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(400, message, errors ? { errors } : {});
/** ASP.NET's ValidationProblem: title "One or more validation errors occurred.", errors by code. */
export const validationProblem = (errors: Record<string, string[]>) =>
  new HttpError(400, 'One or more validation errors occurred.', { errors });
export const unauthorized = (message = 'Unauthorized', detail?: string) =>
  new HttpError(401, message, detail ? { detail } : {});
/** A bare 401 with `WWW-Authenticate: Bearer`, as ASP.NET's bearer challenge answers. */
export const bearerChallenge = () =>
  new HttpError(401, 'Unauthorized', { emptyBody: true, headers: { 'WWW-Authenticate': 'Bearer' } });
export const forbidden = (message = 'Access denied') => new HttpError(403, message);
export const notFound = (message = 'Resource not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const notImplemented = (message: string) => new HttpError(501, message);
