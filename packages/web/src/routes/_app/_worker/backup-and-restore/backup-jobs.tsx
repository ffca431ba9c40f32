import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="backupJobs" />;
}

export const Route = createFileRoute('/_app/_worker/backup-and-restore/backup-jobs')({ component: Page });
