import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../../app/guards';
import { routeRoles } from '../../../components/layout/navigation';
import { FeaturePage } from '../../../components/ui/feature-page';

function Page() {
  return <FeaturePage page="configuration" />;
}

export const Route = createFileRoute('/_app/_worker/configuration')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/configuration'] ?? []),
  component: Page,
});
