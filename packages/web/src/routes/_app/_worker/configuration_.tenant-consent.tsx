import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../../app/guards';
import { routeRoles } from '../../../components/layout/navigation';
import { TenantConsentPage } from '../../../features/configuration/tenant-consent-page';
import { validateConsentSearch } from '../../../features/configuration/tenant-consent-search';

/** Where Microsoft's admin consent endpoint answers (the redirect URI app registrations list). */
export const Route = createFileRoute('/_app/_worker/configuration_/tenant-consent')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/configuration'] ?? []),
  validateSearch: validateConsentSearch,
  component: TenantConsentPage,
});
