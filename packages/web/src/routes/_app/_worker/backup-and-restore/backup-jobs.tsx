import { createFileRoute } from '@tanstack/react-router';
import { BackupJobsPage } from '../../../../features/backup/jobs-page';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/backup-jobs')({ component: BackupJobsPage });
