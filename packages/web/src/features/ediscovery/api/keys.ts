import { scopeKeys } from '../../../shared/api/keys';

/** The keys of eDiscovery, under the tenant: none is kept for offline reading. */
export const ediscoveryKeys = {
  all: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'ediscovery'] as const,
  /** The saved cases: their name, search and the hits when saved. */
  cases: (tenantId: string) => [...ediscoveryKeys.all(tenantId), 'cases'] as const,
  /** One page of a search's hits. */
  search: (tenantId: string, search: object | null, page: number, pageSize: number) =>
    [...ediscoveryKeys.all(tenantId), 'search', search, page, pageSize] as const,
  /** What the signed-in user may do here beyond searching: place and release legal holds. */
  rights: (tenantId: string) => [...ediscoveryKeys.all(tenantId), 'rights'] as const,
  /** One mail or message as the preview shows it. */
  item: (tenantId: string, itemId: string) => [...ediscoveryKeys.all(tenantId), 'item', itemId] as const,
  /** One calendar event of a mailbox as the preview shows it. */
  event: (tenantId: string, mailboxId: string, eventId: string) =>
    [...ediscoveryKeys.all(tenantId), 'event', mailboxId, eventId] as const,
};
