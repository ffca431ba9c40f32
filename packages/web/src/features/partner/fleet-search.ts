import { FLEET_AREAS, FLEET_SORTS } from '@compliance-portal/sdk';
import { parseListSearch } from '../../shared/url-state';

/**
 * What the fleet keeps in the address: its page, size, sort, order and search, and its filters, each
 * checked against the values the endpoint takes. Only this checking is needed before the page loads
 * (the route's validateSearch): the rest of the list's logic is in fleet-list.ts, loaded with the page.
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
