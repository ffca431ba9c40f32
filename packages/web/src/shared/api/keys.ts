import type { Application } from '@compliance-portal/sdk';

/**
 * The roots of every query key. A key is a path from its scope to what it reads, so that one
 * invalidation of a prefix reaches everything under it (all of a tenant's jobs, all its reports).
 * Each feature builds its own keys on these roots in `features/<area>/api/keys.ts`; no key is written
 * as a literal anywhere else.
 */
export const scopeKeys = {
  /** Everything read for one Microsoft 365 tenant. */
  tenant: (tenantId: string) => ['tenant', tenantId] as const,
  /** Everything read from one organisation's archive worker (legacy endpoints). */
  worker: (workerIp: string) => ['worker', workerIp] as const,
  /** Everything read for one organisation (licence, documents, audit). */
  organisation: (organisationId: string) => ['organisation', organisationId] as const,
  /** The signed-in user's tenants. */
  tenants: () => ['tenants'] as const,
  /** The legacy endpoints not bound to a worker (the partner's clients, notifications). */
  legacy: () => ['legacy'] as const,
};

/**
 * Keys of what several features read or change: locations, discovery, jobs, runs and reports of a
 * tenant; and the archive's reads that count what eDiscovery's legal holds keep.
 */
export const sharedKeys = {
  locations: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'locations'] as const,
  discovery: (tenantId: string, locationId: string, application: Application) =>
    [...scopeKeys.tenant(tenantId), 'discovery', locationId, application] as const,
  discoveryPage: (tenantId: string, locationId: string, application: Application, query: object) =>
    [...sharedKeys.discovery(tenantId, locationId, application), query] as const,
  /** Every account, site or team of an application, as names for labels. */
  sourceNames: (tenantId: string, locationId: string, application: Application) =>
    [...sharedKeys.discovery(tenantId, locationId, application), 'names'] as const,
  jobs: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'jobs'] as const,
  jobList: (tenantId: string, query: object) => [...sharedKeys.jobs(tenantId), query] as const,
  runs: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'monitoring'] as const,
  runList: (tenantId: string, query: object) => [...sharedKeys.runs(tenantId), query] as const,
  reports: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'reporting'] as const,
  reportList: (tenantId: string, query: object) => [...sharedKeys.reports(tenantId), query] as const,
  report: (tenantId: string, reportId: string) => [...sharedKeys.reports(tenantId), reportId] as const,
  dashboards: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'dashboard'] as const,
  licence: (organisationId: string) => [...scopeKeys.organisation(organisationId), 'licence'] as const,
  /** An organisation's audit log, its pages and its chain check: every audited change adds to it. */
  auditLog: (organisationId: string) => [...scopeKeys.organisation(organisationId), 'audit-log'] as const,
  tenants: () => scopeKeys.tenants(),
  clients: () => [...scopeKeys.legacy(), 'clients'] as const,
  /** The archived mailboxes' pages, each mailbox with the items legal holds keep of it. */
  mailboxes: (workerIp: string) => [...scopeKeys.worker(workerIp), 'mailboxes'] as const,
  mailboxList: (workerIp: string, query: object) => [...sharedKeys.mailboxes(workerIp), query] as const,
  /** The largest archived mailboxes (the archive's dashboard), with what holds keep of each. */
  mailboxesTop: (workerIp: string) => [...scopeKeys.worker(workerIp), 'mailboxes-top'] as const,
  /** The Teams archive's figures (its dashboard), the messages holds keep among them. */
  teamsStatistics: (workerIp: string) => [...scopeKeys.worker(workerIp), 'teams-statistics'] as const,
  /** The archived teams, channels and readable chats, with the messages holds keep of each. */
  teamsArchive: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'teams-archive'] as const,
  /** What archive deletion jobs would remove now, and what holds keep of it. */
  deletionPreviews: (tenantId: string) => [...scopeKeys.tenant(tenantId), 'deletion-preview'] as const,
  deletionPreview: (tenantId: string, request: object) => [...sharedKeys.deletionPreviews(tenantId), request] as const,
  /**
   * Every read whose answer counts what legal holds keep, beside the cases themselves: the archive
   * builds these keys, eDiscovery places and releases the holds, and a hold placed or released reads
   * each of them again. A new read that counts held items builds its key on one of
   * these, or is added here.
   */
  heldCounts: (tenantId: string, workerIp: string) =>
    [
      sharedKeys.mailboxes(workerIp),
      sharedKeys.mailboxesTop(workerIp),
      sharedKeys.teamsStatistics(workerIp),
      sharedKeys.teamsArchive(tenantId),
      sharedKeys.deletionPreviews(tenantId),
    ] as const,
};
