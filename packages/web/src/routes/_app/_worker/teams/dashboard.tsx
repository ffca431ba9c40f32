import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="teamsDashboard" />;
}

export const Route = createFileRoute('/_app/_worker/teams/dashboard')({ component: Page });
