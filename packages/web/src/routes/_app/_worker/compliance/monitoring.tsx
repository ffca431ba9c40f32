import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="complianceMonitoring" />;
}

export const Route = createFileRoute('/_app/_worker/compliance/monitoring')({ component: Page });
