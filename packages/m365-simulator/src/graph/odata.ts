/**
 * The protocol parts every Graph answer shares: requests and answers as the simulator sees them,
 * Graph's error body, and lists paged with @odata.nextLink or read as a delta with @odata.deltaLink.
 */
import type { SimTenant } from '../model.js';

export interface SimRequest {
  method: string;
  /** Path below the simulator's root, e.g. /v1.0/users. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  bytes?: Uint8Array;
}

/** What paging needs: the rows of a page and where the simulator is reached (for next links). */
export interface Paging {
  pageSize: number;
  baseUrl(): string;
}

export const graphError = (
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): SimResponse => ({
  status,
  json: { error: { code, message, innerError: { date: new Date().toISOString() } } },
  ...(headers ? { headers } : {}),
});

export const notFound = (what = 'The resource could not be found.') => graphError(404, 'itemNotFound', what);

/** One page of a list; the next page's link carries the position as $skiptoken. */
export function page<T>(paging: Paging, request: SimRequest, all: T[], map: (item: T) => unknown): SimResponse {
  const { pageSize } = paging;
  const skip = Number(request.query.get('$skiptoken') ?? 0);
  const slice = all.slice(skip, skip + pageSize);
  const next = skip + pageSize < all.length;
  const query = new URLSearchParams(request.query);
  query.set('$skiptoken', String(skip + pageSize));
  return {
    status: 200,
    json: {
      value: slice.map(map),
      ...(next ? { '@odata.nextLink': `${paging.baseUrl()}${request.path}?${query}` } : {}),
    },
  };
}

/** Delta: the items changed after the link's number; the last page carries the next delta link. */
export function delta<T>(
  paging: Paging,
  request: SimRequest,
  tenant: SimTenant,
  changes: (after: number) => T[],
  map: (item: T) => unknown,
): SimResponse {
  const { pageSize } = paging;
  const after = Number(request.query.get('token') ?? -1);
  const all = changes(after);
  const skip = Number(request.query.get('$skiptoken') ?? 0);
  const slice = all.slice(skip, skip + pageSize);
  const query = new URLSearchParams({ token: String(after) });
  if (skip + pageSize < all.length) {
    query.set('$skiptoken', String(skip + pageSize));
    return {
      status: 200,
      json: { value: slice.map(map), '@odata.nextLink': `${paging.baseUrl()}${request.path}?${query}` },
    };
  }
  return {
    status: 200,
    json: {
      value: slice.map(map),
      '@odata.deltaLink': `${paging.baseUrl()}${request.path}?${new URLSearchParams({ token: String(tenant.clock) })}`,
    },
  };
}

/** The JSON body of a request, or an empty object. */
export function jsonBody<T extends object>(request: SimRequest): Partial<T> {
  const text = request.body.toString('utf8');
  return (text ? JSON.parse(text) : {}) as Partial<T>;
}
