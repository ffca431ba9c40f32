import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTenant, groupsOf, type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { type AnyEndpoint, type EndpointId, endpoints, type JsonSchema } from '@compliance-portal/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../src/app.js';
import { insertUser } from '../src/modules/identity/users-repository.js';
import { createOrganisation } from '../src/modules/organisations/repository.js';
import { insertTenant } from '../src/modules/tenants/repository.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import {
  ADMIN,
  API_KEY,
  codeFor,
  DEMO_PASSWORD,
  PARTNER,
  sessionToken,
  type TestServer,
  useTestServer,
} from './helpers.js';

/**
 * Multi-tenant isolation: every route that names a tenant, location, task, worker or organisation
 * refuses another organisation's resources with the same 404 as a resource that does not exist, and
 * changes nothing. The route tables below are checked against the server's route table, so a new
 * scoped route cannot be added without a row here.
 */

/** The resources of one customer organisation, as the requests of the tables name them. */
interface World {
  organisation: string;
  organisationId: string;
  abbr: string;
  tenantId: string;
  tenantName: string;
  locationId: string;
  locationName: string;
  siteAddress: string;
  taskId: string;
  workerIp: string;
  indexIp: string;
  workerId: string;
  jobId: string;
  jobName: string;
  jobTaskId: string;
  /** A queued run of the job. */
  reportId: string;
  /** A finished run of the job: it has a report. */
  endedReportId: string;
  /** A finished run of a version clean-up job, with one site in its inventory. */
  cleanupReportId: string;
  /** An account discovery found, backed up by a OneDrive job into the location. */
  sourceId: string;
  sourceName: string;
  /** The one file of that account's snapshot, and its (world-specific) size. */
  fileName: string;
  backupBytes: number;
  backupJobName: string;
  /** A site backed up into the location by a finished SharePoint run, one list of it and its one item's title. */
  siteId: string;
  listId: string;
  listItemTitle: string;
  /** A group of the tenant in the simulated Microsoft 365, its mail, and one member's address. */
  groupId: string;
  groupMail: string;
  memberUpn: string;
  /** An archived mail of the mailbox `mailbox@abbr`, in a world-specific folder, of a world-specific size. */
  mailFolder: string;
  archiveBytes: number;
  /** A proxy right on `mailbox@abbr`, held by "<organisation> reader". */
  rightId: string;
  /** The first team of the simulated tenant, one of its members, its archived channel and the archive's size. */
  teamId: string;
  teamMemberUpn: string;
  teamsChannel: string;
  teamsBytes: number;
  /** A finished Teams restore. */
  teamsRestoreName: string;
  /** The archived Teams message (its id and the words of its text). */
  teamsItemId: string;
  teamsText: string;
  /** A saved eDiscovery search of everything, "<organisation> case". */
  caseId: string;
  /** A report document of the organisation, "<organisation> report.pdf", whose PDF names the organisation. */
  documentName: string;
  /** A portal user of the organisation, `member@<abbr>.example`. */
  userId: string;
  userEmail: string;
}

interface Call {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  headers?: Record<string, string>;
}

interface ScopedRoute {
  /** The request against world `w`'s resources. */
  call(w: World): Call;
  /**
   * The path or body names a tenant and, inside it, a location or task: also refused when the tenant
   * is the caller's own and only the nested id is another organisation's.
   */
  nested?: true;
  /** GET routes: what the owner's answer shows of world `w`. */
  shows?: (w: World) => string;
}

/** Parameter names (path, query or body) that point at an organisation's resources. */
const SCOPE_KEYS = new Set([
  'tenantId',
  'taskId',
  'locationId',
  'defaultLocationId',
  'workerIp',
  'workerId',
  'indexIp',
  'ip',
  'organisationId',
  'clientId',
  'abbr',
  'jobId',
  'reportId',
  'mailboxId',
  'userId',
]);
/** Parameters that name a resource being created, not an existing one. */
const NEW_NAMES: { readonly [I in EndpointId]?: readonly string[] } = {
  'legacy.workers.addPartnerClient': ['abbr'],
};
/**
 * Public routes whose parameter of a scoped name needs no organisation check: the e-mail confirmation
 * link's user id (apollo's, and the portal page's legacy call) is proven by the code that comes with it.
 */
const PROVEN_BY_CODE: { readonly [I in EndpointId]?: readonly string[] } = {
  'apollo.auth.confirmEmail': ['userId'],
  'legacy.auth.confirmEmail': ['userId'],
};
/** Ids that live inside a tenant, named next to the tenant's own id. */
const NESTED_KEYS = new Set(['taskId', 'locationId', 'defaultLocationId', 'jobId', 'reportId']);

const tenantOnly = (w: World): Call => ({ params: { tenantId: w.tenantId } });
const tenantLocation = (w: World): Call => ({ params: { tenantId: w.tenantId, locationId: w.locationId } });
const workerOnly = (w: World): Call => ({ params: { workerIp: w.workerIp } });
/** The ids that live inside a tenant, taken from another world. */
const nestedIds = (w: World) => ({
  locationId: w.locationId,
  taskId: w.taskId,
  jobId: w.jobId,
  jobTaskId: w.jobTaskId,
  reportId: w.reportId,
  cleanupReportId: w.cleanupReportId,
  groupId: w.groupId,
});
const tenantJob = (w: World): Call => ({ params: { tenantId: w.tenantId, jobId: w.jobId } });
const intruderLocation = { name: 'Intruder vault', siteAddress: 'https://intruder.example/sites/vault' };

/** Every implemented route with a scoped parameter (checked below against the server's route table). */
const SCOPED: { readonly [I in EndpointId]?: ScopedRoute } = {
  'apollo.tenants.create': {
    call: (w) => ({
      body: {
        tenantName: 'intruder.onmicrosoft.com',
        applicationId: randomUUID(),
        clientSecret: 'intruder-secret',
        tenantId: randomUUID(),
        objectId: randomUUID(),
        redirectUri: 'https://intruder.example/auth/callback',
        organisationId: w.organisationId,
      },
    }),
  },
  'apollo.tenants.get': { call: tenantOnly, shows: (w) => w.tenantName },
  'apollo.tenants.update': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: { tenantName: 'hijacked.onmicrosoft.com', clientSecret: 'hijacked-secret' },
    }),
  },
  'apollo.tenants.delete': { call: tenantOnly },
  'apollo.tenants.provision': { call: tenantOnly },
  'apollo.tenants.deprovision': { call: tenantOnly },
  'apollo.tenants.task': {
    call: (w) => ({ params: { tenantId: w.tenantId, taskId: w.taskId } }),
    nested: true,
    shows: (w) => w.taskId,
  },
  'apollo.tenants.startConsent': {
    call: (w) => ({
      body: {
        organisationId: w.organisationId,
        tenantName: 'Intruder Ltd',
        applicationId: randomUUID(),
        clientSecret: 'intruder-secret',
      },
    }),
  },
  'apollo.tenants.renewConsent': { call: tenantOnly },
  'apollo.locations.list': { call: tenantOnly, shows: (w) => w.locationName },
  'apollo.locations.create': { call: (w) => ({ params: { tenantId: w.tenantId }, body: intruderLocation }) },
  'apollo.locations.get': { call: tenantLocation, nested: true, shows: (w) => w.siteAddress },
  'apollo.locations.update': { call: (w) => ({ ...tenantLocation(w), body: intruderLocation }), nested: true },
  'apollo.locations.delete': { call: tenantLocation, nested: true },
  'apollo.locations.probe': { call: tenantLocation, nested: true },
  'apollo.configuration.backupConfig': { call: (w) => ({ query: { tenantId: w.tenantId } }), shows: (w) => w.tenantId },
  'apollo.configuration.updateBackupConfig': {
    call: (w) => ({ body: { tenantId: w.tenantId, defaultLocationId: w.locationId, pricePerGbMonth: 99 } }),
    nested: true,
  },
  'apollo.configuration.license': {
    call: (w) => ({ query: { organisationId: w.organisationId } }),
    shows: (w) => w.organisationId,
  },
  'apollo.configuration.switchTenant': { call: (w) => ({ body: { tenantId: w.tenantId } }) },
  'apollo.configuration.syncUsers': { call: (w) => ({ body: { tenantId: w.tenantId } }) },
  'apollo.configuration.testOnedriveConnection': { call: (w) => ({ body: { tenantId: w.tenantId } }) },
  'apollo.audit.list': {
    call: (w) => ({ query: { organisationId: w.organisationId } }),
    shows: (w) => w.organisationId,
  },
  'apollo.audit.verify': {
    call: (w) => ({ query: { organisationId: w.organisationId } }),
    shows: () => '"verified":true',
  },
  'apollo.jobs.list': { call: tenantOnly, shows: (w) => w.jobName },
  'apollo.jobs.create': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: { name: 'Intruder job', type: 'backup', application: 'onedrive', sources: ['x'], locationId: w.locationId },
    }),
    nested: true,
  },
  'apollo.jobs.deletionPreview': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: { application: 'exchange', sources: [], retention: { unit: 'days', value: 1 } },
    }),
  },
  'apollo.jobs.get': { call: tenantJob, nested: true, shows: (w) => w.jobName },
  'apollo.jobs.update': { call: (w) => ({ ...tenantJob(w), body: { name: 'Hijacked job' } }), nested: true },
  'apollo.jobs.delete': { call: tenantJob, nested: true },
  'apollo.jobs.start': { call: tenantJob, nested: true },
  'apollo.jobs.stop': { call: tenantJob, nested: true },
  'apollo.jobs.status': {
    call: (w) => ({ params: { tenantId: w.tenantId, jobId: w.jobId, taskId: w.jobTaskId } }),
    nested: true,
    shows: (w) => w.jobTaskId,
  },
  'apollo.monitoring.list': {
    call: (w) => ({ params: { tenantId: w.tenantId }, query: { jobId: w.jobId } }),
    nested: true,
    shows: (w) => w.reportId,
  },
  'apollo.monitoring.accounts': {
    call: (w) => ({ params: { tenantId: w.tenantId, reportId: w.reportId } }),
    nested: true,
    shows: (w) => `mailbox@${w.abbr}`,
  },
  'apollo.monitoring.retry': {
    call: (w) => ({ params: { tenantId: w.tenantId, reportId: w.reportId } }),
    nested: true,
  },
  'apollo.reporting.list': { call: tenantOnly, shows: (w) => w.endedReportId },
  'apollo.reporting.accounts': {
    call: (w) => ({ params: { tenantId: w.tenantId, reportId: w.reportId } }),
    nested: true,
    shows: (w) => `mailbox@${w.abbr}`,
  },
  'apollo.reporting.heldItems': {
    call: (w) => ({ params: { tenantId: w.tenantId, reportId: w.reportId } }),
    nested: true,
    shows: (w) => `${w.organisation} case`,
  },
  'apollo.reporting.dataManagementReports': { call: tenantOnly, shows: (w) => w.cleanupReportId },
  'apollo.reporting.dataManagementAccounts': {
    call: (w) => ({ params: { tenantId: w.tenantId, reportId: w.cleanupReportId } }),
    nested: true,
    shows: (w) => `site@${w.abbr}`,
  },
  'apollo.discovery.users': {
    call: (w) => ({ ...tenantLocation(w), query: { application: 'onedrive' } }),
    nested: true,
    shows: (w) => w.sourceName,
  },
  'apollo.discovery.items': {
    call: (w) => ({ params: { tenantId: w.tenantId, locationId: w.locationId, sourceId: w.sourceId, nodeId: 'root' } }),
    nested: true,
    shows: (w) => w.fileName,
  },
  'apollo.discovery.listCsv': {
    call: (w) => ({
      params: { tenantId: w.tenantId, locationId: w.locationId, sourceId: w.siteId, listId: w.listId },
    }),
    nested: true,
    shows: (w) => w.listItemTitle,
  },
  'apollo.discovery.groups': { call: tenantLocation, nested: true, shows: (w) => w.groupMail },
  'apollo.discovery.groupUsers': {
    call: (w) => ({ params: { tenantId: w.tenantId, locationId: w.locationId, groupId: w.groupId } }),
    nested: true,
    shows: (w) => w.memberUpn,
  },
  'apollo.dashboards.application': {
    call: (w) => ({ params: { tenantId: w.tenantId, application: 'onedrive', view: 'details' } }),
    shows: (w) => w.sourceName,
  },
  'apollo.dashboards.overview': { call: tenantOnly, shows: (w) => w.backupJobName },
  'apollo.dashboards.sharepointDataManagement': {
    call: tenantOnly,
    // The simulated tenant's first site: its id is the tenant's own.
    shows: (w) => buildTenant(w.tenantId).sites[0]?.id ?? 'no site',
  },
  'apollo.dataManagement.browse': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: { application: 'onedrive', sourceId: w.sourceId, nodeId: 'root', rule: { kind: 'keepNewest', count: 1 } },
    }),
  },
  'apollo.dataManagement.versions': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: {
        application: 'onedrive',
        sourceId: w.sourceId,
        nodeId: 'drive:item',
        rule: { kind: 'keepNewest', count: 1 },
      },
    }),
  },
  'apollo.dataManagement.preview': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: {
        application: 'onedrive',
        sourceId: w.sourceId,
        paths: ['drive:/'],
        rule: { kind: 'keepNewest', count: 1 },
      },
    }),
  },
  'legacy.workers.lastSuccessfulJob': { call: workerOnly, shows: (w) => w.backupJobName },
  'legacy.workers.statistics': {
    call: (w) => ({ query: { workerIp: w.workerIp } }),
    shows: (w) => `"bytes":${w.backupBytes}`,
  },
  'apollo.ediscovery.cases': { call: tenantOnly, shows: (w) => `${w.organisation} case` },
  'apollo.ediscovery.createCase': {
    call: (w) => ({ params: { tenantId: w.tenantId }, body: { name: 'Intruder case', search: { query: '' } } }),
  },
  'apollo.ediscovery.getCase': {
    call: (w) => ({ params: { tenantId: w.tenantId, caseId: w.caseId } }),
    shows: (w) => `${w.organisation} case`,
  },
  'apollo.ediscovery.deleteCase': { call: (w) => ({ params: { tenantId: w.tenantId, caseId: w.caseId } }) },
  'apollo.ediscovery.holdCase': { call: (w) => ({ params: { tenantId: w.tenantId, caseId: w.caseId } }) },
  'apollo.ediscovery.releaseCase': { call: (w) => ({ params: { tenantId: w.tenantId, caseId: w.caseId } }) },
  'apollo.ediscovery.exportCase': {
    call: (w) => ({ params: { tenantId: w.tenantId, caseId: w.caseId } }),
    // File names are not compressed in a ZIP: the Teams message's channel folder is readable.
    shows: (w) => w.teamsChannel,
  },
  'apollo.ediscovery.search': { call: (w) => ({ params: { tenantId: w.tenantId }, body: { query: '' } }) },
  'apollo.ediscovery.eventPreview': {
    call: (w) => ({ params: { tenantId: w.tenantId, mailboxId: `calendar@${w.abbr}`, eventId: 'event-1' } }),
    shows: (w) => `Planning ${w.abbr}`,
  },
  'apollo.ediscovery.eventFile': {
    call: (w) => ({ params: { tenantId: w.tenantId, mailboxId: `calendar@${w.abbr}`, eventId: 'event-1' } }),
    shows: (w) => `SUMMARY:Planning ${w.abbr}`,
  },
  'apollo.ediscovery.preview': {
    call: (w) => ({ params: { tenantId: w.tenantId, itemId: w.teamsItemId } }),
    shows: (w) => w.teamsText,
  },
  'apollo.archive.browseMail': {
    call: (w) => ({ params: { tenantId: w.tenantId }, body: { mailboxId: `mailbox@${w.abbr}`, folder: w.mailFolder } }),
  },
  'apollo.archive.browseMailboxItems': {
    call: (w) => ({ params: { tenantId: w.tenantId }, body: { mailboxId: `mailbox@${w.abbr}`, kind: 'event' } }),
  },
  'apollo.archive.mailboxItem': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: { mailboxId: `mailbox@${w.abbr}`, kind: 'contact', itemId: 'contact-1' },
    }),
  },
  'apollo.archive.mailboxItemFile': {
    call: (w) => ({
      params: { tenantId: w.tenantId },
      body: { mailboxId: `mailbox@${w.abbr}`, kind: 'contact', itemId: 'contact-1' },
    }),
  },
  'apollo.archive.item': {
    call: (w) => ({ params: { tenantId: w.tenantId, itemId: w.teamsItemId } }),
    shows: (w) => w.teamsText,
  },
  'apollo.archive.teams': { call: tenantOnly, shows: (w) => w.teamsChannel },
  'apollo.archive.teamsThreads': {
    call: (w) => ({ params: { tenantId: w.tenantId }, query: { source: w.teamId, channel: w.teamsChannel } }),
    shows: (w) => w.teamsText,
  },
  'legacy.files.documents': { call: (w) => ({ params: { abbr: w.abbr } }), shows: (w) => w.documentName },
  'legacy.files.reports': { call: (w) => ({ params: { abbr: w.abbr } }), shows: (w) => w.documentName },
  'legacy.files.download': {
    call: (w) => ({ params: { fileName: w.documentName, abbr: w.abbr, documentType: 'reports' } }),
    shows: (w) => w.organisation,
  },
  'legacy.files.delete': {
    call: (w) => ({ body: { abbr: w.abbr, documentType: 'reports', fileName: w.documentName } }),
  },
  'legacy.files.upload': {
    call: (w) => {
      const boundary = 'intruder-boundary';
      const field = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const body = `${field('abbr', w.abbr)}${field('documentType', 'reports')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${w.documentName}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 intruder\r\n--${boundary}--\r\n`;
      return { body: Buffer.from(body), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    },
  },
  'legacy.teams.list': { call: (w) => ({ query: { workerIp: w.workerIp } }), shows: (w) => w.teamId },
  'legacy.teams.members': {
    call: (w) => ({ params: { workerIp: w.workerIp }, query: { teamId: w.teamId } }),
    shows: (w) => w.teamMemberUpn,
  },
  'legacy.teams.foundGroups': { call: workerOnly, shows: (w) => w.groupMail },
  'legacy.teams.foundAccounts': {
    call: (w) => ({ params: { workerIp: w.workerIp, type: 'mailbox' } }),
    shows: (w) => w.memberUpn,
  },
  'legacy.teams.restoreFoundAccounts': {
    call: (w) => ({ params: { workerIp: w.workerIp, type: 'user' } }),
    shows: (w) => w.sourceName,
  },
  'legacy.teams.archiveStructure': { call: (w) => ({ query: { workerIp: w.workerIp } }), shows: (w) => w.teamsChannel },
  'legacy.teams.filter': { call: (w) => ({ body: { workerIp: w.workerIp } }) },
  'legacy.teams.statistics': {
    call: (w) => ({ query: { workerIp: w.workerIp } }),
    shows: (w) => `"bytes":${w.teamsBytes}`,
  },
  'legacy.teams.finishedRestoreJobs': { call: workerOnly, shows: (w) => w.teamsRestoreName },
  'legacy.proxyRights.accounts': { call: (w) => ({ query: { workerIp: w.workerIp } }), shows: (w) => w.memberUpn },
  'legacy.proxyRights.account': {
    call: (w) => ({ query: { workerIp: w.workerIp, principalId: w.groupId } }),
    shows: (w) => w.groupMail,
  },
  'legacy.proxyRights.list': {
    call: (w) => ({ query: { workerIp: w.workerIp } }),
    shows: (w) => `${w.organisation} reader`,
  },
  'legacy.proxyRights.grant': {
    call: (w) => ({ body: { workerIp: w.workerIp, mailboxId: w.memberUpn, principalIds: [w.groupId] } }),
  },
  'legacy.proxyRights.revoke': { call: (w) => ({ query: { workerIp: w.workerIp, rightId: w.rightId } }) },
  'legacy.email.restore': {
    call: (w) => ({ body: { workerIp: w.workerIp, mailboxId: `mailbox@${w.abbr}`, messageIds: ['1'] } }),
  },
  'legacy.email.fullRestoreDownload': {
    call: (w) => ({ body: { workerIp: w.workerIp, mailboxId: `mailbox@${w.abbr}` } }),
  },
  'legacy.mailboxes.list': {
    call: (w) => ({ params: { workerIp: w.workerIp, indexIp: w.indexIp } }),
    shows: (w) => `mailbox@${w.abbr}`,
  },
  'legacy.mailboxes.top': { call: (w) => ({ query: { workerIp: w.workerIp } }), shows: (w) => `mailbox@${w.abbr}` },
  'legacy.mailboxes.meta': {
    call: (w) => ({ query: { workerIp: w.workerIp, mailboxId: `mailbox@${w.abbr}` } }),
    shows: (w) => w.mailFolder,
  },
  'legacy.mailboxes.downloadCsv': {
    call: (w) => ({ params: { workerIp: w.workerIp, indexIp: w.indexIp } }),
    shows: (w) => `mailbox@${w.abbr}`,
  },
  'legacy.email.statistics': {
    call: (w) => ({ query: { ip: w.workerIp } }),
    shows: (w) => `"bytes":${w.archiveBytes}`,
  },
  'legacy.email.workerCheck': { call: workerOnly, shows: (w) => w.workerIp },
  'legacy.email.workerMeta': { call: (w) => ({ params: { workerId: w.workerId } }), shows: (w) => w.mailFolder },
  'legacy.jobs.scheduled': {
    call: (w) => ({ params: { workerIp: w.workerIp, prefix: 'email' } }),
    shows: (w) => w.jobName,
  },
  'legacy.jobs.running': { call: (w) => ({ query: { workerIp: w.workerIp } }), shows: (w) => w.reportId },
  'legacy.jobs.create': {
    call: (w) => ({ body: { workerIp: w.workerIp, prefix: 'email', name: 'Intruder archive', sources: ['x'] } }),
  },
  'legacy.jobs.update': { call: (w) => ({ body: { jobId: w.jobId, name: 'Hijacked archive' } }), nested: true },
  'legacy.jobs.remove': { call: (w) => ({ body: { jobId: w.jobId } }), nested: true },
  'legacy.jobs.start': { call: (w) => ({ body: { jobId: w.jobId } }), nested: true },
  'legacy.jobs.stop': { call: (w) => ({ body: { jobId: w.jobId } }), nested: true },
  'legacy.jobs.filtered': { call: (w) => ({ body: { workerIp: w.workerIp } }) },
  'legacy.jobs.downloadRestoreArchive': { call: (w) => ({ body: { jobId: w.jobId } }), nested: true },
  'legacy.jobs.reportDataAccounts': { call: (w) => ({ body: { reportId: w.reportId } }), nested: true },
  'legacy.workers.checks': { call: workerOnly, shows: (w) => w.workerIp },
  'legacy.locations.worker': { call: workerOnly, shows: (w) => w.locationName },
  'legacy.locations.backup': { call: workerOnly, shows: (w) => w.locationName },
  'legacy.locations.archive': { call: workerOnly, shows: (w) => w.locationName },
  'legacy.user.create': {
    call: (w) => ({
      body: {
        email: `intruder-${randomUUID().slice(0, 8)}@intruder.example`,
        displayName: 'Intruder',
        role: 'admin',
        organisationId: w.organisationId,
      },
    }),
  },
  'legacy.user.users': {
    call: (w) => ({ query: { organisationId: w.organisationId } }),
    shows: (w) => w.userEmail,
  },
  'legacy.user.grantEdiscoveryManager': { call: (w) => ({ params: { userId: w.userId } }) },
  'legacy.user.revokeEdiscoveryManager': { call: (w) => ({ params: { userId: w.userId } }) },
  'legacy.user.deactivate': { call: (w) => ({ params: { userId: w.userId } }) },
  'legacy.user.reactivate': { call: (w) => ({ params: { userId: w.userId } }) },
  'legacy.user.remove': { call: (w) => ({ params: { userId: w.userId } }) },
  'legacy.user.resendInvitation': { call: (w) => ({ params: { userId: w.userId }, body: {} }) },
  'apollo.ediscovery.rights': { call: tenantOnly, shows: () => 'ediscoveryManager' },
};

/** Every other implemented route that needs a user, and why it needs no organisation check. */
const UNSCOPED: { readonly [I in EndpointId]?: string } = {
  'apollo.auth.twoFactor': "the caller's own account",
  'apollo.auth.info': "the caller's own account",
  'apollo.auth.updateInfo': "the caller's own account",
  'legacy.auth.logout': "the caller's own session",
  'legacy.auth.activity': "the caller's own sign-in events and sessions",
  'legacy.auth.revokeOtherSessions': "the caller's own sessions",
  'legacy.sessions.list': "the caller's own sessions",
  'legacy.sessions.revoke': "the caller's own sessions (another user's is unknown: own-sessions.test.ts)",
  'legacy.auth.signInSettings': "the caller's own organisation's sign-in methods",
  'legacy.auth.updateSignInSettings': "the caller's own organisation's sign-in methods",
  'apollo.support.contacts': "the server's configured support contacts, the same for everyone",
  'apollo.support.createRequest': "a request from the caller's own account to the support address",
  'legacy.auth.verifyUser': "the caller's own session",
  'legacy.auth.generateQr': "the caller's own authenticator",
  'legacy.auth.qrcodeVerification': "the caller's own authenticator",
  'legacy.auth.codeVerification': "the caller's own sign-in",
  'apollo.tenants.list': 'lists the organisations the caller may act for (checked below)',
  'apollo.tenants.consentSetup': "the portal's consent redirect URI and the permissions every app registration needs",
  'apollo.tenants.finishConsent':
    "the caller's own consent under way, named by its state; its organisation checked again (tenant-consent.test.ts)",
  'legacy.workers.client': "the caller's own organisation (checked below)",
  'legacy.workers.clients': 'lists the organisations the caller may act for (checked below)',
  'legacy.workers.clientsByType': 'lists the organisations the caller may act for (checked below)',
  'legacy.workers.partnerClients': "partners only, the caller's own clients (checked below)",
  'legacy.workers.fleet': "partners only, the caller's own clients' health; operators every partner's (checked below)",
  'legacy.workers.addPartnerClient': "partners only, under the caller's own organisation (checked below)",
  'legacy.workers.partners': 'operators only (checked below)',
  'legacy.user.notifications': "the caller's own settings",
  'legacy.user.updateNotifications': "the caller's own settings",
  'legacy.user.testNotification': "a test mail to the caller's own notification address",
};

const byId = new Map<string, AnyEndpoint>(endpoints.map((e) => [e.id, e]));
function endpoint(id: EndpointId): AnyEndpoint {
  const found = byId.get(id);
  if (!found) throw new Error(`no endpoint ${id}`);
  return found;
}

interface Schemas {
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  bodyType?: string;
}
const schemasOf = (e: AnyEndpoint) => e as unknown as Schemas;
const pathParams = (e: AnyEndpoint) => [...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** The scoped parameter names of an endpoint: in its path, query or body. */
function scopeParams(e: AnyEndpoint): string[] {
  const { query, body } = schemasOf(e);
  const names = [...pathParams(e), ...Object.keys(query?.properties ?? {}), ...Object.keys(body?.properties ?? {})];
  const created = [...(NEW_NAMES[e.id] ?? []), ...(PROVEN_BY_CODE[e.id] ?? [])];
  return [...new Set(names.filter((n) => SCOPE_KEYS.has(n) && !created.includes(n)))];
}

/** The request of a call, on the apollo or legacy base path. */
function requestFor(e: AnyEndpoint, call: Call, apolloPrefix = '/apollo') {
  const path = e.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = call.params?.[name];
    if (value === undefined) throw new Error(`${e.id}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  }
  const qs = search.toString();
  return {
    method: e.method,
    url: `${e.api === 'apollo' ? apolloPrefix : '/api'}${path}${qs ? `?${qs}` : ''}`,
    ...(call.body !== undefined ? { body: call.body } : {}),
    ...(call.headers ? { headers: call.headers } : {}),
  };
}

const SAMPLE_PATTERNS: Record<string, string> = {
  '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$': '0f0e0d0c-0b0a-4090-8070-605040302010',
  '^[0-9]{6}$': '123456',
  '^[a-z0-9-]+$': 'sample-abbr',
  '^[0-9]{1,18}$': '4711',
  '^[2-9A-Za-z]{5}-[2-9A-Za-z]{5}$': 'BCDFG-HJKMN',
  '^[2-9BCDFGHJKMNPQRTVWXY]{5}-[2-9BCDFGHJKMNPQRTVWXY]{5}$': 'BCDFG-HJKMN',
};

/** The world's value for a scoped parameter name, if it has one. */
function worldValue(w: World, name: string): string | undefined {
  const values: Record<string, string> = {
    tenantId: w.tenantId,
    taskId: w.taskId,
    locationId: w.locationId,
    defaultLocationId: w.locationId,
    workerIp: w.workerIp,
    ip: w.workerIp,
    indexIp: w.indexIp,
    workerId: w.workerId,
    organisationId: w.organisationId,
    clientId: w.organisationId,
    abbr: w.abbr,
  };
  return values[name];
}

/** A minimal value valid for a schema, taking scoped ids from the world. */
function sample(schema: JsonSchema, name: string, w: World): unknown {
  const fromWorld = worldValue(w, name);
  if (fromWorld !== undefined && (schema.type === 'string' || schema.type === undefined)) return fromWorld;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(alternatives.find((a) => a.type !== 'null') ?? {}, name, w);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, sample(schema.properties?.[key] ?? {}, key, w)]),
      );
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, (_, i) =>
        schema.items?.type === 'integer' ? i + (schema.items.minimum ?? 0) : sample(schema.items ?? {}, name, w),
      );
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string': {
      if (schema.pattern) {
        const value = SAMPLE_PATTERNS[schema.pattern];
        if (value === undefined) throw new Error(`no sample for the pattern ${schema.pattern} of ${name}`);
        return value;
      }
      if (schema.format === 'email') return 'someone@sample.example';
      if (schema.format === 'uri') return 'https://sample.example/path';
      if (schema.format === 'date-time') return '2026-11-02T08:00:00.000Z';
      if (schema.format === 'date') return '2026-11-02';
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    }
    default:
      return 'x';
  }
}

/** A schema-valid request of any catalogue endpoint, with world `w`'s ids where the names match. */
function sampleCall(e: AnyEndpoint, w: World): Call {
  const { params, query, body, bodyType } = schemasOf(e);
  const call: Call = {
    params: Object.fromEntries(
      pathParams(e).map((n) => [n, String(sample(params?.properties?.[n] ?? { type: 'string' }, n, w))]),
    ),
  };
  if (query) {
    const q = sample(query, 'query', w) as Record<string, unknown>;
    call.query = Object.fromEntries(
      Object.entries(q).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
    );
  }
  if (body && bodyType !== 'multipart') call.body = sample(body, 'body', w);
  return call;
}

/** The text of an error answer: `detail` of a problem, `message` of a legacy error. */
function errorText(response: LightMyRequestResponse): string {
  const body = response.json() as { detail?: string; message?: string; title?: string };
  return body.detail ?? body.message ?? body.title ?? '';
}

const TABLES = [
  'organisations',
  'users',
  'workers',
  'tenants',
  'provisioning_tasks',
  'locations',
  'jobs',
  'backup_config',
  'notification_settings',
  'one_time_codes',
  'proxy_rights',
  'ediscovery_cases',
  'legal_hold_items',
  'documents',
] as const;

/** Every row of the tables that hold organisations' data, as text per table. */
async function snapshot(server: TestServer): Promise<Record<string, string>> {
  const columns = TABLES.map(
    (t) => `(select coalesce(json_agg(x order by x::text), '[]'::json) from ${t} x)::text as ${t}`,
  );
  const [row] = await server.ctx.db.query<Record<string, string>>(`select ${columns.join(', ')}`);
  if (!row) throw new Error('no snapshot');
  return row;
}

describe('authorization across organisations', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-authorization-')) });
  const worlds = {} as Record<'contoso' | 'northwind' | 'tailspin' | 'woodgrove' | 'adatum', World>;
  const tokens = {} as Record<'admin' | 'partner' | 'northwindAdmin' | 'rival' | 'operator', string>;
  /** A world of ids that exist nowhere. */
  let ghost: World;

  async function world(name: string): Promise<World> {
    const db = server.ctx.db;
    const [org] = await db.query<{ id: string; abbr: string }>('select id, abbr from organisations where name = $1', [
      name,
    ]);
    const [tenant] = await db.query<{ tenant_id: string; tenant_name: string }>(
      'select tenant_id, tenant_name from tenants where organisation_id = $1 order by created_at limit 1',
      [org?.id ?? null],
    );
    const [location] = await db.query<{ location_id: string; name: string; site_address: string }>(
      'select location_id, name, site_address from locations where tenant_id = $1 order by name limit 1',
      [tenant?.tenant_id ?? null],
    );
    const [worker] = await db.query<{ id: string; worker_ip: string; index_ip: string }>(
      'select id, worker_ip, index_ip from workers where organisation_id = $1',
      [org?.id ?? null],
    );
    if (!org || !tenant || !location || !worker) throw new Error(`incomplete world ${name}`);
    // A finished provisioning task, so that each tenant has a task id to ask about.
    const taskId = randomUUID();
    await db.query(
      `insert into provisioning_tasks (task_id, tenant_id, kind, status, progress, message, started, finished)
       values ($1, $2, 'provision', 'succeeded', 100, 'Provisioned.', $3, $3)`,
      [taskId, tenant.tenant_id, server.ctx.now()],
    );
    // A job with a finished start task, so that each tenant has a job and a job task to ask about.
    const jobId = randomUUID();
    const jobName = `${name} mail archive`;
    await db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, created_at, updated_at)
       values ($1, $2, $3, 'exchangeArchive', 'exchange', $4, $5, $6, $6)`,
      [
        jobId,
        tenant.tenant_id,
        jobName,
        location.location_id,
        JSON.stringify({ sources: ['a'], recurrence: null, retention: null }),
        server.ctx.now(),
      ],
    );
    const jobTaskId = randomUUID();
    await db.query(
      `insert into job_tasks (task_id, job_id, action, status, message, created_at, finished_at)
       values ($1, $2, 'start', 'succeeded', 'Started.', $3, $3)`,
      [jobTaskId, jobId, server.ctx.now()],
    );
    // A queued run of the job, so that each tenant has a run report to ask about.
    const reportId = randomUUID();
    await db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at)
       values ($1, $2, $3, 'manual', 'queued', $4, $4)`,
      [reportId, jobId, tenant.tenant_id, server.ctx.now()],
    );
    const endedReportId = randomUUID();
    await db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
       values ($1, $2, $3, 'manual', 'finished', $4, $4, $4, $4)`,
      [endedReportId, jobId, tenant.tenant_id, server.ctx.now()],
    );
    const cleanupJobId = randomUUID();
    await db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, definition, created_at, updated_at)
       values ($1, $2, $3, 'versionCleanup', 'sharepoint', $4, $5, $5)`,
      [
        cleanupJobId,
        tenant.tenant_id,
        `${name} clean-up`,
        JSON.stringify({
          sources: ['s'],
          recurrence: null,
          retention: null,
          cleanupRule: { kind: 'keepNewest', count: 3 },
        }),
        server.ctx.now(),
      ],
    );
    const cleanupReportId = randomUUID();
    await db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
       values ($1, $2, $3, 'manual', 'finished', $4, $4, $4, $4)`,
      [cleanupReportId, cleanupJobId, tenant.tenant_id, server.ctx.now()],
    );
    await db.query(
      `insert into version_inventory (run_id, job_id, source_id, drive_id, item_id, path, versions, eligible, eligible_bytes, deleted, freed_bytes)
       values ($1, $2, $3, 'd', 'i', '/a.docx', 5, 2, 200, 2, 200)`,
      [cleanupReportId, cleanupJobId, `site@${org.abbr}`],
    );
    await db.query(`insert into job_run_sources (run_id, source_id, items) values ($1, $2, 1)`, [
      reportId,
      `mailbox@${org.abbr}`,
    ]);
    // An account discovery found, backed up into the location by a finished OneDrive run with one file.
    const sourceId = `user@${org.abbr}`;
    const sourceName = `${name} account`;
    await db.query(
      `insert into discovered_sources (tenant_id, application, source_id, kind, display_name, email, seen_at)
       values ($1, 'onedrive', $2, 'user', $3, $2, $4)`,
      [tenant.tenant_id, sourceId, sourceName, server.ctx.now()],
    );
    const backupJobId = randomUUID();
    const backupJobName = `${name} OneDrive backup`;
    await db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, created_at, updated_at)
       values ($1, $2, $3, 'backup', 'onedrive', $4, $5, $6, $6)`,
      [
        backupJobId,
        tenant.tenant_id,
        backupJobName,
        location.location_id,
        JSON.stringify({ sources: [sourceId], recurrence: null, retention: null }),
        server.ctx.now(),
      ],
    );
    const [backupRun] = await db.query<{ seq: number }>(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
       values ($1, $2, $3, 'manual', 'finished', $4, $4, $4, $4) returning seq`,
      [randomUUID(), backupJobId, tenant.tenant_id, server.ctx.now()],
    );
    worldCount += 1;
    const backupBytes = 4_242_000 + worldCount;
    const fileName = `file-${org.abbr}.txt`;
    await db.query(
      `insert into backup_items (job_id, source_id, item_id, version_id, drive_id, kind, name, path, parent_id, size, hash,
                                 modified_at, is_latest, first_seq)
       values ($1, $2, 'item-1', 'v1', 'drive-1', 'file', $3, $4, 'root-1', $5, 'h', $6, true, $7)`,
      [backupJobId, sourceId, fileName, `/${fileName}`, backupBytes, server.ctx.now(), backupRun?.seq ?? 0],
    );
    // A site backed up by a finished SharePoint run: one list with one item.
    const siteId = `site@${org.abbr}`;
    const listId = `list-${org.abbr}`;
    const listItemTitle = `${name} register entry`;
    const siteJobId = randomUUID();
    await db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, location_id, definition, created_at, updated_at)
       values ($1, $2, $3, 'backup', 'sharepoint', $4, $5, $6, $6)`,
      [
        siteJobId,
        tenant.tenant_id,
        `${name} site backup`,
        location.location_id,
        JSON.stringify({ sources: [siteId], recurrence: null, retention: null }),
        server.ctx.now(),
      ],
    );
    // A minute before the OneDrive run: the tenant's last backup stays the OneDrive one.
    const [siteRun] = await db.query<{ seq: number }>(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
       values ($1, $2, $3, 'manual', 'finished', $4, $4, $4, $4) returning seq`,
      [randomUUID(), siteJobId, tenant.tenant_id, new Date(server.ctx.now().getTime() - 60_000)],
    );
    const definition = {
      name: 'Register',
      displayName: 'Register',
      description: '',
      template: 'genericList',
      columns: [{ name: 'Title', displayName: 'Title', text: {} }],
      contentTypes: [],
    };
    await db.query(
      `insert into backup_lists (job_id, tenant_id, site_id, list_id, first_seq, name, display_name, template, definition)
       values ($1, $2, $3, $4, $5, 'Register', 'Register', 'genericList', $6)`,
      [siteJobId, tenant.tenant_id, siteId, listId, siteRun?.seq ?? 0, JSON.stringify(definition)],
    );
    await db.query(
      `insert into backup_list_items (job_id, tenant_id, site_id, list_id, item_id, version_id, fields, modified_at,
                                      is_latest, first_seq)
       values ($1, $2, $3, $4, '1', '1.0', $5, $6, true, $7)`,
      [
        siteJobId,
        tenant.tenant_id,
        siteId,
        listId,
        JSON.stringify({ Title: listItemTitle }),
        server.ctx.now(),
        siteRun?.seq ?? 0,
      ],
    );
    // The simulator builds a tenant deterministically from its id: the same model it serves.
    const mailFolder = `Archive ${name}`;
    const archiveBytes = 7_000 + worldCount;
    await db.query(
      `insert into archive_items (tenant_id, kind, source, container, external_id, subject, sender, size, blob_hash,
                                  archived_at, sent_at, search)
       values ($1, 'mail', $2, $3, 'm1', 'Quarterly figures', 'ceo@example.com', $4, 'h', $5, $5,
               to_tsvector('english', 'Quarterly figures'))`,
      [tenant.tenant_id, `mailbox@${org.abbr}`, mailFolder, archiveBytes, server.ctx.now()],
    );
    const rightId = randomUUID();
    await db.query(
      `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind, principal_name,
                                 principal_email, granted_by, granted_at)
       values ($1, $2, $3, 'Mailbox', 'reader-1', 'account', $4, 'reader@example.com', 'fixture', $5)`,
      [rightId, tenant.tenant_id, `mailbox@${org.abbr}`, `${name} reader`, server.ctx.now()],
    );
    // A calendar event of a mailbox of its own, and a right to read it for each caller: eDiscovery opens
    // an event only to who may read its mailbox, which the organisation's scope alone does not give.
    const eventBlob = await createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs')).put(
      new TextEncoder().encode(JSON.stringify({ id: 'event-1', subject: `Planning ${org.abbr}` })),
    );
    await db.query(
      `insert into archived_events (tenant_id, mailbox, external_id, version, calendar_id, calendar_name, event_type, subject,
                                    blob_hash, size, archived_at)
       values ($1, $2, 'event-1', 1, 'calendar-1', 'Calendar', 'singleInstance', $3, $4, 64, $5)`,
      [tenant.tenant_id, `calendar@${org.abbr}`, `Planning ${org.abbr}`, eventBlob.hash, server.ctx.now()],
    );
    for (const email of [
      ADMIN,
      PARTNER,
      'admin@northwind.example',
      'partner@litware.example',
      'operator@portal.example',
    ])
      await db.query(
        `insert into proxy_rights (right_id, tenant_id, mailbox_id, mailbox_name, principal_id, principal_kind, principal_name,
                                   principal_email, granted_by, granted_at)
         values ($1, $2, $3, 'Mailbox', $4, 'account', $4, $4, 'fixture', $5)`,
        [randomUUID(), tenant.tenant_id, `calendar@${org.abbr}`, email, server.ctx.now()],
      );
    const groups = groupsOf(buildTenant(tenant.tenant_id.toLowerCase(), SIM_SIZE));
    const group = groups.at(-1);
    const team = groups[0];
    if (!group?.members[0] || !team?.members[0]) throw new Error('simulated tenant without groups');
    const teamsChannel = `Channel ${name}`;
    const teamsBytes = 9_000 + worldCount;
    const teamsText = `${name} standup notes`;
    const message = await createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs')).put(
      new TextEncoder().encode(
        JSON.stringify({ id: 't1', body: { contentType: 'html', content: `<p>${teamsText}</p>` } }),
      ),
    );
    const [teamsItem] = await db.query<{ id: string }>(
      `insert into archive_items (tenant_id, kind, source, container, external_id, subject, sender, size, blob_hash,
                                  archived_at, sent_at, search)
       values ($1, 'teams', $2, $3, 't1', '', 'Adele', $4, $6, $5, $5, to_tsvector('english', 'Standup notes'))
       returning id::text`,
      [tenant.tenant_id, team.id, teamsChannel, teamsBytes, server.ctx.now(), message.hash],
    );
    const caseId = randomUUID();
    await db.query(
      `insert into ediscovery_cases (case_id, tenant_id, name, search, created_by, created_at, hits)
       values ($1, $2, $3, '{"query":""}', 'fixture', $4, 1)`,
      [caseId, tenant.tenant_id, `${name} case`, server.ctx.now()],
    );
    // The run kept the Teams message on the case's legal hold.
    await db.query(
      `insert into run_held_items (run_id, item_id, case_id, case_name, kind, source, source_name, subject, sent_at)
       values ($1, $2, $3, $4, 'teams', $5, $5, 'Standup notes', $6)`,
      [reportId, teamsItem?.id, caseId, `${name} case`, team.id, server.ctx.now()],
    );
    const documentName = `${name} report.pdf`;
    const documentId = randomUUID();
    await mkdir(join(server.ctx.config.dataDir, 'documents'), { recursive: true });
    await writeFile(join(server.ctx.config.dataDir, 'documents', documentId), `%PDF-1.4 ${name}\n%%EOF\n`);
    await db.query(
      `insert into documents (document_id, organisation_id, document_type, file_name, size, uploaded_at, uploaded_by)
       values ($1, $2, 'reports', $3, 20, $4, 'fixture')`,
      [documentId, org.id, documentName, server.ctx.now()],
    );
    const teamsRestoreName = `${name} Teams restore`;
    const teamsRestoreId = randomUUID();
    await db.query(
      `insert into jobs (job_id, tenant_id, name, type, application, definition, status, created_at, updated_at)
       values ($1, $2, $3, 'restore', 'teams', $4, 'finished', $5, $5)`,
      [
        teamsRestoreId,
        tenant.tenant_id,
        teamsRestoreName,
        JSON.stringify({ sources: [team.id], recurrence: null, retention: null }),
        server.ctx.now(),
      ],
    );
    await db.query(
      `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished)
       values ($1, $2, $3, 'creation', 'finished', $4, $4, $4, $4)`,
      [randomUUID(), teamsRestoreId, tenant.tenant_id, server.ctx.now()],
    );
    // A portal user of the organisation, an eDiscovery manager whose role intruders try to take.
    const userId = randomUUID();
    const userEmail = `member@${org.abbr}.example`;
    await insertUser(db, {
      id: userId,
      email: userEmail,
      displayName: 'Member',
      passwordHash: 'x',
      role: 'admin',
      organisationId: org.id,
      emailConfirmed: true,
    });
    await db.query('update users set ediscovery_manager = true where id = $1', [userId]);
    // An audit entry of the organisation, so that its audit log is not empty.
    await server.ctx.audit({ organisationId: org.id, action: 'fixture.world', outcome: 'success', details: {} });
    return {
      organisation: name,
      organisationId: org.id,
      abbr: org.abbr,
      tenantId: tenant.tenant_id,
      tenantName: tenant.tenant_name,
      locationId: location.location_id,
      locationName: location.name,
      siteAddress: location.site_address,
      taskId,
      workerIp: worker.worker_ip,
      indexIp: worker.index_ip,
      workerId: worker.id,
      jobId,
      jobName,
      jobTaskId,
      reportId,
      endedReportId,
      cleanupReportId,
      sourceId,
      sourceName,
      fileName,
      backupBytes,
      backupJobName,
      siteId,
      listId,
      listItemTitle,
      groupId: group.id,
      groupMail: group.mail,
      memberUpn: group.members[0].upn,
      mailFolder,
      archiveBytes,
      rightId,
      teamId: team.id,
      teamMemberUpn: team.members[0].upn,
      teamsChannel,
      teamsBytes,
      teamsRestoreName,
      teamsItemId: teamsItem?.id ?? '',
      teamsText,
      caseId,
      documentName,
      userId,
      userEmail,
    };
  }

  let sim: RunningSimulator;
  let worldCount = 0;
  const SIM_SIZE = { users: 4, sites: 1, teams: 2 };
  afterAll(() => sim?.close());

  beforeAll(async () => {
    const db = server.ctx.db;
    const [admin] = await db.query<{ password_hash: string; organisation_id: string }>(
      'select password_hash, organisation_id from users where email = $1',
      [ADMIN],
    );
    const [northwind] = await db.query<{ id: string }>("select id from organisations where name = 'Northwind Traders'");
    if (!admin || !northwind) throw new Error('seed incomplete');
    const passwordHash = admin.password_hash;
    await db.transaction(async (tx) => {
      // A second partner with a client of its own, a customer admin of a partner's client, an operator.
      const { organisation: litware } = await createOrganisation(tx, {
        name: 'Litware Partners',
        kind: 'partner',
        license: 'full',
        abbr: 'litware-partners',
      });
      await insertUser(tx, {
        id: randomUUID(),
        email: 'partner@litware.example',
        displayName: 'Litware Partner',
        passwordHash,
        role: 'partner',
        organisationId: litware.id,
        emailConfirmed: true,
      });
      const { organisation: adatum, worker } = await createOrganisation(tx, {
        name: 'Adatum',
        kind: 'customer',
        license: 'full',
        partnerId: litware.id,
        abbr: 'adatum',
      });
      const tenantId = randomUUID();
      await insertTenant(
        tx,
        {
          tenantId,
          organisationId: adatum.id,
          tenantName: 'adatum.onmicrosoft.com',
          applicationId: randomUUID(),
          objectId: randomUUID(),
          redirectUri: 'https://portal.test/auth/callback',
          clientSecretSealed: server.ctx.secrets.seal('adatum-secret'),
          isActive: true,
          graphBaseUrl: null,
          authorityUrl: null,
        },
        server.ctx.now(),
      );
      await tx.query('update workers set stagingtenant_id = $2 where id = $1', [worker.workerId, tenantId]);
      await tx.query(
        'insert into locations (location_id, tenant_id, name, site_address, created_at) values ($1, $2, $3, $4, $5)',
        [randomUUID(), tenantId, 'Adatum vault', 'https://adatum.sharepoint.com/sites/vault', server.ctx.now()],
      );
      await insertUser(tx, {
        id: randomUUID(),
        email: 'admin@northwind.example',
        displayName: 'Northwind Administrator',
        passwordHash,
        role: 'admin',
        organisationId: northwind.id,
        emailConfirmed: true,
      });
      const { organisation: platform } = await createOrganisation(tx, {
        name: 'Platform',
        kind: 'operator',
        license: 'full',
        abbr: 'platform',
      });
      await insertUser(tx, {
        id: randomUUID(),
        email: 'operator@portal.example',
        displayName: 'Operator',
        passwordHash,
        role: 'operator',
        organisationId: platform.id,
        emailConfirmed: true,
      });
    });
    // Every tenant's Microsoft 365 is the simulated one.
    const tenantIds = await db.query<{ tenant_id: string }>('select tenant_id from tenants');
    sim = await startSimulator({ tenants: tenantIds.map((t) => ({ tenantId: t.tenant_id, size: SIM_SIZE })) });
    await db.query('update tenants set graph_base_url = $1, authority_url = $2', [sim.graphBaseUrl, sim.authorityHost]);
    worlds.contoso = await world('Contoso');
    worlds.northwind = await world('Northwind Traders');
    worlds.tailspin = await world('Tailspin Toys');
    worlds.woodgrove = await world('Woodgrove Bank');
    worlds.adatum = await world('Adatum');
    ghost = {
      organisation: 'Nobody',
      organisationId: randomUUID(),
      abbr: 'nobody',
      tenantId: randomUUID(),
      tenantName: 'nobody.onmicrosoft.com',
      locationId: randomUUID(),
      locationName: 'Nowhere',
      siteAddress: 'https://nobody.example',
      taskId: randomUUID(),
      workerIp: '10.99.99.99',
      indexIp: '10.98.99.99',
      workerId: randomUUID(),
      jobId: randomUUID(),
      jobName: 'Nobody job',
      jobTaskId: randomUUID(),
      reportId: randomUUID(),
      endedReportId: randomUUID(),
      cleanupReportId: randomUUID(),
      sourceId: 'user@nobody',
      sourceName: 'Nobody account',
      fileName: 'file-nobody.txt',
      backupBytes: 4_241_999,
      backupJobName: 'Nobody backup',
      siteId: 'site@nobody',
      listId: 'list-nobody',
      listItemTitle: 'Nobody register entry',
      groupId: randomUUID(),
      groupMail: 'group@nobody.example',
      memberUpn: 'member@nobody.example',
      mailFolder: 'Archive Nobody',
      archiveBytes: 6_999,
      rightId: randomUUID(),
      teamId: randomUUID(),
      teamMemberUpn: 'member@nobody.example',
      teamsChannel: 'Channel Nobody',
      teamsBytes: 8_999,
      teamsRestoreName: 'Nobody Teams restore',
      teamsItemId: '999999999',
      teamsText: 'Nobody standup notes',
      caseId: randomUUID(),
      documentName: 'nothing.pdf',
      userId: randomUUID(),
      userEmail: 'member@nobody.example',
    };
    tokens.admin = await sessionToken(server, ADMIN);
    tokens.partner = await sessionToken(server, PARTNER);
    tokens.northwindAdmin = await sessionToken(server, 'admin@northwind.example');
    tokens.rival = await sessionToken(server, 'partner@litware.example');
    tokens.operator = await sessionToken(server, 'operator@portal.example');
  });

  type Actor = keyof typeof tokens;
  type WorldName = keyof typeof worlds;
  /** Who may act for which organisation; the operator may act for all. */
  const OWNS: Record<Actor, WorldName[]> = {
    admin: ['contoso'],
    partner: ['northwind', 'tailspin', 'woodgrove'],
    northwindAdmin: ['northwind'],
    rival: ['adatum'],
    operator: ['contoso', 'northwind', 'tailspin', 'woodgrove', 'adatum'],
  };
  /** The caller, and the worlds of other organisations it tries to reach. */
  const REFUSED: [Actor, WorldName[]][] = [
    ['admin', ['northwind', 'tailspin', 'woodgrove', 'adatum']],
    ['partner', ['contoso', 'adatum']],
    ['northwindAdmin', ['contoso', 'tailspin', 'woodgrove', 'adatum']],
    ['rival', ['contoso', 'northwind', 'tailspin', 'woodgrove']],
  ];

  const send = (call: ReturnType<typeof requestFor>, token: string) => server.request({ ...call, token });

  it('has a row for every implemented route, and a scoped row for every route with a scoped parameter', () => {
    const table = routeTable(server.ctx);
    const access = (e: AnyEndpoint) => e.access;
    const implemented = endpoints.filter((e) => table[e.id] !== undefined);
    expect(implemented.length).toBeGreaterThan(40);
    const needUser = implemented.filter((e) => access(e) !== 'public');
    const ids = (list: AnyEndpoint[]) => list.map((e) => e.id).sort();

    // No public route takes a scoped parameter.
    expect(ids(implemented.filter((e) => access(e) === 'public' && scopeParams(e).length > 0))).toEqual([]);
    expect(ids(needUser.filter((e) => scopeParams(e).length > 0))).toEqual(Object.keys(SCOPED).sort());
    expect(ids(needUser.filter((e) => scopeParams(e).length === 0))).toEqual(Object.keys(UNSCOPED).sort());
    expect(ids(needUser.filter((e) => scopeParams(e).some((n) => NESTED_KEYS.has(n))))).toEqual(
      Object.entries(SCOPED)
        .filter(([, row]) => row.nested)
        .map(([id]) => id)
        .sort(),
    );
    // Every scoped read route says what its owner sees, so that the positive check can fail.
    expect(
      ids(needUser.filter((e) => scopeParams(e).length > 0 && e.method === 'GET' && !SCOPED[e.id]?.shows)),
    ).toEqual([]);
  });

  it.each(Object.keys(SCOPED) as EndpointId[])(
    "%s answers another organisation's resources with the 404 of a missing one and changes nothing",
    async (id) => {
      const e = endpoint(id);
      const row = SCOPED[id];
      if (!row) throw new Error(`no row for ${id}`);
      const before = await snapshot(server);
      const mails = server.mails.length;
      for (const [actor, victims] of REFUSED) {
        const token = tokens[actor];
        const own = worlds[OWNS[actor][0] as WorldName];
        const missing = await send(requestFor(e, row.call(ghost)), token);
        expect(missing.statusCode, `${id} as ${actor} on missing ids: ${missing.body}`).toBe(404);
        const missingNested = row.nested
          ? await send(requestFor(e, row.call({ ...own, ...nestedIds(ghost) })), token)
          : undefined;
        for (const name of victims) {
          const victim = worlds[name];
          const variants: [string, World][] = [
            ['ids', victim],
            ['upper-case ids', { ...victim, tenantId: victim.tenantId.toUpperCase() }],
          ];
          for (const [label, w] of variants) {
            const response = await send(
              requestFor(e, row.call(w), label === 'ids' ? '/apollo' : '/apollo-beta'),
              token,
            );
            const what = `${id} as ${actor} on ${victim.organisation}'s ${label}`;
            expect(response.statusCode, `${what}: ${response.body}`).toBe(404);
            expect(errorText(response), what).toBe(errorText(missing));
            for (const secret of [victim.organisation, victim.tenantName, victim.locationName, victim.siteAddress]) {
              expect(response.body, what).not.toContain(secret);
            }
          }
          if (row.nested && missingNested) {
            // The caller's own tenant, with a location or task of the other organisation inside it.
            const mixed = { ...own, ...nestedIds(victim) };
            const response = await send(requestFor(e, row.call(mixed)), token);
            const what = `${id} as ${actor} on its own tenant with ${victim.organisation}'s nested id`;
            expect(response.statusCode, `${what}: ${response.body}`).toBe(404);
            expect(errorText(response), what).toBe(errorText(missingNested));
            expect(response.body, what).not.toContain(victim.locationName);
            expect(response.body, what).not.toContain(victim.jobName);
          }
        }
      }
      expect(await snapshot(server)).toEqual(before);
      expect(server.mails.length).toBe(mails);
    },
  );

  it.each((Object.keys(SCOPED) as EndpointId[]).filter((id) => endpoint(id).method === 'GET'))(
    "%s answers the caller's own organisations, a partner's clients and, for an operator, all",
    async (id) => {
      const e = endpoint(id);
      const row = SCOPED[id];
      if (!row?.shows) throw new Error(`no positive check for ${id}`);
      for (const actor of Object.keys(OWNS) as Actor[]) {
        for (const name of OWNS[actor]) {
          const w = worlds[name];
          const response = await send(requestFor(e, row.call(w)), tokens[actor]);
          expect(response.statusCode, `${id} as ${actor} on ${w.organisation}: ${response.body}`).toBe(200);
          expect(response.body, `${id} as ${actor} on ${w.organisation}`).toContain(row.shows(w));
        }
      }
    },
  );

  it("lets a partner change its clients' tenants, locations and settings", async () => {
    for (const name of ['northwind', 'tailspin', 'woodgrove'] as const) {
      const w = worlds[name];
      const created = await send(
        requestFor(endpoint('apollo.locations.create'), {
          params: { tenantId: w.tenantId },
          body: { name: 'Partner vault', siteAddress: `https://${w.abbr}.sharepoint.com/sites/partner` },
        }),
        tokens.partner,
      );
      expect(created.statusCode, created.body).toBe(200);
      const locationId = (created.json() as { locationId: string }).locationId;
      const updated = await send(
        requestFor(endpoint('apollo.locations.update'), {
          params: { tenantId: w.tenantId, locationId },
          body: { name: 'Partner vault 2', siteAddress: `https://${w.abbr}.sharepoint.com/sites/partner2` },
        }),
        tokens.partner,
      );
      expect(updated.json()).toMatchObject({ locationId, name: 'Partner vault 2' });
      const config = await send(
        requestFor(endpoint('apollo.configuration.updateBackupConfig'), {
          body: { tenantId: w.tenantId, pricePerGbMonth: 0.05 },
        }),
        tokens.partner,
      );
      expect(config.json()).toMatchObject({ tenantId: w.tenantId, pricePerGbMonth: 0.05 });
      const renamed = await send(
        requestFor(endpoint('apollo.tenants.update'), {
          params: { tenantId: w.tenantId },
          body: { tenantName: w.tenantName },
        }),
        tokens.partner,
      );
      expect(renamed.json()).toMatchObject({ tenantId: w.tenantId, tenantName: w.tenantName });
      const switched = await send(
        requestFor(endpoint('apollo.configuration.switchTenant'), { body: { tenantId: w.tenantId } }),
        tokens.partner,
      );
      expect(switched.json()).toEqual({ tenantId: w.tenantId, tenantName: w.tenantName, isActive: true });
      const removed = await send(
        requestFor(endpoint('apollo.locations.delete'), { params: { tenantId: w.tenantId, locationId } }),
        tokens.partner,
      );
      expect(removed.statusCode).toBe(200);
      const log = await server.ctx.db.query<{ action: string; actor_email: string }>(
        "select action, actor_email from audit_log where organisation_id = $1 and action not like 'auth.%' and action not like 'ediscovery.%' and action <> 'fixture.world' order by seq",
        [w.organisationId],
      );
      expect(log).toEqual(
        [
          'location.create',
          'location.update',
          'config.backup.update',
          'tenant.update',
          'tenant.switch',
          'location.delete',
        ].map((action) => ({ action, actor_email: PARTNER })),
      );
    }
  });

  it('lists only the organisations, tenants and clients the caller may act for', async () => {
    const names = async (url: string, token: string) => {
      const response = await server.request({ method: 'GET', url, token });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return (response.json() as { name: string }[]).map((c) => c.name);
    };
    const tenantIds = async (token: string) => {
      const response = await server.request({ method: 'GET', url: '/apollo/api/Tenants', token });
      return (response.json() as { tenantId: string }[]).map((t) => t.tenantId).sort();
    };
    const tenantsOf = (...list: WorldName[]) => list.map((n) => worlds[n].tenantId).sort();

    expect(await tenantIds(tokens.admin)).toEqual(tenantsOf('contoso'));
    expect(await tenantIds(tokens.partner)).toEqual(tenantsOf('northwind', 'tailspin', 'woodgrove'));
    expect(await tenantIds(tokens.northwindAdmin)).toEqual(tenantsOf('northwind'));
    expect(await tenantIds(tokens.rival)).toEqual(tenantsOf('adatum'));
    expect(await tenantIds(tokens.operator)).toEqual(
      tenantsOf('contoso', 'northwind', 'tailspin', 'woodgrove', 'adatum'),
    );

    expect(await names('/api/clients', tokens.admin)).toEqual(['Contoso']);
    expect(await names('/api/clients', tokens.partner)).toEqual([
      'Northwind Traders',
      'Tailspin Toys',
      'Woodgrove Bank',
    ]);
    expect(await names('/api/clients', tokens.northwindAdmin)).toEqual(['Northwind Traders']);
    expect(await names('/api/clients', tokens.rival)).toEqual(['Adatum']);
    expect(await names('/api/client/full', tokens.admin)).toEqual(['Contoso']);
    expect(await names('/api/client/trial', tokens.admin)).toEqual([]);
    expect(await names('/api/client/trial', tokens.partner)).toEqual(['Tailspin Toys']);
    expect(await names('/api/client/trial', tokens.rival)).toEqual([]);
    expect(await names('/api/partner-clients', tokens.partner)).toEqual([
      'Northwind Traders',
      'Tailspin Toys',
      'Woodgrove Bank',
    ]);
    expect(await names('/api/partner-clients', tokens.rival)).toEqual(['Adatum']);
    const fleet = async (token: string) =>
      (
        (await server.request({ method: 'GET', url: '/api/partner-clients/fleet?sort=name', token })).json() as {
          items: { name: string }[];
        }
      ).items.map((c) => c.name);
    expect(await fleet(tokens.partner)).toEqual(['Northwind Traders', 'Tailspin Toys', 'Woodgrove Bank']);
    expect(await fleet(tokens.rival)).toEqual(['Adatum']);

    const own = async (token: string) =>
      ((await server.request({ method: 'GET', url: '/api/client', token })).json() as { name: string }).name;
    expect(await own(tokens.admin)).toBe('Contoso');
    expect(await own(tokens.partner)).toBe('Fabrikam Partners');
    expect(await own(tokens.northwindAdmin)).toBe('Northwind Traders');

    // The audit log of the caller's own organisation by default, never another's entries.
    for (const [actor, organisationId] of [
      ['admin', worlds.contoso.organisationId],
      ['northwindAdmin', worlds.northwind.organisationId],
    ] as const) {
      const log = await server.request({ method: 'GET', url: '/apollo/api/audit-log', token: tokens[actor] });
      const items = (log.json() as { items: { organisationId: string | null }[] }).items;
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((entry) => entry.organisationId === organisationId)).toBe(true);
    }
  });

  it('keeps partner routes to partners and the partner list to operators', async () => {
    const before = await snapshot(server);
    const call = (method: string, url: string, token: string, body?: unknown) =>
      server.request({ method, url, token, ...(body ? { body } : {}) });
    const newClient = () => ({
      name: 'Sneaky Client',
      abbr: `sneaky-${randomUUID().slice(0, 6)}`,
      license: 'full',
      adminEmail: `admin-${randomUUID().slice(0, 6)}@sneaky.example`,
    });
    for (const actor of ['admin', 'northwindAdmin'] as const) {
      for (const [method, url, body] of [
        ['GET', '/api/partner-clients', undefined],
        ['GET', '/api/partner-clients/fleet', undefined],
        ['POST', '/api/partner-clients', newClient()],
        ['GET', '/api/partners-list', undefined],
      ] as const) {
        const response = await call(method, url, tokens[actor], body);
        expect(response.statusCode, `${method} ${url} as ${actor}`).toBe(403);
        expect(response.json()).toEqual({ message: expect.any(String) });
      }
    }
    // Partners see their own clients but not the list of partners; operators the reverse for adding.
    expect((await call('GET', '/api/partners-list', tokens.partner)).statusCode).toBe(403);
    expect((await call('GET', '/api/partners-list', tokens.rival)).statusCode).toBe(403);
    expect((await call('POST', '/api/partner-clients', tokens.operator, newClient())).statusCode).toBe(403);
    // A customer admin gives no partner or operator role, a partner no operator role.
    for (const [actor, role] of [
      ['admin', 'partner'],
      ['admin', 'operator'],
      ['northwindAdmin', 'partner'],
      ['partner', 'operator'],
    ] as const) {
      const response = await call('POST', '/api/admin/user_create', tokens[actor], {
        email: `escalate-${randomUUID().slice(0, 6)}@contoso.example`,
        displayName: 'Escalation',
        role,
      });
      expect(response.statusCode, `${actor} creating ${role}: ${response.body}`).toBe(403);
    }
    expect(await snapshot(server)).toEqual(before);

    const partners = await call('GET', '/api/partners-list', tokens.operator);
    expect(partners.statusCode).toBe(200);
    expect(partners.json()).toEqual([
      { partnerId: expect.any(String), name: 'Fabrikam Partners', clientCount: 3 },
      { partnerId: expect.any(String), name: 'Litware Partners', clientCount: 1 },
    ]);
    const all = await call('GET', '/api/partner-clients', tokens.operator);
    expect((all.json() as { name: string }[]).map((c) => c.name)).toEqual([
      'Adatum',
      'Northwind Traders',
      'Tailspin Toys',
      'Woodgrove Bank',
    ]);
    const fleet = await call('GET', '/api/partner-clients/fleet?sort=name', tokens.operator);
    expect((fleet.json() as { items: { name: string }[] }).items.map((c) => c.name)).toEqual([
      'Adatum',
      'Northwind Traders',
      'Tailspin Toys',
      'Woodgrove Bank',
    ]);
  });

  it('refuses to connect a tenant that another organisation has connected, without touching it', async () => {
    const before = await snapshot(server);
    for (const [actor, into, taken] of [
      ['partner', 'northwind', 'contoso'],
      ['admin', 'contoso', 'northwind'],
      ['rival', 'adatum', 'woodgrove'],
    ] as const) {
      for (const tenantId of [worlds[taken].tenantId, worlds[taken].tenantId.toUpperCase()]) {
        const response = await server.request({
          method: 'POST',
          url: '/apollo/api/Tenants',
          token: tokens[actor],
          body: {
            tenantName: 'takeover.onmicrosoft.com',
            applicationId: randomUUID(),
            clientSecret: 'takeover-secret',
            tenantId,
            objectId: randomUUID(),
            redirectUri: 'https://takeover.example/auth/callback',
            organisationId: worlds[into].organisationId,
          },
        });
        expect(response.statusCode, `${actor}: ${response.body}`).toBe(409);
        expect(response.body).not.toContain(worlds[taken].tenantName);
        expect(response.body).not.toContain(worlds[taken].organisation);
      }
    }
    expect(await snapshot(server)).toEqual(before);
  });

  describe('without a signed-in user', () => {
    /** Every endpoint that needs a user, implemented or not. */
    const needsUser = () => {
      return endpoints.filter((e) => e.access !== 'public');
    };

    it('never reads or changes data with the API key alone, on any endpoint that needs a user', async () => {
      const before = await snapshot(server);
      const list = needsUser();
      expect(list.length).toBeGreaterThan(90);
      for (const e of list) {
        for (const w of [worlds.contoso, worlds.northwind]) {
          const prefixes = e.api === 'apollo' ? ['/apollo', '/apollo-beta'] : ['/api'];
          for (const prefix of prefixes) {
            const call = requestFor(e, sampleCall(e, w), prefix);
            const response = await server.request({ ...call, headers: { 'x-api-key': API_KEY } });
            expect(response.statusCode, `${call.method} ${call.url}: ${response.body}`).toBe(401);
            if (e.api === 'apollo') {
              expect(response.headers['www-authenticate']).toBe('Bearer');
              expect(response.body).toBe('');
            } else {
              expect(response.json()).toEqual({ message: 'Unauthorized' });
            }
          }
        }
      }
      expect(await snapshot(server)).toEqual(before);
    });

    it('refuses a wrong, a half-signed-in and a refresh token, and a bearer token without the API key', async () => {
      const before = await snapshot(server);
      // Half signed in: the password step only.
      const signin = await server.request({
        method: 'POST',
        url: '/api/auth/signin',
        body: { email: ADMIN, password: DEMO_PASSWORD },
      });
      const signinToken = (signin.json() as { token: string }).token;
      const [row] = await server.ctx.db.query<{ totp_secret: string }>(
        'select totp_secret from users where email = $1',
        [ADMIN],
      );
      const login = await server.request({
        method: 'POST',
        url: '/apollo/login',
        body: {
          email: ADMIN,
          password: DEMO_PASSWORD,
          twoFactorCode: codeFor(server, server.ctx.secrets.open(row?.totp_secret ?? '')),
        },
      });
      server.clock.advance(30_000);
      expect(login.statusCode, login.body).toBe(200);
      const { refreshToken } = login.json() as { refreshToken: string };
      const snapshotBeforeCalls = await snapshot(server);
      for (const e of needsUser()) {
        const access = e.access;
        const call = requestFor(e, sampleCall(e, worlds.contoso));
        const tries: [string, string | undefined, string | null | undefined][] = [
          ['a made-up token', 'not-a-token', undefined],
          ['a refresh token', refreshToken, undefined],
        ];
        if (access === 'session') tries.push(['the sign-in token', signinToken, undefined]);
        if (e.api === 'apollo') tries.push(['no API key', tokens.admin, null]);
        for (const [label, token, apiKey] of tries) {
          const response = await server.request({ ...call, ...(token ? { token } : {}), apiKey });
          expect(response.statusCode, `${call.method} ${call.url} with ${label}: ${response.body}`).toBe(401);
        }
      }
      expect(await snapshot(server)).toEqual(snapshotBeforeCalls);
      // The two sign-ins above change the users' sign-in state only.
      const { users: _usersBefore, ...restBefore } = before;
      const { users: _usersAfter, ...restAfter } = snapshotBeforeCalls;
      expect(restAfter).toEqual(restBefore);
    });
  });

  it('leaves no endpoint of the catalogue unimplemented: none answers 501', () => {
    const table = routeTable(server.ctx);
    expect(endpoints.filter((e) => table[e.id] === undefined).map((e) => e.id)).toEqual([]);
  });
});
