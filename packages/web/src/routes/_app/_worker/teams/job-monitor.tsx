import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="teamsJobMonitor" />;
}

export const Route = createFileRoute('/_app/_worker/teams/job-monitor')({ component: Page });
