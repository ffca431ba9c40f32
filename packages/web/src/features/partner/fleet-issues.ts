import type { FleetArea, FleetClient } from '@compliance-portal/sdk';
import type { TFunction } from 'i18next';

/** One thing a client needs its partner for, most urgent first in its client's list. */
export type FleetIssue = FleetClient['issues'][number];

/**
 * Where a client's issue is dealt with: the page a partner lands on when opening the client from the
 * fleet, with the filter that shows the problem where the page has one.
 */
export type IssueTarget =
  | {
      to: '/backup-and-restore/job-monitor' | '/archive/job-monitor' | '/teams/job-monitor';
      search: { status?: 'failed' };
      where: 'monitor';
    }
  | {
      to: '/configuration';
      search: { tab?: 'locations' | 'licence' };
      where: 'configuration' | 'locations' | 'licence';
    }
  | { to: '/'; search: Record<string, never>; where: 'dashboard' };

/** The job monitor of each area: the three backups share one, each archive has its own. */
const AREA_MONITORS = {
  oneDrive: '/backup-and-restore/job-monitor',
  sharePoint: '/backup-and-restore/job-monitor',
  teams: '/backup-and-restore/job-monitor',
  mailArchive: '/archive/job-monitor',
  teamsArchive: '/teams/job-monitor',
} as const satisfies Record<FleetArea, string>;

const DASHBOARD: IssueTarget = { to: '/', search: {}, where: 'dashboard' };

/**
 * The page of an issue: a run's failure opens its area's monitor on the failed runs; a warning, an
 * overdue or never successful backup opens the area's monitor; the tenant's connection the
 * configuration (its tenants), a missing location its locations, the licence its licence; nothing
 * (a client that is fine) the client's dashboard.
 */
export function issueTarget(issue: FleetIssue | undefined): IssueTarget {
  if (!issue) return DASHBOARD;
  switch (issue.code) {
    case 'runFailed':
    case 'runWarning':
    case 'backupOverdue':
    case 'neverBackedUp':
      // An issue of runs names its area; without one the client's dashboard shows every area.
      if (!issue.area) return DASHBOARD;
      return {
        to: AREA_MONITORS[issue.area],
        search: issue.code === 'runFailed' ? { status: 'failed' } : {},
        where: 'monitor',
      };
    case 'connectionFailed':
    case 'connectionUntested':
    case 'noTenant':
      return { to: '/configuration', search: {}, where: 'configuration' };
    case 'noLocation':
      return { to: '/configuration', search: { tab: 'locations' }, where: 'locations' };
    case 'licenseExpired':
    case 'licenseExpiring':
      return { to: '/configuration', search: { tab: 'licence' }, where: 'licence' };
  }
}

const DAY_MS = 86_400_000;

/** Whole days until an end (rounded up: an end in 30 hours is "in 2 days"); 0 once it is today or past. */
function daysUntil(iso: string | null, now: number): number | undefined {
  if (!iso) return undefined;
  const end = Date.parse(iso);
  return Number.isNaN(end) ? undefined : Math.max(0, Math.ceil((end - now) / DAY_MS));
}

/** An issue in words: "2 failed runs in OneDrive backup", "Connection test failed", "Trial ends in 5 days". */
export function issueText(
  t: TFunction,
  client: Pick<FleetClient, 'license' | 'licenseValidUntil'>,
  issue: FleetIssue,
  now: number,
): string {
  const area = issue.area ? t(`fleet:areas.${issue.area}`) : '';
  const trial = client.license === 'trial';
  switch (issue.code) {
    // Runs of no area (a restore, a clean-up) are counted without one.
    case 'runFailed':
      return area
        ? t('fleet:issues.runFailed', { count: issue.count ?? 1, area })
        : t('fleet:issues.runFailedAnywhere', { count: issue.count ?? 1 });
    case 'runWarning':
      return area
        ? t('fleet:issues.runWarning', { count: issue.count ?? 1, area })
        : t('fleet:issues.runWarningAnywhere', { count: issue.count ?? 1 });
    case 'backupOverdue':
      return t('fleet:issues.backupOverdue', { area });
    case 'neverBackedUp':
      return t('fleet:issues.neverBackedUp', { area });
    case 'connectionFailed':
      return t('fleet:issues.connectionFailed');
    case 'connectionUntested':
      return t('fleet:issues.connectionUntested');
    case 'noTenant':
      return t('fleet:issues.noTenant');
    case 'noLocation':
      return t('fleet:issues.noLocation');
    case 'licenseExpired':
      return t(trial ? 'fleet:issues.trialExpired' : 'fleet:issues.licenseExpired');
    case 'licenseExpiring': {
      // The end date says how many days are left; the server's count where it gives no date.
      const days = daysUntil(client.licenseValidUntil, now) ?? issue.count;
      if (days === undefined || days === 0) return t(trial ? 'fleet:issues.trialEndsToday' : 'fleet:issues.endsToday');
      return t(trial ? 'fleet:issues.trialExpiring' : 'fleet:issues.licenseExpiring', { count: days });
    }
  }
}
