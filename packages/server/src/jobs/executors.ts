import type { JobType } from '@compliance-portal/sdk';
import { archiveDeletionExecutor, exchangeArchiveExecutor, teamsArchiveExecutor } from './executors/archive.js';
import { backupExecutor } from './executors/backup.js';
import type { DataPlane } from './executors/plane.js';
import { restoreExecutor } from './executors/restore.js';
import { versionCleanupExecutor } from './executors/version-cleanup.js';
import type { Executor } from './run-context.js';

/** The executor of each job type, over one data plane (a tenant's Graph, the blob store, the archive). */
export function executors(plane: DataPlane): Record<JobType, Executor> {
  return {
    backup: backupExecutor(plane),
    restore: restoreExecutor(plane),
    exchangeArchive: exchangeArchiveExecutor(plane),
    teamsArchive: teamsArchiveExecutor(plane),
    archiveDeletion: archiveDeletionExecutor(plane),
    versionCleanup: versionCleanupExecutor(plane),
  };
}
