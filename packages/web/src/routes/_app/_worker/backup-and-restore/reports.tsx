import { createFileRoute } from '@tanstack/react-router';
import { BackupReportsPage } from '../../../../features/backup/reports-page';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/reports')({ component: BackupReportsPage });
