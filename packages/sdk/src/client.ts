import { type ClientOptions, createTransport } from './core/transport.js';
import { archiveApi } from './resources/apollo/archive.js';
import { auditApi } from './resources/apollo/audit.js';
import { authApi } from './resources/apollo/auth.js';
import { configurationApi } from './resources/apollo/configuration.js';
import { dashboardsApi } from './resources/apollo/dashboards.js';
import { dataManagementApi } from './resources/apollo/data-management.js';
import { discoveryApi } from './resources/apollo/discovery.js';
import { ediscoveryApi } from './resources/apollo/ediscovery.js';
import { jobsApi } from './resources/apollo/jobs.js';
import { locationsApi } from './resources/apollo/locations.js';
import { monitoringApi } from './resources/apollo/monitoring.js';
import { reportingApi } from './resources/apollo/reporting.js';
import { supportApi } from './resources/apollo/support.js';
import { tenantsApi } from './resources/apollo/tenants.js';
import { legacyAuthApi } from './resources/legacy/auth.js';
import { emailApi } from './resources/legacy/email.js';
import { filesApi } from './resources/legacy/files.js';
import { invitationsApi } from './resources/legacy/invitations.js';
import { legacyJobsApi } from './resources/legacy/jobs.js';
import { legacyLocationsApi } from './resources/legacy/locations.js';
import { mailboxesApi } from './resources/legacy/mailboxes.js';
import { proxyRightsApi } from './resources/legacy/proxy-rights.js';
import { sessionsApi } from './resources/legacy/sessions.js';
import { teamsApi } from './resources/legacy/teams.js';
import { userApi } from './resources/legacy/user.js';
import { workersApi } from './resources/legacy/workers.js';

/**
 * Creates a client for both APIs: `client.apollo.*` and `client.legacy.*` hold one typed method per
 * endpoint; `get`, `post`, `put`, `patch`, `delete`, `download` and `upload` reach any path.
 *
 * To ship less code, build a transport with `createTransport` and bind only the resources you use,
 * such as `tenantsApi(transport)`.
 */
export function createClient(options: ClientOptions = {}) {
  const transport = createTransport(options);
  return {
    ...transport,
    apollo: {
      auth: authApi(transport),
      tenants: tenantsApi(transport),
      jobs: jobsApi(transport),
      locations: locationsApi(transport),
      monitoring: monitoringApi(transport),
      reporting: reportingApi(transport),
      discovery: discoveryApi(transport),
      dashboards: dashboardsApi(transport),
      configuration: configurationApi(transport),
      audit: auditApi(transport),
      ediscovery: ediscoveryApi(transport),
      dataManagement: dataManagementApi(transport),
      support: supportApi(transport),
      archive: archiveApi(transport),
    },
    legacy: {
      auth: legacyAuthApi(transport),
      workers: workersApi(transport),
      locations: legacyLocationsApi(transport),
      email: emailApi(transport),
      teams: teamsApi(transport),
      jobs: legacyJobsApi(transport),
      files: filesApi(transport),
      mailboxes: mailboxesApi(transport),
      proxyRights: proxyRightsApi(transport),
      user: userApi(transport),
      sessions: sessionsApi(transport),
      invitations: invitationsApi(transport),
    },
  };
}

/**
 * What {@link createClient} answers: the generic helpers and `setToken` of a {@link Transport}, plus
 * `apollo` and `legacy`, each with one bound resource per area (`client.apollo.jobs.list`,
 * `client.legacy.teams.members`, …). Use it to type a client passed around an application.
 */
export type PortalClient = ReturnType<typeof createClient>;
