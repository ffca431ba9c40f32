/**
 * The portal's pages that mails link to, as the web app's routes name them: each area's job monitor
 * (which opens a run given as `run`), the licence tab of the configuration and the notification
 * settings. A mail links to the page its reader acts on.
 */
import type { JobType } from '@compliance-portal/sdk';
import type { ReportArea } from './templates.js';

const MONITORS: Record<JobType, string> = {
  backup: '/backup-and-restore/job-monitor',
  restore: '/backup-and-restore/job-monitor',
  exchangeArchive: '/archive/job-monitor',
  archiveDeletion: '/archive/job-monitor',
  teamsArchive: '/teams/job-monitor',
  versionCleanup: '/compliance/monitoring',
};

const isJobType = (type: string): type is JobType => Object.hasOwn(MONITORS, type);

/** A run on its area's job monitor, opened there. */
export function runLink(publicUrl: string, type: string, runId: string): string {
  const known = isJobType(type) ? type : 'backup';
  return `${publicUrl}${MONITORS[known]}?${new URLSearchParams({ type: known, run: runId })}`;
}

const AREA_TYPES: Record<ReportArea, JobType> = {
  oneDrive: 'backup',
  sharePoint: 'backup',
  teams: 'backup',
  mailArchive: 'exchangeArchive',
  teamsArchive: 'teamsArchive',
};

/** The job monitor of a weekly report's area. */
export function areaLink(publicUrl: string, area: ReportArea): string {
  const type = AREA_TYPES[area];
  return `${publicUrl}${MONITORS[type]}?type=${type}`;
}

/** The licence tab of the configuration. */
export const licenceLink = (publicUrl: string) => `${publicUrl}/configuration?tab=licence`;

/** A partner's clients (the partner's set-up page, which lists them). */
export const clientsLink = (publicUrl: string) => `${publicUrl}/partner-setup`;

/** The notification settings of the account. */
export const settingsLink = (publicUrl: string) => `${publicUrl}/account/settings?tab=notifications`;
