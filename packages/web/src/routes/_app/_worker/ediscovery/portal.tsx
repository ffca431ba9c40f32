import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="ediscovery" />;
}

export const Route = createFileRoute('/_app/_worker/ediscovery/portal')({ component: Page });
