import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../../app/guards';
import { loadQueries } from '../../../app/loaders';
import { routeRoles } from '../../../components/layout/navigation';
import { tenantsQuery } from '../../../features/configuration/api/queries';
import { ConfigurationPage } from '../../../features/configuration/configuration-page';
import { listSearchValidator } from '../../../shared/url-state';

export const Route = createFileRoute('/_app/_worker/configuration')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/configuration'] ?? []),
  // The tenant list's page and page size; the other tabs' lists keep theirs in the page.
  validateSearch: listSearchValidator(),
  // The page opens on the tenants tab. The whole list is read at once and paged in the page, so its
  // address does not change what is fetched.
  loader: ({ context }) => loadQueries(context.queryClient, [tenantsQuery(context.api)]),
  component: ConfigurationPage,
});
