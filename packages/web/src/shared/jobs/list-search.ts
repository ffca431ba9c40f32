import type {
  Application,
  JobListQuery,
  JobStatus,
  JobType,
  MonitoringQuery,
  ReportQuery,
} from '@compliance-portal/sdk';
import { type ListState, listQuery } from '../../components/ui/list-state';
import { type ListSearch, listSearchValidator, parseListSearch } from '../url-state';

/**
 * What the shared job lists keep in the address, and the queries it gives. The page and its route's
 * loader build their query with the same functions from the same defaults, so that the loader fetches
 * exactly what the page then reads.
 */

/** The jobs list's defaults: newest first. */
export const JOBS_LIST = { sort: 'createdAt', order: 'desc' } as const;
/** The monitor's defaults: the latest run first. */
export const MONITOR_LIST = { sort: 'started', order: 'desc' } as const;
/** The reports list's defaults: the latest run first. */
export const REPORTS_LIST = { sort: 'started', order: 'desc' } as const;

/** The statuses the monitor filters on. */
export const MONITOR_STATUSES = ['running', 'pending', 'finished', 'failed'] as const satisfies readonly JobStatus[];
/** The statuses of ended runs, which the reports filter on. */
export const REPORT_STATUSES = ['finished', 'failed', 'pending'] as const satisfies readonly JobStatus[];

/** A list's address: its paging, sorting and search, and its filters as text. */
export type FilterSearch<F extends string> = ListSearch & { [K in F]?: string };

/** A list's state as its address gives it: the defaults, then what the address says. */
export function listStateOf(search: ListSearch, defaults: Partial<ListState>): ListState {
  return { page: 1, pageSize: 25, ...defaults, ...parseListSearch(search as Record<string, unknown>) };
}

// Jobs list.

export const jobsSearch = (applications: readonly Application[]) => listSearchValidator({ application: applications });

export function jobListQueryOf(type: JobType, state: ListState, application: Application | ''): JobListQuery {
  return { type, ...listQuery(state), ...(application ? { application } : {}) };
}

export function jobListQueryOfSearch(type: JobType, search: FilterSearch<'application'>): JobListQuery {
  return jobListQueryOf(type, listStateOf(search, JOBS_LIST), (search.application ?? '') as Application | '');
}

// Monitor.

/** `run`: the run opened when the monitor opens (a link to a run just started or retried). */
export const monitorSearch = (types: readonly JobType[]) =>
  listSearchValidator({ status: MONITOR_STATUSES, type: types, run: [] });

export function monitorQueryOf(state: ListState, type: JobType, status: JobStatus | ''): MonitoringQuery {
  return { type, ...listQuery(state), ...(status ? { status } : {}) };
}

export function monitorQueryOfSearch(
  types: readonly [JobType, ...JobType[]],
  search: FilterSearch<'status' | 'type'>,
): MonitoringQuery {
  return monitorQueryOf(
    listStateOf(search, MONITOR_LIST),
    (search.type ?? types[0]) as JobType,
    (search.status ?? '') as JobStatus | '',
  );
}

// Reports.

export const reportsSearch = (types: readonly JobType[]) =>
  listSearchValidator({ status: REPORT_STATUSES, type: types });

/** `filter`: the report types and dates asked for (one type of the area, or those another filter gives). */
export function reportQueryOf(
  filter: Pick<ReportQuery, 'type' | 'types' | 'from' | 'to'>,
  state: ListState,
  status: JobStatus | '',
): ReportQuery {
  return { ...filter, ...listQuery(state), ...(status ? { status } : {}) };
}

export function reportQueryOfSearch(
  types: readonly [JobType, ...JobType[]],
  search: FilterSearch<'status' | 'type'>,
): ReportQuery {
  return reportQueryOf(
    { type: (search.type ?? types[0]) as JobType },
    listStateOf(search, REPORTS_LIST),
    (search.status ?? '') as JobStatus | '',
  );
}
