/**
 * The protocol parts every Graph answer shares: requests and answers as the simulator sees them,
 * Graph's error body, lists paged with `$top` and opaque `$skiptoken`s (with `$filter`, `$orderby`,
 * `$count` and directory `$search` applied first), and delta queries whose tokens are signed, bound
 * to their resource and expire (410, as Graph answers a token it no longer knows).
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SimTenant } from '../model.js';
import { matches, parseFilter, parseOrderBy, parseSearch, QueryError } from './query.js';

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

/** What paging needs: the default rows of a page and where the simulator is reached (for next links). */
export interface Paging {
  /** Items per page when the client asks no `$top`. */
  pageSize: number;
  baseUrl(): string;
}

/**
 * Graph's error body. The request ids are fresh here; the dispatch puts the request's own in
 * (client-request-id echoed) before the answer leaves.
 */
export const graphError = (
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
  innerCode?: string,
): SimResponse => {
  const requestId = randomUUID();
  return {
    status,
    json: {
      error: {
        code,
        message,
        innerError: {
          ...(innerCode ? { code: innerCode } : {}),
          date: new Date().toISOString().replace(/\.\d+Z$/, ''),
          'request-id': requestId,
          'client-request-id': requestId,
        },
      },
    },
    headers: { 'request-id': requestId, 'client-request-id': requestId, ...headers },
  };
};

/** OneDrive's not-found; the directory, Outlook and Teams have their own codes (below). */
export const notFound = (what = 'The resource could not be found.') => graphError(404, 'itemNotFound', what);

const isAnswer = (value: unknown): value is SimResponse =>
  typeof value === 'object' && value !== null && 'status' in value && typeof (value as SimResponse).status === 'number';

/** How Graph pages one list (of answers of type R). */
export interface ListOptions<R = unknown> {
  /** The largest page Graph gives for this resource; a larger `$top` is cut to it, or refused (`refuseAboveMax`). */
  max?: number;
  /** Directory objects: 400 for `$top` above the maximum, and advanced queries need ConsistencyLevel: eventual. */
  directory?: boolean;
  /** Teams: 400 for `$top` above the maximum. */
  refuseAboveMax?: boolean;
  /** Graph answers the whole list at once (no paging, no `$top`). */
  unpaged?: boolean;
  /**
   * The list's own `$search`: the answers that match the value, in the order the service gives them
   * (throws QueryError for a value it cannot read). Without it a list searches directory-style.
   */
  search?: (value: string, rows: R[]) => R[];
}

/** A 400 as the directory answers an unsupported query. */
const unsupported = (message = 'Unsupported Query.') => graphError(400, 'Request_UnsupportedQuery', message);

/** The page size a request asks for: `$top`, or `Prefer: odata.maxpagesize`, else the default. */
function pageSizeOf<R>(paging: Paging, request: SimRequest, options: ListOptions<R>): number | SimResponse {
  const top = request.query.get('$top');
  const prefer = /odata\.maxpagesize=(\d+)/i.exec(request.headers.prefer ?? '')?.[1];
  const max = options.max ?? 999;
  if (top !== null) {
    const n = Number(top);
    if (!/^\d+$/.test(top) || (options.directory && (n < 1 || n > max))) {
      return options.directory
        ? unsupported(`Invalid page size specified: '${top}'. Must be between 1 and ${max} inclusive.`)
        : graphError(400, 'BadRequest', `Invalid value '${top}' for $top.`);
    }
    if (options.refuseAboveMax && n > max)
      return graphError(
        400,
        'BadRequest',
        `Invalid page size requested, requested page size ${n} is larger than max of ${max}.`,
      );
    return Math.max(1, Math.min(n, max));
  }
  if (prefer) return Math.max(1, Math.min(Number(prefer), max));
  return Math.min(paging.pageSize, max);
}

const eventual = (request: SimRequest) => (request.headers.consistencylevel ?? '').toLowerCase() === 'eventual';

/**
 * `$filter`, `$search`, `$orderby` and `$count` of a list, with the directory's rule that advanced
 * queries need ConsistencyLevel: eventual and `$count=true` (answered 400 otherwise, as Graph does).
 */
function query<T>(
  request: SimRequest,
  rows: T[],
  options: ListOptions<T>,
): { rows: T[]; count?: number } | SimResponse {
  const q = request.query;
  const filterText = q.get('$filter');
  const orderText = q.get('$orderby');
  const searchText = q.get('$search');
  const counted = q.get('$count') === 'true';
  try {
    const filter = filterText ? parseFilter(filterText) : undefined;
    const order = orderText ? parseOrderBy(orderText) : undefined;
    if (options.directory) {
      if (searchText !== null && !eventual(request)) {
        return unsupported(
          "Request with $search query parameter only works through MSGraph with a special request header: 'ConsistencyLevel: eventual'",
        );
      }
      // ne, not and endsWith, $filter with $orderby, and $orderby other than by name are advanced queries.
      const byName = order?.keys.every((k) => ['displayName', 'userPrincipalName'].includes(k.path.join('/'))) ?? true;
      const advanced = Boolean(filter?.advanced) || (filter !== undefined && order !== undefined) || !byName;
      if (advanced && !(eventual(request) && counted)) return unsupported();
    }
    let out = rows;
    if (filter) out = out.filter((row) => matches(filter, row));
    if (searchText !== null && options.search) out = options.search(searchText, out);
    else if (searchText !== null) {
      const test = parseSearch(searchText);
      out = out.filter((row) => test(row));
    }
    if (order) out = [...out].sort(order.compare);
    // Without ConsistencyLevel: eventual the directory ignores $count=true.
    const count = counted && (!options.directory || eventual(request)) ? out.length : undefined;
    return { rows: out, ...(count !== undefined ? { count } : {}) };
  } catch (error) {
    if (error instanceof QueryError) {
      return options.directory ? unsupported(error.message) : graphError(400, 'BadRequest', error.message);
    }
    throw error;
  }
}

const SKIP_PREFIX = "X'";

/** An opaque `$skiptoken` for a position in a list. */
const skipToken = (offset: number) => Buffer.from(`${SKIP_PREFIX}${offset}`).toString('base64url');

function readSkipToken(token: string | null): number | undefined {
  if (token === null) return 0;
  const text = Buffer.from(token, 'base64url').toString('utf8');
  if (!text.startsWith(SKIP_PREFIX)) return undefined;
  const n = Number(text.slice(SKIP_PREFIX.length));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * One page of a list. `map` makes an answer's JSON; `$filter`, `$search` and `$orderby` work on it, so
 * every item is mapped when one of them is asked (otherwise only the page's).
 */
export function page<T, R = unknown>(
  paging: Paging,
  request: SimRequest,
  all: T[],
  map: (item: T) => R,
  options: ListOptions<R> = {},
): SimResponse {
  const size = options.unpaged ? Number.MAX_SAFE_INTEGER : pageSizeOf(paging, request, options);
  if (isAnswer(size)) return size;
  const skip = readSkipToken(request.query.get('$skiptoken'));
  if (skip === undefined) {
    return options.directory
      ? graphError(400, 'Request_BadRequest', 'Invalid paging token.')
      : graphError(400, 'BadRequest', 'The $skiptoken is not valid.');
  }
  const q = request.query;
  const needsAll = q.has('$filter') || q.has('$orderby') || q.has('$search') || q.get('$count') === 'true';
  let rows: unknown[];
  let count: number | undefined;
  if (needsAll) {
    const queried = query(request, all.map(map), options);
    if (isAnswer(queried)) return queried;
    rows = queried.rows.slice(skip, skip + size);
    count = queried.count;
    if (skip + size < queried.rows.length) return pageAnswer(rows, nextLink(paging, request, skip + size), count);
    return pageAnswer(rows, undefined, count);
  }
  const checked = query(request, [], options);
  if (isAnswer(checked)) return checked;
  rows = all.slice(skip, skip + size).map(map);
  return pageAnswer(rows, skip + size < all.length ? nextLink(paging, request, skip + size) : undefined, count);
}

function nextLink(paging: Paging, request: SimRequest, offset: number) {
  const query = new URLSearchParams(request.query);
  query.set('$skiptoken', skipToken(offset));
  return `${paging.baseUrl()}${request.path}?${query.toString().replace(/%24/g, '$')}`;
}

const pageAnswer = (rows: unknown[], next: string | undefined, count: number | undefined): SimResponse => ({
  status: 200,
  json: {
    ...(count !== undefined ? { '@odata.count': count } : {}),
    value: rows,
    ...(next ? { '@odata.nextLink': next } : {}),
  },
});

/** How a delta query is addressed and answered. */
export interface DeltaSpec<T> {
  /** What the tokens are bound to, e.g. `drive:{id}` or `mail:{user}:{folder}`. */
  resource: string;
  /**
   * OneDrive names its token `token` (next and delta links alike); Outlook uses `$skiptoken` in next
   * links and `$deltatoken` in delta links.
   */
  style: 'drive' | 'outlook';
  /** What changed after a change number (-1: everything live). */
  changes(after: number): T[];
  map(item: T): unknown;
  /** Graph's largest page for the resource. */
  max?: number;
  /**
   * Query parameters (names without regard to case) the tokens carry instead of the links, as
   * Outlook's calendarView delta encodes startDateTime and endDateTime in them: the resource names
   * them (see `tokenResource`), and the next and delta links leave them out.
   */
  inToken?: readonly string[];
}

interface DeltaState {
  /** What the token is bound to. */
  r: string;
  /** Changes after this number (-1: the first enumeration). */
  a: number;
  /** The change number when the token was issued. */
  c: number;
  /** Position within the changes (next links). */
  s?: number;
  /** Page size asked in the first request, kept for the round. */
  n?: number;
}

const deltaKey = (tenant: SimTenant) => createHash('sha256').update(`delta|${tenant.tenantId}`).digest();
const mac = (tenant: SimTenant, payload: string) =>
  createHmac('sha256', deltaKey(tenant)).update(payload).digest('base64url').slice(0, 22);

function signToken(tenant: SimTenant, state: DeltaState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${payload}.${mac(tenant, payload)}`;
}

/** A token's state, when the simulator signed it for this tenant. */
function signedState(tenant: SimTenant, token: string): DeltaState | undefined {
  const [payload = '', signature = ''] = token.split('.');
  const expected = mac(tenant, payload);
  if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected)))
    return undefined;
  try {
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as DeltaState;
    return typeof state.r === 'string' ? state : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The resource an Outlook-style delta request's token (`$skiptoken` or `$deltatoken`) was issued for,
 * when the simulator signed it: where a delta keeps parameters in its tokens (`inToken`), the route
 * reads them back from it. Undefined without a token or for one it did not sign.
 */
export function tokenResource(tenant: SimTenant, request: SimRequest): string | undefined {
  const token = request.query.get('$skiptoken') ?? request.query.get('$deltatoken');
  return token && token !== 'latest' ? signedState(tenant, token)?.r : undefined;
}

/** The state of a token this simulator issued for this resource, or why it cannot be used. */
function readToken(tenant: SimTenant, token: string, resource: string): DeltaState | 'invalid' | 'expired' {
  const state = signedState(tenant, token);
  if (!state) return 'invalid';
  // A token for another resource, or from a tenant's earlier life (a restarted simulator).
  if (state.r !== resource || !Number.isInteger(state.c) || state.c > tenant.clock || state.a > state.c)
    return 'invalid';
  return state.c < tenant.deltaHorizon ? 'expired' : state;
}

/** Graph's 410 for a token it no longer has (or never issued), with where to start again. */
function resync(paging: Paging, request: SimRequest, style: DeltaSpec<unknown>['style'], why: 'invalid' | 'expired') {
  const location = { location: `${paging.baseUrl()}${request.path}` };
  if (style === 'drive') {
    return graphError(
      410,
      'resyncRequired',
      "Resync required. Replace any local items with the server's version (including deletes) if you're sure that the service was up to date with your local changes when you last sync'd. Upload any local changes that the server doesn't know about.",
      location,
      'resyncChangesApplyDifferences',
    );
  }
  return why === 'expired'
    ? graphError(
        410,
        'syncStateNotFound',
        'The sync state could not be found: it has expired. Synchronize again without a delta token.',
        location,
      )
    : graphError(
        410,
        'syncStateInvalid',
        'The sync state is not valid for this folder. Synchronize again without a delta token.',
        location,
      );
}

/**
 * Delta: the items changed after the token's change number, paged; the last page carries a delta
 * link for the next round. `token=latest` (`$deltatoken=latest`) answers only the link, as Graph does.
 */
export function delta<T>(paging: Paging, request: SimRequest, tenant: SimTenant, spec: DeltaSpec<T>): SimResponse {
  const q = request.query;
  const given = spec.style === 'drive' ? q.get('token') : (q.get('$skiptoken') ?? q.get('$deltatoken'));
  const hidden = new Set(
    ['token', '$skiptoken', '$deltatoken', '$top', ...(spec.inToken ?? [])].map((k) => k.toLowerCase()),
  );
  const link = (name: string, state: DeltaState) => {
    const query = new URLSearchParams();
    for (const [k, v] of q) if (!hidden.has(k.toLowerCase())) query.append(k, v);
    query.set(name, signToken(tenant, state));
    return `${paging.baseUrl()}${request.path}?${query.toString().replace(/%24/g, '$')}`;
  };
  const answer = (value: unknown[], next?: DeltaState, last?: DeltaState): SimResponse => ({
    status: 200,
    json: {
      value,
      ...(next ? { '@odata.nextLink': link(spec.style === 'drive' ? 'token' : '$skiptoken', next) } : {}),
      ...(last ? { '@odata.deltaLink': link(spec.style === 'drive' ? 'token' : '$deltatoken', last) } : {}),
    },
  });

  let state: DeltaState;
  if (given === null || given === '') {
    const size = pageSizeOf(paging, request, { max: spec.max ?? 999 });
    if (isAnswer(size)) return size;
    state = { r: spec.resource, a: -1, c: tenant.clock, n: size };
  } else if (given === 'latest') {
    return answer([], undefined, { r: spec.resource, a: tenant.clock, c: tenant.clock, n: paging.pageSize });
  } else {
    const read = readToken(tenant, given, spec.resource);
    if (read === 'invalid' || read === 'expired') return resync(paging, request, spec.style, read);
    state = read;
  }
  const size = state.n ?? paging.pageSize;
  const skip = state.s ?? 0;
  const items = spec.changes(state.a);
  let rows: unknown[];
  let total: number;
  if (q.has('$filter')) {
    const queried = query(request, items.map(spec.map), {});
    if (isAnswer(queried)) return queried;
    total = queried.rows.length;
    rows = queried.rows.slice(skip, skip + size);
  } else {
    total = items.length;
    rows = items.slice(skip, skip + size).map(spec.map);
  }
  if (skip + size < total) return answer(rows, { ...state, c: tenant.clock, s: skip + size });
  return answer(rows, undefined, { r: spec.resource, a: tenant.clock, c: tenant.clock, n: size });
}

/** The JSON body of a request, or an empty object. */
export function jsonBody<T extends object>(request: SimRequest): Partial<T> {
  const text = request.body.toString('utf8');
  return (text ? JSON.parse(text) : {}) as Partial<T>;
}
