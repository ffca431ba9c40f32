import { FLEET_AREAS, FLEET_SORTS, type FleetQuery } from '@compliance-portal/sdk';
import type { ListState } from '../../components/ui/list-state';
import { parseListSearch } from '../../shared/url-state';

/**
 * What the fleet keeps in the address: its page, size, sort, order and search, and its filters, each
 * checked against the values the endpoint takes. The route's loader and the page build the fleet's
 * query from it with the same function, so the loader fetches what the page reads.
 */

/** The attention filter: one level, or `needsAttention` (critical and warning). */
export const FLEET_ATTENTION_FILTERS = ['needsAttention', 'critical', 'warning', 'ok'] as const;
export const FLEET_LICENCES = ['trial', 'full'] as const;
export const FLEET_CONNECTIONS = ['ok', 'failed', 'untested', 'none'] as const;

export type FleetSort = (typeof FLEET_SORTS)[number];

export interface FleetSearch {
  page?: number | undefined;
  pageSize?: number | undefined;
  sort?: FleetSort | undefined;
  order?: 'asc' | 'desc' | undefined;
  search?: string | undefined;
  attention?: (typeof FLEET_ATTENTION_FILTERS)[number] | undefined;
  license?: (typeof FLEET_LICENCES)[number] | undefined;
  connection?: (typeof FLEET_CONNECTIONS)[number] | undefined;
  area?: (typeof FLEET_AREAS)[number] | undefined;
  /** Whether a job is running (the address has it as true or false). */
  running?: boolean | undefined;
}

/** The filters of the fleet, by their names in the address (and in the endpoint's query). */
export type FleetFilter = 'attention' | 'license' | 'connection' | 'area' | 'running';
export const FLEET_FILTERS: readonly FleetFilter[] = ['attention', 'license', 'connection', 'area', 'running'];

/** The fleet's defaults: what needs attention first, 25 a page. */
const FLEET_LIST = { sort: 'attention', order: 'asc', pageSize: 25 } as const satisfies Partial<ListState>;

/** The value when it is one of `values`, else nothing: a wrong value in the address is dropped. */
function oneOf<V extends string>(values: readonly V[], raw: unknown): V | undefined {
  return values.find((v) => v === raw);
}

/** The route's `validateSearch`: every parameter checked; one that is wrong is left out. */
export function fleetSearch(raw: Record<string, unknown>): FleetSearch {
  const list = parseListSearch(raw);
  // Every known parameter is named, a wrong one as undefined: the router keeps unknown ones as they came.
  return {
    page: list.page,
    pageSize: list.pageSize,
    sort: oneOf(FLEET_SORTS, list.sort),
    order: list.order,
    search: list.search?.slice(0, 200),
    attention: oneOf(FLEET_ATTENTION_FILTERS, raw.attention),
    license: oneOf(FLEET_LICENCES, raw.license),
    connection: oneOf(FLEET_CONNECTIONS, raw.connection),
    area: oneOf(FLEET_AREAS, raw.area),
    running: typeof raw.running === 'boolean' ? raw.running : undefined,
  };
}

/** The table's state as the address gives it: the defaults, then what the address says. */
export function fleetListState(search: FleetSearch): ListState {
  return {
    page: search.page ?? 1,
    pageSize: search.pageSize ?? FLEET_LIST.pageSize,
    sort: search.sort ?? FLEET_LIST.sort,
    order: search.order ?? FLEET_LIST.order,
    ...(search.search ? { search: search.search } : {}),
  };
}

/** The endpoint's query for the address: paging, sort, search and every filter set. */
export function fleetQueryOf(search: FleetSearch): FleetQuery {
  const state = fleetListState(search);
  const text = state.search?.trim();
  const query: FleetQuery = {
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort ?? FLEET_LIST.sort,
    order: state.order ?? FLEET_LIST.order,
    ...(text ? { search: text } : {}),
  };
  if (search.attention) query.attention = search.attention;
  if (search.license) query.license = search.license;
  if (search.connection) query.connection = search.connection;
  if (search.area) query.area = search.area;
  if (search.running !== undefined) query.running = search.running ? 'true' : 'false';
  return query;
}

/**
 * The address after a change of the list or its filters: back to the first page unless the page
 * itself is what changed, and every value equal to its default left out.
 */
export function nextFleetSearch(previous: FleetSearch, change: Partial<FleetSearch>): FleetSearch {
  const next: FleetSearch = { ...previous, ...change };
  if (change.page === undefined) next.page = undefined;
  if (next.page === 1) next.page = undefined;
  if (next.pageSize === FLEET_LIST.pageSize) next.pageSize = undefined;
  // The default sort goes with its default order; another sort keeps the order it was given.
  if (next.sort === FLEET_LIST.sort && next.order === FLEET_LIST.order) {
    next.sort = undefined;
    next.order = undefined;
  }
  if (!next.search) next.search = undefined;
  return next;
}

/** A change of the table (page, size, sort, order, search) as a change of the address; an unknown sort is left out. */
export function fromListChange(change: Partial<ListState>): Partial<FleetSearch> {
  const next: Partial<FleetSearch> = {};
  if ('page' in change) next.page = change.page;
  if ('pageSize' in change) next.pageSize = change.pageSize;
  if ('order' in change) next.order = change.order;
  if ('search' in change) next.search = change.search;
  const sort = oneOf(FLEET_SORTS, change.sort);
  if (sort) next.sort = sort;
  return next;
}
