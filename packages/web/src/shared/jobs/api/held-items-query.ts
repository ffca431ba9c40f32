import type { HeldItemsQuery, PortalClient } from '@compliance-portal/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ListState, listQuery } from '../../../components/ui/list-state';
import { OFFLINE } from '../../api/offline';
import { jobKeys } from './keys';

/*
 * Apart from queries.ts and keys.ts, which the job routes load before their pages: only an archive
 * deletion's report reads its held items, so their query loads with that report.
 */

/** The orders the held items of a report take (HeldItemsQuery's). */
const HELD_SORTS = ['subject', 'sourceName', 'sentAt', 'caseName'] as const;

/** The held items' query of a list state: an order they do not take is left out. */
export function heldItemsListQuery(state: ListState): HeldItemsQuery {
  const { sort, ...rest } = listQuery(state);
  const known = HELD_SORTS.find((s) => s === sort);
  return { ...rest, ...(known ? { sort: known } : {}) };
}

/** The items a deletion report kept on legal hold (under the report's key): subject, where, sent, case. */
export const heldItemsQuery = (api: PortalClient, tenantId: string, reportId: string, state: ListState) =>
  queryOptions({
    queryKey: jobKeys.heldItems(tenantId, reportId, heldItemsListQuery(state)),
    meta: OFFLINE,
    queryFn: ({ signal }) =>
      api.apollo.reporting.heldItems({ tenantId, reportId, query: heldItemsListQuery(state) }, { signal }),
    placeholderData: keepPreviousData,
  });

/** One page of a report's held items for an export (not cached: the export reads every page once). */
export const fetchHeldItemsPage = (api: PortalClient, tenantId: string, reportId: string, query: HeldItemsQuery) =>
  api.apollo.reporting.heldItems({ tenantId, reportId, query });
