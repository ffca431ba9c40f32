import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="backupJobMonitor" />;
}

export const Route = createFileRoute('/_app/_worker/backup-and-restore/job-monitor')({ component: Page });
