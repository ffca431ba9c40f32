/** Apollo dashboards: figures of the last 30 days per workload, data management, and the overview. */
import { bindResource, callEndpoint } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { RequestOptions, Transport } from '../../core/transport.js';
import { ItemsByKind, JobRun, JobStatus, LicenseKind } from '../common.js';

/** Dashboard figures are accumulated over the last 30 days. */
export const DASHBOARD_PERIOD_DAYS = 30;

/** How many entries the dashboards' top lists hold at most: 10 mailboxes, 10 sites without data management, 20 teams and sites to clean up. */
export const DASHBOARD_TOP = {
  /** The largest archived mailboxes (email archive dashboard). */
  mailboxes: 10,
  /** The largest sites without data management (data management dashboard). */
  sitesWithoutDataManagement: 10,
  /** The teams and sites with the most old versions to remove (data management dashboard). */
  cleanupCandidates: 20,
} as const;

/** Schema of the `{application}` path parameter of `/api/{tenantId}/dashboard/{application}/{view}`. */
export const DashboardApplication = s.oneOfStrings(['onedrive', 'sharepoint', 'teams']);
/** A workload with a backup dashboard: `onedrive`, `sharepoint` or `teams`. */
export type DashboardApplication = s.Static<typeof DashboardApplication>;
/** Schema of the `{view}` path parameter of `/api/{tenantId}/dashboard/{application}/{view}`. */
export const DashboardView = s.oneOfStrings(['basic', 'size', 'details']);
/**
 * Which figures a workload's dashboard answers: `basic` ({@link DashboardBasic}), `size` ({@link
 * DashboardSize}) or `details` ({@link DashboardDetails}).
 */
export type DashboardView = s.Static<typeof DashboardView>;

const period = {
  application: DashboardApplication,
  periodDays: s.integer({ minimum: 1, description: 'Always 30.' }),
  from: s.dateTime(),
  to: s.dateTime(),
};

const JobsByStatus = s.object({
  finished: s.integer({ minimum: 0 }),
  running: s.integer({ minimum: 0 }),
  failed: s.integer({ minimum: 0 }),
  pending: s.integer({ minimum: 0 }),
});

const LastSuccessfulJob = s.nullable(s.object({ jobId: s.string(), jobName: s.string(), finished: s.dateTime() }));

/** Protected accounts, sites or teams, items, last successful job and jobs by status. */
export const DashboardBasic = s.object({
  ...period,
  view: s.literal('basic'),
  protectedCount: s.integer({ minimum: 0, description: 'Accounts, sites or teams with a backup.' }),
  discoveredCount: s.integer({ minimum: 0, description: 'Accounts, sites or teams in the tenant.' }),
  items: s.integer({
    minimum: 0,
    description:
      'Items protected: the files, messages, list items and pages the store holds now, each once however many jobs back it up; the sum of `itemsByKind`.',
  }),
  itemsByKind: s.optional(ItemsByKind),
  lastSuccessfulJob: LastSuccessfulJob,
  jobsByStatus: JobsByStatus,
});
export type DashboardBasic = s.Static<typeof DashboardBasic>;

/** Stored size, its growth over the period, and a point per day. */
export const DashboardSize = s.object({
  ...period,
  view: s.literal('size'),
  storedBytes: s.integer({ minimum: 0 }),
  growthBytes: s.integer(),
  series: s.array(
    s.object({
      date: s.date(),
      bytes: s.integer({ minimum: 0 }),
      items: s.integer({ minimum: 0, description: 'Items protected at the end of the day, every kind.' }),
    }),
  ),
});
export type DashboardSize = s.Static<typeof DashboardSize>;

/** Per account, site or team: items, size and last backup. */
export const DashboardDetails = s.object({
  ...period,
  view: s.literal('details'),
  entries: s.array(
    s.object({
      sourceId: s.string(),
      displayName: s.string(),
      items: s.integer({ minimum: 0, description: 'Items protected, every kind: the sum of `itemsByKind`.' }),
      itemsByKind: s.optional(ItemsByKind),
      bytes: s.integer({ minimum: 0 }),
      lastBackup: s.nullable(s.dateTime()),
      lastStatus: s.nullable(JobStatus),
    }),
  ),
});
export type DashboardDetails = s.Static<typeof DashboardDetails>;

/** The answer type of each dashboard view. */
export interface DashboardViews {
  basic: DashboardBasic;
  size: DashboardSize;
  details: DashboardDetails;
}

/** Schema of the answer of `GET /api/{tenantId}/dashboard/sharepoint-data-management`. */
export const DataManagementDashboard = s.object({
  periodDays: s.integer({ minimum: 1 }),
  from: s.dateTime(),
  to: s.dateTime(),
  storageUsedBytes: s.integer({ minimum: 0 }),
  storageSavedBytes: s.integer({ minimum: 0 }),
  pricePerGbMonth: s.number({ minimum: 0, description: 'Price per GB per month, set by an administrator.' }),
  currency: s.string({ minLength: 3, maxLength: 3 }),
  monthlySaving: s.number({ minimum: 0, description: 'storageSavedBytes in GB times pricePerGbMonth.' }),
  series: s.array(s.object({ date: s.date(), usedBytes: s.integer(), savedBytes: s.integer() })),
  topSitesWithoutDataManagement: s.array(
    s.object({ siteId: s.string(), displayName: s.string(), bytes: s.integer({ minimum: 0 }) }),
    { maxItems: DASHBOARD_TOP.sitesWithoutDataManagement },
  ),
  topCleanupCandidates: s.array(
    s.object({
      sourceId: s.string(),
      kind: s.oneOfStrings(
        ['site', 'team'],
        "`team`: a team's own SharePoint site, named after the team; `site`: any other site.",
      ),
      displayName: s.string(),
      eligibleVersions: s.integer({ minimum: 0 }),
      reclaimableBytes: s.integer({ minimum: 0 }),
      covered: s.optional(s.boolean('A version clean-up job includes the site (its rule may keep these versions).')),
    }),
    { maxItems: DASHBOARD_TOP.cleanupCandidates },
  ),
  coverage: s.optional(
    s.object({
      sites: s.integer({ minimum: 0, description: 'Sites and team sites the storage analysis read.' }),
      covered: s.integer({ minimum: 0, description: 'Of them, those a version clean-up job includes.' }),
      withOldVersions: s.integer({ minimum: 0, description: 'Sites and team sites with old versions.' }),
      coveredWithOldVersions: s.integer({
        minimum: 0,
        description:
          'Of them, those a version clean-up job includes: its rule keeps their old versions, or it has not run since.',
      }),
    }),
  ),
});
/**
 * The data-management dashboard over the last 30 days: storage used and saved by version clean-up (in
 * bytes, with a point per day), the monthly saving at the tenant's price per GB and month (in
 * `currency`), the 10 largest sites without data management and the 20 teams and sites with the most old
 * versions to remove (a team's site named after the team), each saying whether a clean-up job
 * includes it, and how many of all sites clean-up jobs include (`coverage`).
 */
export type DataManagementDashboard = s.Static<typeof DataManagementDashboard>;

const AreaSummary = s.object({
  lastJob: s.nullable(JobRun),
  failedRuns: s.integer({ minimum: 0, description: 'Failed runs in the period.' }),
  protectedCount: s.integer({
    minimum: 0,
    description: 'Accounts, sites, teams, mailboxes or chats the area protects.',
  }),
  items: s.optional(
    s.integer({
      minimum: 0,
      description:
        'Items the area protects (backup: the files, messages, list items and pages its store holds now; mail archive: the mails, events, contacts and tasks archived); the sum of `itemsByKind`. Absent for the Teams archive.',
    }),
  ),
  itemsByKind: s.optional(ItemsByKind),
  bytes: s.integer({
    minimum: 0,
    description:
      'Stored size: the bytes the store keeps for the area, each content of an account, site or team once however many jobs cover it.',
  }),
});

/** Schema of the answer of `GET /api/{tenantId}/dashboard/overview`. */
export const OverviewDashboard = s.object({
  periodDays: s.integer({ minimum: 1 }),
  backup: AreaSummary,
  emailArchive: AreaSummary,
  teamsArchive: AreaSummary,
  dataManagement: s.object({
    savedBytes: s.integer({ minimum: 0 }),
    monthlySaving: s.number({ minimum: 0 }),
    currency: s.optional(s.string({ minLength: 3, maxLength: 3 })),
  }),
  license: s.object({
    kind: LicenseKind,
    backupJobsLeft: s.record(s.integer({ minimum: 0 }), 'Per application, trial only.'),
    restoresLeft: s.record(s.integer({ minimum: 0 }), 'Per application, trial only.'),
  }),
  recentFailures: s.array(JobRun, { maxItems: 10 }),
});
/**
 * The homepage overview over the last 30 days: per area (backup, email archive, Teams archive) the last
 * job run, the failed runs, what is protected (how many accounts and, for the backup and the mail
 * archive, items by kind) and its size in bytes; the data-management saving; the
 * licence with, on trial, the backup jobs and restores left per application (empty maps on a full
 * licence); and the 10 most recent failed runs.
 */
export type OverviewDashboard = s.Static<typeof OverviewDashboard>;

/**
 * The catalogue entries of the apollo dashboards: one workload's figures, the data-management dashboard
 * and the overview, all under `/api/{tenantId}/dashboard/`. {@link dashboardsApi} binds them.
 */
export const dashboardsEndpoints = defineResource('apollo', 'dashboards', {
  application: {
    method: 'GET',
    path: '/api/{tenantId}/dashboard/{application}/{view}',
    scope: { tenant: 'path' },
    summary: 'Figures of one workload: basic, size or details',
    params: s.object({ tenantId: s.string(), application: DashboardApplication, view: DashboardView }),
    response: s.union([DashboardBasic, DashboardSize, DashboardDetails]),
  },
  /** Storage used and saved, and clean-up candidates: {@link DataManagementDashboard}. */
  sharepointDataManagement: {
    method: 'GET',
    path: '/api/{tenantId}/dashboard/sharepoint-data-management',
    scope: { tenant: 'path' },
    summary: 'Storage used and saved, clean-up candidates',
    response: DataManagementDashboard,
  },
  /** The state of every area: {@link OverviewDashboard}. */
  overview: {
    method: 'GET',
    path: '/api/{tenantId}/dashboard/overview',
    scope: { tenant: 'path' },
    summary: 'The state of every area',
    response: OverviewDashboard,
  },
});

/**
 * Binds the apollo dashboards to a transport: `application` (one workload's figures, typed by the view
 * asked for), `sharepointDataManagement` and `overview`, each for one tenant. The same methods as
 * `client.apollo.dashboards`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function dashboardsApi(transport: Transport) {
  return {
    ...bindResource(transport, dashboardsEndpoints),
    /** One method for the whole `/dashboard/{onedrive|sharepoint|teams}/{basic|size|details}` family. */
    application<V extends DashboardView>(
      args: { tenantId: string; application: DashboardApplication; view: V },
      options?: RequestOptions,
    ): Promise<DashboardViews[V]> {
      return callEndpoint(transport, dashboardsEndpoints.application, args, options) as Promise<DashboardViews[V]>;
    },
  };
}
