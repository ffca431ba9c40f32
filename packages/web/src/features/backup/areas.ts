import { RUN_AREA_TYPES } from '../../shared/jobs/areas';

/** The workloads of the backup area. */
export const BACKUP_APPLICATIONS = ['onedrive', 'sharepoint', 'teams'] as const;
export type BackupApplication = (typeof BACKUP_APPLICATIONS)[number];

/** The run types the backup area's monitor and reports show. */
export const AREA_TYPES = RUN_AREA_TYPES.backup;
