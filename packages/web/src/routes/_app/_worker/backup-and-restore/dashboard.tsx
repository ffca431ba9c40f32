import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="backupDashboard" />;
}

export const Route = createFileRoute('/_app/_worker/backup-and-restore/dashboard')({ component: Page });
