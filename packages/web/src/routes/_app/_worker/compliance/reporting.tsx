import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="complianceReporting" />;
}

export const Route = createFileRoute('/_app/_worker/compliance/reporting')({ component: Page });
