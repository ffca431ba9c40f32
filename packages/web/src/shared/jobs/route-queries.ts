import type { JobType, PortalClient } from '@compliance-portal/sdk';
import { locationsQuery } from '../api/queries';
import { jobListQuery, reportListQuery, runListQuery, usedApplicationsQuery } from './api/queries';
import { type FilterSearch, jobListQueryOfSearch, monitorQueryOfSearch, reportQueryOfSearch } from './list-search';

/**
 * What the routes of the shared job pages fetch before the page renders: the queries the page reads
 * on its first render, built from the route's address as the page builds them.
 */

/** A jobs list: its page of jobs, which applications have a job, and the locations. */
export const jobsPageQueries = (
  api: PortalClient,
  tenantId: string,
  type: JobType,
  search: FilterSearch<'application'>,
) => [
  jobListQuery(api, tenantId, jobListQueryOfSearch(type, search)),
  usedApplicationsQuery(api, tenantId, type),
  locationsQuery(api, tenantId),
];

/** A monitor: its page of runs. */
export const monitorPageQueries = (
  api: PortalClient,
  tenantId: string,
  types: readonly [JobType, ...JobType[]],
  search: FilterSearch<'status' | 'type'>,
) => [runListQuery(api, tenantId, monitorQueryOfSearch(types, search))];

/** A reports list: its page of reports. */
export const reportsPageQueries = (
  api: PortalClient,
  tenantId: string,
  types: readonly [JobType, ...JobType[]],
  search: FilterSearch<'status' | 'type'>,
) => [reportListQuery(api, tenantId, reportQueryOfSearch(types, search))];
