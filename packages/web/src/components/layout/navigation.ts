import type { KeyUnder } from '../../i18n/keys';

/** A label of the navigation: a key of the `nav` namespace. */
type NavLabel = KeyUnder<'nav:'>;

/** The main navigation: every area of the main layout, in the order of the menu. */
interface NavItem {
  to: string;
  label: NavLabel;
}
export interface NavGroup {
  label: NavLabel;
  items: NavItem[];
  /** Shown only to these roles. */
  roles?: readonly string[];
}

export const navigation: NavGroup[] = [
  {
    label: 'nav:overview',
    items: [
      { to: '/', label: 'nav:overview' },
      { to: '/reports', label: 'nav:reports' },
      { to: '/documents', label: 'nav:documents' },
    ],
  },
  {
    label: 'nav:backupAndRestore',
    items: [
      { to: '/backup-and-restore/dashboard', label: 'nav:backupDashboard' },
      { to: '/backup-and-restore/backup-jobs', label: 'nav:backupJobs' },
      { to: '/backup-and-restore/restore', label: 'nav:restore' },
      { to: '/backup-and-restore/job-monitor', label: 'nav:backupJobMonitor' },
      { to: '/backup-and-restore/reports', label: 'nav:backupReports' },
    ],
  },
  {
    label: 'nav:dataManagement',
    items: [
      { to: '/compliance/dashboard', label: 'nav:complianceDashboard' },
      { to: '/compliance', label: 'nav:fileManager' },
      { to: '/compliance/jobs', label: 'nav:cleanupJobs' },
      { to: '/compliance/monitoring', label: 'nav:complianceMonitoring' },
      { to: '/compliance/reporting', label: 'nav:complianceReporting' },
    ],
  },
  {
    label: 'nav:emailArchive',
    items: [
      { to: '/archive/dashboard', label: 'nav:archiveDashboard' },
      { to: '/archive/mailboxes', label: 'nav:mailboxes' },
      { to: '/archive/jobs', label: 'nav:archiveJobs' },
      { to: '/archive/deletion-jobs', label: 'nav:deletionJobs' },
      { to: '/archive/job-monitor', label: 'nav:archiveJobMonitor' },
      { to: '/archive/reports', label: 'nav:archiveReports' },
      { to: '/archive/proxy-rights', label: 'nav:proxyRights' },
    ],
  },
  {
    label: 'nav:teamsArchive',
    items: [
      { to: '/teams/dashboard', label: 'nav:teamsDashboard' },
      { to: '/teams/archive', label: 'nav:teamsMessages' },
      { to: '/teams/jobs', label: 'nav:teamsJobs' },
      { to: '/teams/job-monitor', label: 'nav:teamsJobMonitor' },
      { to: '/teams/reporting', label: 'nav:teamsReporting' },
    ],
  },
  { label: 'nav:ediscovery', items: [{ to: '/ediscovery/portal', label: 'nav:ediscovery' }] },
  {
    label: 'nav:administration',
    items: [
      { to: '/configuration', label: 'nav:configuration' },
      { to: '/partner-setup', label: 'nav:partnerSetup' },
    ],
  },
  {
    label: 'nav:account',
    items: [
      { to: '/account/settings', label: 'nav:settings' },
      { to: '/account/support', label: 'nav:support' },
      { to: '/account/imprint', label: 'nav:imprint' },
      { to: '/helpcenter', label: 'nav:helpcenter' },
    ],
  },
];

/** Which roles reach a guarded route (/configuration for administrators, /partner-setup for partners). */
export const routeRoles: Record<string, readonly string[]> = {
  '/configuration': ['admin', 'partner', 'operator'],
  '/configuration/audit-log': ['admin', 'partner', 'operator'],
  '/partner-setup': ['partner', 'operator'],
};

export function visibleFor(role: string | undefined, to: string): boolean {
  const roles = routeRoles[to];
  return !roles || (role !== undefined && roles.includes(role));
}
