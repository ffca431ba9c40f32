import { FLEET_SORTS, type FleetQuery } from '@compliance-portal/sdk';
import type { ListState } from '../../components/ui/list-state';
import type { FleetSearch } from './fleet-search';

/**
 * The fleet's list from its address: the table's state and the endpoint's query (the route's loader
 * and the page build it with the same function, so the loader fetches what the page reads), and how
 * a change of the table or a filter changes the address.
 */

/** The fleet's defaults: what needs attention first, 25 a page. */
const FLEET_LIST = { sort: 'attention', order: 'asc', pageSize: 25 } as const satisfies Partial<ListState>;

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

/** The filters of the fleet, by their names in the address (and in the endpoint's query). */
type FleetFilter = 'attention' | 'license' | 'connection' | 'area' | 'running';
export const FLEET_FILTERS: readonly FleetFilter[] = ['attention', 'license', 'connection', 'area', 'running'];

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
  const sort = FLEET_SORTS.find((s) => s === change.sort);
  if (sort) next.sort = sort;
  return next;
}
