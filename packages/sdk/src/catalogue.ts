import { archiveEndpoints } from './resources/apollo/archive.js';
import { auditEndpoints } from './resources/apollo/audit.js';
import { authEndpoints } from './resources/apollo/auth.js';
import { configurationEndpoints } from './resources/apollo/configuration.js';
import { dashboardsEndpoints } from './resources/apollo/dashboards.js';
import { dataManagementEndpoints } from './resources/apollo/data-management.js';
import { discoveryEndpoints } from './resources/apollo/discovery.js';
import { ediscoveryEndpoints } from './resources/apollo/ediscovery.js';
import { jobsEndpoints } from './resources/apollo/jobs.js';
import { locationsEndpoints } from './resources/apollo/locations.js';
import { monitoringEndpoints } from './resources/apollo/monitoring.js';
import { reportingEndpoints } from './resources/apollo/reporting.js';
import { supportEndpoints } from './resources/apollo/support.js';
import { tenantsEndpoints } from './resources/apollo/tenants.js';
import { legacyAuthEndpoints } from './resources/legacy/auth.js';
import { emailEndpoints } from './resources/legacy/email.js';
import { filesEndpoints } from './resources/legacy/files.js';
import { invitationsEndpoints } from './resources/legacy/invitations.js';
import { legacyJobsEndpoints } from './resources/legacy/jobs.js';
import { legacyLocationsEndpoints } from './resources/legacy/locations.js';
import { mailboxesEndpoints } from './resources/legacy/mailboxes.js';
import { proxyRightsEndpoints } from './resources/legacy/proxy-rights.js';
import { sessionsEndpoints } from './resources/legacy/sessions.js';
import { teamsEndpoints } from './resources/legacy/teams.js';
import { userEndpoints } from './resources/legacy/user.js';
import { workersEndpoints } from './resources/legacy/workers.js';

const resources = [
  authEndpoints,
  tenantsEndpoints,
  jobsEndpoints,
  locationsEndpoints,
  monitoringEndpoints,
  reportingEndpoints,
  discoveryEndpoints,
  dashboardsEndpoints,
  configurationEndpoints,
  auditEndpoints,
  ediscoveryEndpoints,
  dataManagementEndpoints,
  supportEndpoints,
  archiveEndpoints,
  legacyAuthEndpoints,
  workersEndpoints,
  legacyLocationsEndpoints,
  emailEndpoints,
  teamsEndpoints,
  legacyJobsEndpoints,
  filesEndpoints,
  mailboxesEndpoints,
  proxyRightsEndpoints,
  userEndpoints,
  sessionsEndpoints,
  invitationsEndpoints,
] as const;

type ValuesOf<R> = R extends unknown ? R[keyof R] : never;
/** Any endpoint of the catalogue, with its exact types. */
export type AnyEndpoint = ValuesOf<(typeof resources)[number]>;
/** The id of every endpoint, such as `apollo.jobs.start`. */
export type EndpointId = AnyEndpoint['id'];

/**
 * The endpoint catalogue: one entry per endpoint of the apollo and legacy APIs, with its API, method,
 * path template, auth mode and request and response schemas. The SDK's methods, the MSW handlers, the
 * server's routes and validation, and the OpenAPI document all come from it.
 */
export const endpoints: readonly AnyEndpoint[] = resources.flatMap(
  (resource) => Object.values(resource) as AnyEndpoint[],
);

/** Looks an endpoint up by id. */
export function endpointById<I extends EndpointId>(id: I): Extract<AnyEndpoint, { id: I }> {
  const found = endpoints.find((endpoint) => endpoint.id === id);
  if (!found) throw new RangeError(`Unknown endpoint ${id}`);
  return found as Extract<AnyEndpoint, { id: I }>;
}
