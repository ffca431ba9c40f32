import { createFileRoute } from '@tanstack/react-router';
import { BackupReportsPage } from '../../../../features/backup/run-pages';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/reports')({ component: BackupReportsPage });
