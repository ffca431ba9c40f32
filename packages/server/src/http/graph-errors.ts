import { GraphError, INVALID_GRAPH_ID } from '../m365/graph-api.js';
import { badRequest, HttpError, notFound, upstreamFailed } from './errors.js';

/**
 * What a failed live read of Microsoft 365 means to the caller: the thing the request named is not
 * there (404), the request named it with an id Graph cannot take (400), or Microsoft 365 could not be
 * read (502 "Failed to fetch data").
 */
export function graphFailure(error: unknown, notFoundMessage = 'Resource not found'): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof GraphError && error.code === INVALID_GRAPH_ID) return badRequest(error.message);
  if (error instanceof GraphError && error.status === 404) return notFound(notFoundMessage);
  return upstreamFailed();
}
