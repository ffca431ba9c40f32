import type { JobType } from '@compliance-portal/sdk';

/** The workloads of the backup area. */
export const BACKUP_APPLICATIONS = ['onedrive', 'sharepoint', 'teams'] as const;
export type BackupApplication = (typeof BACKUP_APPLICATIONS)[number];

/** The run types the backup area's monitor and reports show. */
export const AREA_TYPES = ['backup', 'restore'] as const satisfies readonly [JobType, ...JobType[]];
