import { createFileRoute } from '@tanstack/react-router';
import { BackupMonitorPage } from '../../../../features/backup/run-pages';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/job-monitor')({ component: BackupMonitorPage });
