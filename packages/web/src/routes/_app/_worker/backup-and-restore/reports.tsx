import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="backupReports" />;
}

export const Route = createFileRoute('/_app/_worker/backup-and-restore/reports')({ component: Page });
