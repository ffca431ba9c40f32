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
