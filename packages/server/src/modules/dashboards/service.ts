/**
 * Backup dashboards of OneDrive, SharePoint and Teams: figures of the last 30 days,
 * computed from the jobs, their runs and the stored backup items.
 *
 * The figures, defined once (the web's `figures` texts say the same):
 * - items protected: the files, Teams messages, SharePoint list items and site pages the store holds
 *   for an account, site or team now (live, not deleted at the source), each once however many jobs
 *   back it up; the figure is the sum of its kinds, which the answers give beside it;
 * - stored size: the bytes of the distinct contents kept for an account, site or team, every
 *   version included, each content once however many jobs back it up (the store keeps it once);
 *   an area's and the overview's stored size is the sum of their accounts', sites' and teams';
 * - items changed and bytes read are a run's own (runs.ts).
 */
import {
  DASHBOARD_PERIOD_DAYS,
  type DashboardApplication,
  type DashboardBasic,
  type DashboardDetails,
  type DashboardSize,
  type ItemsByKind,
  type JobStatus,
} from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';
import { jobStatusOf, type RunRow } from '../../jobs/repository.js';
import {
  backupStatisticsRows,
  basicRow,
  detailRows,
  type LiveKindsRow,
  lastSuccessfulBackupRow,
  sizeRows,
} from './repository.js';

const DAY = 86_400_000;

/**
 * Which kinds each workload's backup holds: OneDrive files; SharePoint files, list items and pages;
 * Teams files and messages. Its items are their sum.
 */
const KINDS: Record<DashboardApplication, readonly (keyof ItemsByKind)[]> = {
  onedrive: ['files'],
  sharepoint: ['files', 'listItems', 'pages'],
  teams: ['files', 'messages'],
};

/** Every backup kind (the overview's backup area spans the three workloads). */
export const BACKUP_KINDS = ['files', 'messages', 'listItems', 'pages'] as const;

/** Live items by kind (a liveKinds row), the kinds of `kinds` only, with their sum. */
export function itemsOfKinds(
  row: { [K in keyof LiveKindsRow]?: number | string | null } | string | null | undefined,
  kinds: readonly (keyof ItemsByKind)[],
): { items: number; itemsByKind: ItemsByKind } {
  const r: { [K in keyof LiveKindsRow]?: number | string | null } =
    typeof row === 'string' ? JSON.parse(row) : (row ?? {});
  const all: ItemsByKind = {
    files: Number(r.files ?? 0),
    messages: Number(r.messages ?? 0),
    listItems: Number(r.list_items ?? 0),
    pages: Number(r.pages ?? 0),
  };
  const itemsByKind: ItemsByKind = Object.fromEntries(kinds.map((k) => [k, all[k] ?? 0]));
  return { items: kinds.reduce((sum, k) => sum + (all[k] ?? 0), 0), itemsByKind };
}

function period(now: Date, application: DashboardApplication) {
  const to = now;
  const from = new Date(now.getTime() - DASHBOARD_PERIOD_DAYS * DAY);
  return { application, periodDays: DASHBOARD_PERIOD_DAYS, from: from.toISOString(), to: to.toISOString() };
}

export async function basicFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardBasic> {
  const range = period(now, application);
  const row = await basicRow(db, tenantId, application, new Date(range.from));
  return basicOf(range, row, KINDS[application]);
}

function basicOf(
  range: ReturnType<typeof period>,
  row: Awaited<ReturnType<typeof basicRow>>,
  kinds: readonly (keyof ItemsByKind)[],
): DashboardBasic {
  const covered = Number(row?.covered ?? 0);
  const jobsByStatus: Record<JobStatus, number> = { finished: 0, running: 0, failed: 0, pending: 0 };
  for (const [status, n] of Object.entries(row?.statuses ?? {}))
    jobsByStatus[jobStatusOf(status as RunRow['status'])] += Number(n);
  const last = row?.last;
  return {
    ...range,
    view: 'basic',
    protectedCount: covered,
    discoveredCount: Math.max(Number(row?.discovered ?? 0), covered),
    ...itemsOfKinds(row?.kinds, kinds),
    lastSuccessfulJob: last
      ? { jobId: last.job_id, jobName: last.name, finished: new Date(last.finished).toISOString() }
      : null,
    jobsByStatus,
  };
}

/**
 * Stored size and items protected per day, as they were at each day's end: the contents stored up to
 * that day (each once, see storedContents), and the items backed up by then and not yet deleted at
 * the source by then (each once, whichever jobs hold it).
 */
export async function sizeFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardSize> {
  const range = period(now, application);
  const firstDay = range.from.slice(0, 10);
  const today = now.toISOString().slice(0, 10);
  const [contents, items] = await sizeRows(db, tenantId, application, firstDay, today);
  const itemsOn = new Map(items.map((r) => [r.day, Number(r.items)]));
  const bytesOn = new Map<string, number>();
  // What was stored before the period is where its first day starts from.
  let bytes = 0;
  for (const c of contents) {
    if (c.day && c.day >= firstDay) bytesOn.set(c.day, (bytesOn.get(c.day) ?? 0) + Number(c.bytes));
    else bytes += Number(c.bytes);
  }
  const startBytes = bytes;
  const days: string[] = [];
  for (let t = new Date(range.from).getTime(); t <= now.getTime() + 1; t += DAY)
    days.push(new Date(t).toISOString().slice(0, 10));
  if (days.at(-1) !== today) days.push(today);
  const series: DashboardSize['series'] = days.map((day) => {
    bytes += bytesOn.get(day) ?? 0;
    return { date: day, bytes, items: itemsOn.get(day) ?? 0 };
  });
  // Contents a run stored with a clock ahead of today's still count as stored, on today.
  for (const [day, b] of bytesOn) if (day > today) bytes += b;
  const last = series.at(-1);
  if (last) last.bytes = bytes;
  const storedBytes = bytes;
  return { ...range, view: 'size', storedBytes, growthBytes: storedBytes - startBytes, series };
}

/** Per protected account, site or team: items, stored bytes, last backup and its outcome. */
export async function detailFigures(
  db: Queryable,
  tenantId: string,
  application: DashboardApplication,
  now: Date,
): Promise<DashboardDetails> {
  const range = period(now, application);
  // Protected sources with their names, stored items and bytes and newest run, in one query.
  const rows = await detailRows(db, tenantId, application);
  const entries = rows.map((r) => ({
    sourceId: r.source_id,
    displayName: r.display_name ?? r.source_id,
    ...itemsOfKinds(r, KINDS[application]),
    bytes: Number(r.bytes ?? 0),
    lastBackup: r.finished ? new Date(r.finished).toISOString() : null,
    lastStatus: r.status ? (r.failed ? ('failed' as const) : jobStatusOf(r.status)) : null,
  }));
  entries.sort((a, b) => b.bytes - a.bytes || a.displayName.localeCompare(b.displayName));
  return { ...range, view: 'details', entries };
}

/** The newest backup run that finished without failure, of any workload. */
export async function lastSuccessfulBackup(db: Queryable, tenantId: string) {
  const last = await lastSuccessfulBackupRow(db, tenantId);
  return last
    ? {
        jobId: last.job_id,
        jobName: last.name,
        application: last.application,
        finished: new Date(last.finished).toISOString(),
      }
    : null;
}

/**
 * Per backup workload: protected sources, live items, stored bytes (each content of a source once,
 * see storedContents) and jobs; the three workloads in one query, grouped by workload.
 */
export async function backupStatistics(db: Queryable, tenantId: string) {
  const applications = ['onedrive', 'sharepoint', 'teams'] as const;
  const rows = await backupStatisticsRows(db, tenantId, applications);
  return {
    periodDays: DASHBOARD_PERIOD_DAYS,
    perApplication: applications.map((application) => {
      const row = rows.find((r) => r.application === application);
      return {
        application,
        protectedCount: Number(row?.covered ?? 0),
        ...itemsOfKinds(row, KINDS[application]),
        bytes: Number(row?.bytes ?? 0),
        jobs: Number(row?.jobs ?? 0),
      };
    }),
  };
}
