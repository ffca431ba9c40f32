import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../app/guards';
import { loadQueries } from '../../app/loaders';
import { routeRoles } from '../../components/layout/navigation';
import { clientsQuery, fleetQuery } from '../../features/partner/api/queries';
import { FleetPage } from '../../features/partner/fleet-page';
import { fleetQueryOf, fleetSearch } from '../../features/partner/fleet-search';

export const Route = createFileRoute('/_app/partner-setup')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/partner-setup'] ?? []),
  // The fleet's page, page size, sort, search and filters: the server pages, sorts and filters it.
  validateSearch: fleetSearch,
  loaderDeps: ({ search }) => fleetQueryOf(search),
  // The clients (whose workers "Work as" stores) beside the fleet's page.
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, [fleetQuery(context.api, deps), clientsQuery(context.api)]),
  component: FleetPage,
});
