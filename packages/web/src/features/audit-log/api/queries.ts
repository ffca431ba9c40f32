/**
 * What the audit log page reads: a page of the organisation's entries with its filters, and the check
 * of its entries against the hash chain. Neither is kept for offline reading: who did what is read live.
 */
import type { AuditQuery, PortalClient } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ListState, listQuery } from '../../../components/ui/list-state';
import { auditLogKeys } from './keys';

/** The filters of the page: the actor's name or address, an action or area, the outcome, a range of days. */
export interface AuditFilters {
  actor: string;
  action: string;
  outcome: '' | 'success' | 'failure';
  /** yyyy-mm-dd, the first day shown. */
  from: string;
  /** yyyy-mm-dd, the last day shown. */
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filters of an address, as the page and the route's loader read them: a day that is not one, or
 * a last day before the first, is left out (the page says why beside its field).
 */
export function auditFiltersOf(search: {
  actor?: string | undefined;
  action?: string | undefined;
  outcome?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): AuditFilters {
  const from = search.from && DAY.test(search.from) ? search.from : '';
  const to = search.to && DAY.test(search.to) && (!from || search.to >= from) ? search.to : '';
  return {
    actor: search.actor ?? '',
    action: search.action ?? '',
    outcome: search.outcome === 'success' || search.outcome === 'failure' ? search.outcome : '',
    from,
    to,
  };
}

/** The start of a day in the browser's time zone, as the server's instant. */
const dayStart = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + plusDays).toISOString();
};

/** The list query: paging, and the filters as the server takes them (`to` is exclusive: the day after). */
export function auditListQuery(organisationId: string, state: ListState, filters: AuditFilters): AuditQuery {
  const { page, pageSize } = listQuery(state);
  return {
    organisationId,
    page,
    pageSize,
    ...(filters.actor.trim() ? { actor: filters.actor.trim() } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(filters.from ? { from: dayStart(filters.from) } : {}),
    ...(filters.to ? { to: dayStart(filters.to, 1) } : {}),
  };
}

export const auditEntriesQuery = (api: PortalClient, organisationId: string, state: ListState, filters: AuditFilters) =>
  queryOptions({
    queryKey: auditLogKeys.entries(organisationId, auditListQuery(organisationId, state, filters)),
    queryFn: ({ signal }) =>
      api.apollo.audit.list(
        { query: auditListQuery(organisationId, state, filters) },
        // Said in the table, in the page's words.
        { signal, disableToast: true },
      ),
    placeholderData: keepPreviousData,
  });

/** One page of entries for an export (not cached: the export reads every page once). */
export const fetchAuditPage = (api: PortalClient, query: AuditQuery) => api.apollo.audit.list({ query });

/** The organisation's entries checked against the chain; read once a minute at most, or when asked. */
export const auditChainQuery = (api: PortalClient, organisationId: string) =>
  queryOptions({
    queryKey: auditLogKeys.chain(organisationId),
    queryFn: ({ signal }) => api.apollo.audit.verify({ query: { organisationId } }, { signal, disableToast: true }),
    staleTime: 60_000,
  });
