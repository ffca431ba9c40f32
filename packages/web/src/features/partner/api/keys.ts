import type { FleetQuery } from '@compliance-portal/sdk';
import { partialMatchKey } from '@tanstack/react-query';
import { sharedKeys } from '../../../shared/api/keys';

/**
 * Query keys of the partner's pages: the client organisations and the fleet of them. The fleet stands
 * under the clients, so that adding a client reads both again, and both stay cached when the partner
 * works as another client (they are the partner's, not the client's).
 */
export const partnerKeys = {
  clients: () => sharedKeys.clients(),
  fleet: () => [...partnerKeys.clients(), 'fleet'] as const,
  fleetPage: (query: FleetQuery) => [...partnerKeys.fleet(), query] as const,
  /** Whether a key is the client list's (or under it): what stays cached when the client changes. */
  isClients: (queryKey: readonly unknown[]) => partialMatchKey(queryKey, partnerKeys.clients()),
};
