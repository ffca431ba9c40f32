import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="archiveReports" />;
}

export const Route = createFileRoute('/_app/_worker/archive/reports')({ component: Page });
