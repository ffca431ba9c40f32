import { createFileRoute } from '@tanstack/react-router';
import { FeaturePage } from '../../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="mailboxes" />;
}

export const Route = createFileRoute('/_app/_worker/archive/mailboxes')({ component: Page });
