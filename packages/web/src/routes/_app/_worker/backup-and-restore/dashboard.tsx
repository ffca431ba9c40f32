import { createFileRoute } from '@tanstack/react-router';
import { BackupDashboardPage } from '../../../../features/backup/dashboard-page';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/dashboard')({ component: BackupDashboardPage });
