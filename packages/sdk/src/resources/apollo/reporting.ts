/** Apollo reporting: one report per finished run, for every job area and for data management. */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import {
  Application,
  ItemsByKind,
  JobStatus,
  JobType,
  listQueryProperties,
  page,
  RunAccount,
  RunAccountsQuery,
} from '../common.js';

/** Schema of a report's totals. */
export const ReportTotals = s.object({
  accounts: s.integer({ minimum: 0 }),
  items: s.integer({ minimum: 0, description: 'The mails (mail archive) or files the run processed, as before.' }),
  bytes: s.integer({ minimum: 0 }),
  failures: s.integer({ minimum: 0 }),
  itemsByKind: s.optional(ItemsByKind),
});
/**
 * What one run covered: accounts (or sites, teams, mailboxes), items, bytes, and failures; for an
 * Exchange archive or SharePoint backup run also its items by kind (`itemsByKind`: `items` is its mails
 * or files, the other kinds come beside them and the run processed their sum).
 */
export type ReportTotals = s.Static<typeof ReportTotals>;

/** The report of one run. */
export const Report = s.object({
  reportId: s.string(),
  title: s.string({ description: 'Used as the export file and sheet name.' }),
  jobId: s.string(),
  jobName: s.string(),
  jobType: JobType,
  application: Application,
  status: JobStatus,
  started: s.nullable(s.dateTime()),
  finished: s.nullable(s.dateTime()),
  totals: ReportTotals,
});
export type Report = s.Static<typeof Report>;

/** One file's clean-up inside a data-management report. */
export const DataManagementAccount = s.object({
  accountId: s.string({ description: 'The site or team.' }),
  displayName: s.string(),
  status: JobStatus,
  files: s.integer({ minimum: 0 }),
  versionsRemoved: s.integer({ minimum: 0 }),
  bytesFreed: s.integer({ minimum: 0 }),
  errors: s.array(s.string()),
});
export type DataManagementAccount = s.Static<typeof DataManagementAccount>;

/** Schema of one item an archive deletion run kept because a case held it. */
export const HeldItem = s.object({
  itemId: s.string(),
  kind: s.oneOfStrings(['mail', 'teams']),
  chat: s.optional(s.boolean('A Teams chat message: source is the chat.')),
  source: s.string({ description: 'The mailbox, team or chat.' }),
  sourceName: s.string(),
  subject: s.nullable(
    s.string({ description: 'Null when the caller may not read the item (a mailbox without a proxy right).' }),
  ),
  sentAt: s.nullable(s.dateTime()),
  caseId: s.string(),
  caseName: s.string({ description: 'The case as it was named when the run kept the item.' }),
});
/**
 * An archived item an archive deletion run kept although it was past the retention, because an
 * eDiscovery case held it: the item (`itemId`, mail or Teams message, its mailbox, team or chat, its
 * subject and time sent) and the case. An item two cases hold is listed once per case. The subject is
 * shown as eDiscovery shows it: null for mail of a mailbox (or a chat) the caller may not read.
 */
export type HeldItem = s.Static<typeof HeldItem>;

/** Schema of the query of `GET /api/{tenantId}/reporting/{reportId}/held-items`. */
export const HeldItemsQuery = s.object({
  ...listQueryProperties,
  sort: s.optional(s.oneOfStrings(['subject', 'sourceName', 'sentAt', 'caseName'])),
});
/**
 * Which items of a deletion report's legal holds to list: paging, the order (by `subject`,
 * `sourceName`, `sentAt` or `caseName`; by time sent by default) and a search in the subject (where
 * the caller may read it), mailbox, team or chat, and case.
 */
export type HeldItemsQuery = s.Static<typeof HeldItemsQuery>;

/** Schema of the query of `GET /api/{tenantId}/reporting` and of the data-management reports. */
export const ReportQuery = s.object({
  ...listQueryProperties,
  type: s.optional(JobType),
  types: s.optional(s.array(JobType, { uniqueItems: true, description: 'Any of these types (an area).' })),
  application: s.optional(Application),
  status: s.optional(JobStatus),
  from: s.optional(s.dateTime('Reports of runs started at or after.')),
  to: s.optional(
    s.dateTime('Reports of runs started before. Not before `from`: a range given backwards is refused with 400.'),
  ),
});
/**
 * Which reports to list: paging, sorting and search, filtered by one job type or several (`types`, for
 * an area), workload, status, and when the run started (`from` inclusive, `to` exclusive).
 */
export type ReportQuery = s.Static<typeof ReportQuery>;

/** The accounts of a report: the same query as a run's in the monitor. */
export const ReportAccountsQuery = RunAccountsQuery;
export type ReportAccountsQuery = RunAccountsQuery;

/**
 * The catalogue entries of apollo reporting: reports of job runs and their accounts (and an archive
 * deletion's items kept by legal hold), and reports of version clean-up runs and their sites and teams,
 * under `/api/{tenantId}/reporting`. {@link
 * reportingApi} binds them.
 */
export const reportingEndpoints = defineResource('apollo', 'reporting', {
  list: {
    method: 'GET',
    path: '/api/{tenantId}/reporting',
    scope: { tenant: 'path' },
    summary: 'Reports of job runs',
    query: ReportQuery,
    response: page(Report),
  },
  accounts: {
    method: 'GET',
    path: '/api/{tenantId}/reporting/{reportId}/accounts',
    scope: { tenant: 'path' },
    summary: "A report's accounts",
    query: ReportAccountsQuery,
    response: page(RunAccount),
  },
  dataManagementReports: {
    method: 'GET',
    path: '/api/{tenantId}/reporting/data-management-reports',
    scope: { tenant: 'path' },
    summary: 'Reports of version clean-up runs',
    query: ReportQuery,
    response: page(Report),
  },
  dataManagementAccounts: {
    method: 'GET',
    path: '/api/{tenantId}/reporting/{reportId}/data-management-accounts',
    scope: { tenant: 'path' },
    summary: "A clean-up report's sites and teams",
    query: ReportAccountsQuery,
    response: page(DataManagementAccount),
  },
  heldItems: {
    method: 'GET',
    path: '/api/{tenantId}/reporting/{reportId}/held-items',
    scope: { tenant: 'path' },
    summary: 'The items an archive deletion run kept because a case on legal hold held them',
    query: HeldItemsQuery,
    response: page(HeldItem),
  },
});

/**
 * Binds apollo reporting to a transport: one report per finished run, for every job area and for data
 * management, each with its accounts, all paged lists with `.pages()` and `.items()`. The same methods
 * as `client.apollo.reporting`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function reportingApi(transport: Transport) {
  return bindResource(transport, reportingEndpoints);
}
