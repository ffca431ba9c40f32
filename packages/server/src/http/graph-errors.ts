import { errorTexts, type PermissionArea } from '@compliance-portal/sdk';
import { badRequest, HttpError, notFound } from '../errors.js';
import { diagnose } from '../m365/diagnosis.js';
import { GraphError, INVALID_GRAPH_ID } from '../m365/graph-api.js';

/**
 * Microsoft 365 could not be read for `area` (by a call needing `needs`, when known): 502 with the
 * cause as its code and text, and the cause with Microsoft's details as `microsoft365` (see
 * m365/diagnosis.ts).
 */
export function microsoft365Refusal(error: unknown, area: PermissionArea, needs?: readonly string[]): HttpError {
  const failure = diagnose(error, area, needs);
  return new HttpError(502, errorTexts[failure.code](), { code: failure.code, microsoft365: failure });
}

/**
 * What a failed live read of Microsoft 365 means to the caller: the thing the request named is not
 * there (404), the request named it with an id Graph cannot take (400), or Microsoft 365 could not be
 * read for `area` (502 with its cause, see microsoft365Refusal).
 */
export function graphFailure(error: unknown, notFoundMessage: string, area: PermissionArea): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof GraphError && error.code === INVALID_GRAPH_ID) return badRequest(error.message);
  if (error instanceof GraphError && error.status === 404) return notFound(notFoundMessage);
  return microsoft365Refusal(error, area);
}
