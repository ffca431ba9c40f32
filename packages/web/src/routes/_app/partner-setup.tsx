import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../app/guards';
import { loadQueries } from '../../app/loaders';
import { routeRoles } from '../../components/layout/navigation';
import { clientsQuery } from '../../features/partner/api/queries';
import { PartnerSetupPage } from '../../features/partner/partner-setup-page';
import { listSearchValidator } from '../../shared/url-state';

export const Route = createFileRoute('/_app/partner-setup')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/partner-setup'] ?? []),
  // The client list's page, page size, sort and search.
  validateSearch: listSearchValidator(),
  // Every client is read at once and sorted, searched and paged in the page: the address does not
  // change what is fetched.
  loader: ({ context }) => loadQueries(context.queryClient, [clientsQuery(context.api)]),
  component: PartnerSetupPage,
});
