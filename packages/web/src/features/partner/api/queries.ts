import type { FleetQuery, PortalClient } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { OFFLINE } from '../../../shared/api/offline';
import { partnerKeys } from './keys';

/**
 * The partner's client organisations, kept for offline reading (the list that leads to a client). The
 * header's switcher reads it on every page and says a failure in its own panel: no toast on top.
 */
export const clientsQuery = (api: PortalClient) =>
  queryOptions({
    queryKey: partnerKeys.clients(),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.legacy.workers.clients(undefined, { signal, disableToast: true }),
  });

/**
 * One page of the partner's fleet, as the address asks for it: kept for offline reading (a partner
 * reads the state of every client offline), the previous page shown while the next one loads.
 */
export const fleetQuery = (api: PortalClient, query: FleetQuery) =>
  queryOptions({
    queryKey: partnerKeys.fleetPage(query),
    meta: OFFLINE,
    queryFn: ({ signal }) => api.legacy.workers.fleet({ query }, { signal }),
    placeholderData: keepPreviousData,
  });

/** Clients per request when an export reads the whole fleet: the most the endpoint gives at once. */
export const FLEET_EXPORT_PAGE_SIZE = 500;

/** One page of the fleet for an export (not cached: the export reads every page once). */
export const fetchFleetPage = (api: PortalClient, query: FleetQuery) =>
  api.legacy.workers.fleet({ query }, { disableToast: true });
