import { FLEET_AREAS } from '@compliance-portal/sdk';
import { listSearchValidator } from '../../shared/url-state';

/**
 * What the fleet keeps in the address: its page, size, sort, order and search, and its filters, each
 * kept only when it is one of the values the endpoint takes. This is all the route needs before any
 * page loads (its validateSearch, in the first script); the list's logic (fleet-list.ts) loads with
 * the page.
 */

/** The attention filter: one level, or `needsAttention` (critical and warning). */
export const FLEET_ATTENTION_FILTERS = ['needsAttention', 'critical', 'warning', 'ok'] as const;
export const FLEET_LICENCES = ['trial', 'full'] as const;
export const FLEET_CONNECTIONS = ['ok', 'failed', 'untested', 'none'] as const;
/** Whether a job is running: `yes` or `no` (words, where the router would read true and false as booleans). */
export const FLEET_RUNNING = ['yes', 'no'] as const;

/** The route's `validateSearch`: the list's parameters and the fleet's filters, a wrong value left out. */
export const fleetSearch = listSearchValidator({
  attention: FLEET_ATTENTION_FILTERS,
  license: FLEET_LICENCES,
  connection: FLEET_CONNECTIONS,
  area: FLEET_AREAS,
  running: FLEET_RUNNING,
});

/** The address as the route validated it: filters as text, each one of its values. */
export type FleetAddress = ReturnType<typeof fleetSearch>;
