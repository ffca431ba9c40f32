/**
 * The portal's pages that mails link to, as the web app's routes name them: each area's job monitor
 * (which opens a run given as `run`), the licence tab of the configuration and the notification
 * settings. A mail links to the page its reader acts on. A page of one client's carries the client
 * (`client`): a partner's reader may have another client chosen in the portal, and the portal opens
 * the page as the client the mail is about (when the reader may act for it).
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

/** A run of a client's on its area's job monitor, opened there. */
export function runLink(publicUrl: string, type: string, runId: string, clientId: string): string {
  const known = isJobType(type) ? type : 'backup';
  return `${publicUrl}${MONITORS[known]}?${new URLSearchParams({ type: known, run: runId, client: clientId })}`;
}

const AREA_TYPES: Record<ReportArea, JobType> = {
  oneDrive: 'backup',
  sharePoint: 'backup',
  teams: 'backup',
  mailArchive: 'exchangeArchive',
  teamsArchive: 'teamsArchive',
};

/** The job monitor of a weekly report's area, of a client's. */
export function areaLink(publicUrl: string, area: ReportArea, clientId: string): string {
  const type = AREA_TYPES[area];
  return `${publicUrl}${MONITORS[type]}?${new URLSearchParams({ type, client: clientId })}`;
}

/** The licence tab of a client's configuration. */
export const licenceLink = (publicUrl: string, clientId: string) =>
  `${publicUrl}/configuration?${new URLSearchParams({ tab: 'licence', client: clientId })}`;

/** A partner's clients (the partner's set-up page, which lists them). */
export const clientsLink = (publicUrl: string) => `${publicUrl}/partner-setup`;

/** The notification settings of the account. */
export const settingsLink = (publicUrl: string) => `${publicUrl}/account/settings?tab=notifications`;
