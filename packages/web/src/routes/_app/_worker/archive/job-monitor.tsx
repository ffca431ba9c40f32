import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="archiveJobMonitor" />;
}

export const Route = createFileRoute('/_app/_worker/archive/job-monitor')({ component: Page });
