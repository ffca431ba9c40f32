import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../../app/guards';
import { routeRoles } from '../../../components/layout/navigation';
import { ConfigurationPage } from '../../../features/configuration/configuration-page';

export const Route = createFileRoute('/_app/_worker/configuration')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/configuration'] ?? []),
  component: ConfigurationPage,
});
