/** Legacy workers and clients: organisations, their customer workers, partners and worker health. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { Application, LicenseKind } from '../common.js';

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
      items: s.integer({ minimum: 0 }),
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

/**
 * The catalogue entries of legacy workers and clients: organisations, a worker's checks and backup
 * figures, partners and their clients. {@link workersApi} binds them.
 */
export const workersEndpoints = defineResource('legacy', 'workers', {
  client: { method: 'GET', path: '/client', summary: "The caller's own organisation", response: Client },
  clients: {
    method: 'GET',
    path: '/clients',
    summary: 'Organisations the caller may act for',
    response: s.array(Client),
  },
  checks: {
    method: 'GET',
    path: '/worker/stats/checks/{workerIp}',
    summary: "A worker's health checks",
    response: WorkerChecks,
  },
  lastSuccessfulJob: {
    method: 'GET',
    path: '/backup-and-restore/get-last-successful-job/{workerIp}',
    summary: 'The last backup run that finished without failure',
    response: LastSuccessfulJob,
  },
  statistics: {
    method: 'GET',
    path: '/backup-and-restore/statistics',
    summary: 'Backup figures per application',
    query: s.object({ workerIp: s.string({ minLength: 1 }) }),
    response: BackupStatistics,
  },
  partnerClients: {
    method: 'GET',
    path: '/partner-clients',
    summary: "A partner's client organisations",
    response: s.array(Client),
  },
  addPartnerClient: {
    method: 'POST',
    path: '/partner-clients',
    summary: 'Add a client organisation with its licence and worker',
    body: PartnerClientCreate,
    response: Client,
    refusals: {
      409: "A user with the administrator email already exists (code emailTaken), or the partner's own organisation or a client has the short name (shortNameTaken).",
    },
  },
  partners: { method: 'GET', path: '/partners-list', summary: 'All partners (operator)', response: s.array(Partner) },
  clientsByType: {
    method: 'GET',
    path: '/client/{type}',
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
