/** Legacy workers and clients: organisations, their customer workers, partners and worker health. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { Application, ItemsByKind, LicenseKind, listQueryProperties } from '../common.js';

/**
 * The customer worker: the organisation's tenant as the legacy API serves it. The web app keeps it in the `worker` cookie,
 * with `tenant_id` set from `stagingtenant_id` and `cloud_portal_license` lower-cased. `tenantDomain` names the
 * Microsoft 365 tenant it acts for where the address does not: its default domain, once read from Microsoft Graph.
 */
export const Worker = s.object({
  workerId: s.string(),
  workerIp: s.string({ description: 'The worker address; the {workerIp} of worker-scoped paths.' }),
  indexIp: s.string({ description: 'The address of the worker’s archive index.' }),
  clientId: s.string(),
  organisationName: s.string(),
  abbr: s.string({ description: 'Short organisation name used in file paths.' }),
  stagingtenant_id: s.nullable(s.string({ description: 'The apollo tenant the worker acts for.' })),
  tenantDomain: s.optional(
    s.string({
      maxLength: 255,
      description:
        "The default domain of that tenant's Microsoft 365 organisation (contoso.onmicrosoft.com); absent until the connection test has read it.",
    }),
  ),
  cloud_portal_license: LicenseKind,
});
export type Worker = s.Static<typeof Worker>;

/** A customer organisation and its worker. */
export const Client = s.object({
  clientId: s.string(),
  name: s.string(),
  license: LicenseKind,
  partnerId: s.nullable(s.string()),
  worker: Worker,
  createdAt: s.dateTime(),
});
export type Client = s.Static<typeof Client>;

/** Schema of the body of `POST /partner-clients`. */
export const PartnerClientCreate = s.object({
  name: s.string({ minLength: 2, maxLength: 120 }),
  abbr: s.string({ minLength: 2, maxLength: 16, pattern: '^[a-z0-9-]+$' }),
  license: LicenseKind,
  adminEmail: s.email('The client administrator, invited by mail.'),
});
/**
 * A client organisation for a partner to add: its name (2 to 120 characters), short name (`abbr`, 2 to
 * 16 of a-z, 0-9 and -), licence kind, and the address of its administrator, who is invited by mail.
 * The short name must be free among the partner's own organisation and its clients (409
 * `shortNameTaken`); it is never compared with other organisations'. An address that is already an
 * account's, whoever's, is refused with 409 `emailTaken`.
 */
export type PartnerClientCreate = s.Static<typeof PartnerClientCreate>;

/** Schema of one partner in the answer of `GET /partners-list`. */
export const Partner = s.object({
  partnerId: s.string(),
  name: s.string(),
  clientCount: s.integer({ minimum: 0 }),
});
/** A partner organisation and how many client organisations it has. */
export type Partner = s.Static<typeof Partner>;

/** Schema of the answer of `GET /worker/stats/checks/{workerIp}`. */
export const WorkerChecks = s.object({
  workerIp: s.string(),
  online: s.boolean(),
  lastSeen: s.nullable(s.dateTime()),
  checks: s.array(
    s.object({
      name: s.string({ description: 'graph, storage, index, scheduler.' }),
      ok: s.boolean(),
      message: s.optional(s.string()),
    }),
  ),
});
/**
 * A worker's health: whether it is online, when it was last seen, and each check (`graph`, `storage`,
 * `index`, `scheduler`) with whether it passed and why not.
 */
export type WorkerChecks = s.Static<typeof WorkerChecks>;

/** Schema of the answer of `GET /backup-and-restore/get-last-successful-job/{workerIp}`. */
export const LastSuccessfulJob = s.nullable(
  s.object({
    jobId: s.string(),
    jobName: s.string(),
    application: Application,
    finished: s.dateTime(),
  }),
);
/**
 * The last backup run that finished without failure (its job, workload and end), or null when none has.
 */
export type LastSuccessfulJob = s.Static<typeof LastSuccessfulJob>;

/** Schema of the answer of `GET /backup-and-restore/statistics`. */
export const BackupStatistics = s.object({
  periodDays: s.integer({ minimum: 1 }),
  perApplication: s.array(
    s.object({
      application: Application,
      protectedCount: s.integer({ minimum: 0 }),
      items: s.integer({ minimum: 0, description: 'Items protected, every kind: the sum of `itemsByKind`.' }),
      itemsByKind: s.optional(ItemsByKind),
      bytes: s.integer({ minimum: 0 }),
      jobs: s.integer({ minimum: 0 }),
    }),
  ),
});
/**
 * Backup figures per workload over the last 30 days (`periodDays`): protected accounts, sites or teams,
 * items, bytes and jobs.
 */
export type BackupStatistics = s.Static<typeof BackupStatistics>;

/** The areas a client's health is told by: the three backups and the two archives. */
export const FLEET_AREAS = ['oneDrive', 'sharePoint', 'teams', 'mailArchive', 'teamsArchive'] as const;
/** An area of a client's protection: OneDrive, SharePoint or Teams backup, mail archive or Teams archive. */
export const FleetArea = s.oneOfStrings(FLEET_AREAS);
export type FleetArea = s.Static<typeof FleetArea>;

/** How urgently a client needs its partner: `critical` first, then `warning`; `ok` needs nothing. */
export const FleetAttention = s.oneOfStrings(['critical', 'warning', 'ok']);
export type FleetAttention = s.Static<typeof FleetAttention>;

/** The state of a client's Microsoft 365 connection, from its tenant's last connection test. */
export const FleetConnection = s.oneOfStrings(['ok', 'failed', 'untested', 'none']);
export type FleetConnection = s.Static<typeof FleetConnection>;

/** What a client's attention is about; the web opens the client on the page each is on. */
export const FLEET_ISSUES = [
  'runFailed',
  'runWarning',
  'backupOverdue',
  'neverBackedUp',
  'connectionFailed',
  'connectionUntested',
  'noTenant',
  'noLocation',
  'licenseExpired',
  'licenseExpiring',
] as const;
/** Schema of an issue's code: one of {@link FLEET_ISSUES}. */
export const FleetIssueCode = s.oneOfStrings(FLEET_ISSUES);
/**
 * What a client's issue is: a run failed or had warnings, a backup is overdue or never succeeded, the
 * connection test failed or never ran, no tenant or no storage location, the licence ended or ends soon.
 */
export type FleetIssueCode = s.Static<typeof FleetIssueCode>;

const runCounts = (period: string) =>
  s.object({
    failed: s.integer({ minimum: 0, description: `Runs that failed in the last ${period}.` }),
    warnings: s.integer({
      minimum: 0,
      description: `Runs that finished with items not processed in the last ${period}.`,
    }),
  });
const covered = (what: string) =>
  s.object({
    protected: s.integer({ minimum: 0, description: `${what} a job covers.` }),
    found: s.integer({ minimum: 0, description: `${what} found in the tenant by its last discovery.` }),
  });

/** Schema of one client in the answer of `GET /partner-clients/fleet`. */
export const FleetClient = s.object({
  clientId: s.string(),
  name: s.string(),
  abbr: s.string(),
  license: LicenseKind,
  licenseValidUntil: s.nullable(s.dateTime('When the licence (on trial: the trial) ends; null when it does not.')),
  workerIp: s.string({ description: 'The client’s worker: the {workerIp} of its pages.' }),
  tenantDomain: s.nullable(s.string({ maxLength: 255 })),
  attention: FleetAttention,
  issues: s.array(
    s.object({
      code: FleetIssueCode,
      area: s.optional(FleetArea),
      count: s.optional(s.integer({ minimum: 0 })),
    }),
    { description: 'What needs attention, most urgent first; empty when the client is fine.' },
  ),
  runs24h: runCounts('24 hours'),
  runs7d: runCounts('7 days'),
  lastSuccess: s.object(
    {
      oneDrive: s.nullable(s.dateTime()),
      sharePoint: s.nullable(s.dateTime()),
      teams: s.nullable(s.dateTime()),
      mailArchive: s.nullable(s.dateTime()),
      teamsArchive: s.nullable(s.dateTime()),
    },
    'The end of the last run per area that finished without failure; null when none has.',
  ),
  coverage: s.object({
    accounts: covered('OneDrive accounts'),
    sites: covered('SharePoint sites'),
    teams: covered('Teams'),
    mailboxes: covered('Mailboxes'),
  }),
  storedBytes: s.integer({ minimum: 0, description: 'Bytes stored for the client: backups and archives.' }),
  growthBytes7d: s.integer({ description: 'Stored bytes added in the last 7 days (negative when more was removed).' }),
  connection: s.object({
    state: FleetConnection,
    testedAt: s.nullable(s.dateTime()),
  }),
  runningJobs: s.integer({ minimum: 0 }),
});
/**
 * One client of a partner's fleet, with what needs attention first: failed and warning runs in the
 * last 24 hours and 7 days, the last successful run per area, coverage (protected of found), stored
 * bytes and their growth over 7 days, licence and its end, the connection test's state and running jobs.
 */
export type FleetClient = s.Static<typeof FleetClient>;

/** The sort fields of the fleet: `attention` (the default: critical first, then by failures) and each column. */
export const FLEET_SORTS = [
  'attention',
  'name',
  'failed24h',
  'failed7d',
  'lastSuccess',
  'coverage',
  'storedBytes',
  'growth',
  'license',
  'connection',
  'runningJobs',
] as const;

/** Schema of the query of `GET /partner-clients/fleet`. */
export const FleetQuery = s.object({
  ...listQueryProperties,
  attention: s.optional(s.oneOfStrings(['critical', 'warning', 'ok', 'needsAttention'])),
  license: s.optional(LicenseKind),
  connection: s.optional(FleetConnection),
  area: s.optional(FleetArea),
  running: s.optional(s.oneOfStrings(['true', 'false'])),
});
/**
 * Paging, sort (one of {@link FLEET_SORTS}), a search of name, short name and tenant domain, and
 * filters: `attention` (`needsAttention` is critical and warning), licence, connection state, an
 * area with an issue, and whether a job is running.
 */
export type FleetQuery = s.Static<typeof FleetQuery>;

/** Schema of the answer of `GET /partner-clients/fleet`. */
export const FleetPage = s.object({
  items: s.array(FleetClient),
  total: s.integer({ minimum: 0, description: 'Clients matching the filter, over all pages.' }),
  page: s.integer({ minimum: 1 }),
  pageSize: s.integer({ minimum: 1 }),
  counts: s.object(
    {
      critical: s.integer({ minimum: 0 }),
      warning: s.integer({ minimum: 0 }),
      ok: s.integer({ minimum: 0 }),
    },
    'Every client of the fleet by attention, whatever the filter.',
  ),
  generatedAt: s.dateTime('When the figures were read (they may be up to a few seconds old).'),
});
/** One page of the fleet, with every client counted by attention and when the figures were read. */
export type FleetPage = s.Static<typeof FleetPage>;

/**
 * The catalogue entries of legacy workers and clients: organisations, a worker's checks and backup
 * figures, partners and their clients. {@link workersApi} binds them.
 */
export const workersEndpoints = defineResource('legacy', 'workers', {
  client: {
    method: 'GET',
    path: '/client',
    scope: 'caller',
    summary: "The caller's own organisation",
    response: Client,
  },
  clients: {
    method: 'GET',
    path: '/clients',
    scope: 'caller',
    summary: 'Organisations the caller may act for',
    response: s.array(Client),
  },
  checks: {
    method: 'GET',
    path: '/worker/stats/checks/{workerIp}',
    scope: { worker: { in: 'path', name: 'workerIp' } },
    summary: "A worker's health checks",
    response: WorkerChecks,
  },
  lastSuccessfulJob: {
    method: 'GET',
    path: '/backup-and-restore/get-last-successful-job/{workerIp}',
    scope: { workerTenant: { in: 'path', name: 'workerIp' } },
    summary: 'The last backup run that finished without failure',
    response: LastSuccessfulJob,
  },
  statistics: {
    method: 'GET',
    path: '/backup-and-restore/statistics',
    scope: { workerTenant: { in: 'query', name: 'workerIp' } },
    summary: 'Backup figures per application',
    query: s.object({ workerIp: s.string({ minLength: 1 }) }),
    response: BackupStatistics,
  },
  partnerClients: {
    method: 'GET',
    path: '/partner-clients',
    scope: 'caller',
    summary: "A partner's client organisations",
    response: s.array(Client),
  },
  fleet: {
    method: 'GET',
    path: '/partner-clients/fleet',
    scope: 'caller',
    summary: "A partner's clients with their health, what needs attention first",
    query: FleetQuery,
    response: FleetPage,
  },
  addPartnerClient: {
    method: 'POST',
    path: '/partner-clients',
    scope: 'caller',
    summary: 'Add a client organisation with its licence and worker',
    body: PartnerClientCreate,
    response: Client,
    refusals: {
      409: "A user with the administrator email already exists (code emailTaken), or the partner's own organisation or a client has the short name (shortNameTaken).",
    },
  },
  partners: {
    method: 'GET',
    path: '/partners-list',
    scope: 'caller',
    summary: 'All partners (operator)',
    response: s.array(Partner),
  },
  clientsByType: {
    method: 'GET',
    path: '/client/{type}',
    scope: 'caller',
    summary: 'Organisations by licence kind',
    params: s.object({ type: LicenseKind }),
    response: s.array(Client),
  },
});

/**
 * Binds legacy workers and clients to a transport: the caller's organisation and those it may act for,
 * by licence kind; a worker's health checks, last successful backup and backup figures; a partner's
 * client organisations and adding one; and all partners (operators only). The same methods as
 * `client.legacy.workers`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function workersApi(transport: Transport) {
  return bindResource(transport, workersEndpoints);
}
