import type { JobType, PortalClient, ReportQuery } from '@compliance-portal/sdk';
import { reportListQuery } from '../../shared/jobs/api/queries';
import { RUN_AREA_TYPES, type RunAreaName } from '../../shared/jobs/areas';
import {
  type FilterSearch,
  listStateOf,
  REPORT_STATUSES,
  REPORTS_LIST,
  reportQueryOf,
} from '../../shared/jobs/list-search';
import { listSearchValidator } from '../../shared/url-state';

/**
 * The reports of every area: the area, type and status filters and the paging are in the address
 * (the dates are not). The page and its route's loader build the list's query with these functions.
 */

/** The job types of each area of the portal. */
const AREA_TYPES = RUN_AREA_TYPES;
export type Area = RunAreaName;
export const AREAS = Object.keys(AREA_TYPES) as Area[];
export const ALL_TYPES = Object.values(AREA_TYPES).flat() as JobType[];

export const allReportsSearch = listSearchValidator({ area: AREAS, type: ALL_TYPES, status: REPORT_STATUSES });
export type AllReportsSearch = FilterSearch<'area' | 'type' | 'status'>;

/** The types an area offers (every type without an area). */
export const typesOf = (area: Area | ''): readonly JobType[] => (area ? AREA_TYPES[area] : ALL_TYPES);

/** The chosen type, when the chosen area has it. */
export const typeIn = (area: Area | '', type: string): JobType | '' =>
  (typesOf(area) as readonly string[]).includes(type) ? (type as JobType) : '';

/** The types asked for: the one chosen, else every type of the area, else all. */
export function typesFilter(area: Area | '', type: JobType | ''): Pick<ReportQuery, 'type' | 'types'> {
  return type ? { type } : area ? { types: [...AREA_TYPES[area]] } : {};
}

/** The first page the list asks for, as the address gives it (no dates yet). */
export function allReportsQuery(api: PortalClient, tenantId: string, search: AllReportsSearch) {
  const area = (search.area ?? '') as Area | '';
  return reportListQuery(
    api,
    tenantId,
    reportQueryOf(
      typesFilter(area, typeIn(area, search.type ?? '')),
      listStateOf(search, REPORTS_LIST),
      (search.status ?? '') as (typeof REPORT_STATUSES)[number] | '',
    ),
  );
}
