import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../app/guards';
import { routeRoles } from '../../components/layout/navigation';
import { PartnerSetupPage } from '../../features/partner/partner-setup-page';

export const Route = createFileRoute('/_app/partner-setup')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/partner-setup'] ?? []),
  component: PartnerSetupPage,
});
