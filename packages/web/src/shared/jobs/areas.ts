import type { JobType } from '@compliance-portal/sdk';

/**
 * The job types of each area of the portal, the first the one its monitor and reports show at first.
 * The routes check a list's `type` in the address against these.
 */
export const RUN_AREA_TYPES = {
  backup: ['backup', 'restore'],
  emailArchive: ['exchangeArchive', 'archiveDeletion'],
  teamsArchive: ['teamsArchive'],
  dataManagement: ['versionCleanup'],
} as const satisfies Record<string, readonly [JobType, ...JobType[]]>;

export type RunAreaName = keyof typeof RUN_AREA_TYPES;

/** Each area's monitor, where a run of its jobs is shown (the jobs lists link a started run there). */
const RUN_AREA_MONITORS = {
  backup: '/backup-and-restore/job-monitor',
  emailArchive: '/archive/job-monitor',
  teamsArchive: '/teams/job-monitor',
  dataManagement: '/compliance/monitoring',
} as const satisfies Record<RunAreaName, string>;

/** The monitor that shows a job type's runs. */
export function monitorOf(type: JobType) {
  const area = (Object.keys(RUN_AREA_TYPES) as RunAreaName[]).find((a) =>
    (RUN_AREA_TYPES[a] as readonly JobType[]).includes(type),
  );
  return RUN_AREA_MONITORS[area ?? 'backup'];
}
