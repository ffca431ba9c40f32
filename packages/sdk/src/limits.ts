/** Product-spec.md sections 6 and 9: what a trial licence allows. A full licence has no such limits. */
export const TRIAL_LIMITS = {
  backupJobsPerApplication: 1,
  sourcesPerBackup: 10,
  restoresPerApplication: 10,
  canDeleteBackupJobs: false,
} as const;
