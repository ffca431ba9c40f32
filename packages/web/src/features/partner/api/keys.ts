import { partialMatchKey } from '@tanstack/react-query';
import { sharedKeys } from '../../../shared/api/keys';

/** Query keys of the partner setup: the partner's client organisations. */
export const partnerKeys = {
  clients: () => sharedKeys.clients(),
  /** Whether a key is the client list's (or under it): what stays cached when the client changes. */
  isClients: (queryKey: readonly unknown[]) => partialMatchKey(queryKey, partnerKeys.clients()),
};
