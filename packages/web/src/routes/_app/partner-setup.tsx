import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../app/guards';
import { loadQueries } from '../../app/loaders';
import { routeRoles } from '../../components/layout/navigation';
import { clientsQuery, fleetQuery } from '../../features/partner/api/queries';
import { fleetQueryOf, nextFleetSearch } from '../../features/partner/fleet-list';
import { FleetPage } from '../../features/partner/fleet-page';
import { fleetSearch } from '../../features/partner/fleet-search';

/** The fleet with its list's state in the address: read and written through this route's typed search. */
function Fleet() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <FleetPage
      search={search}
      // A typed search or a filter replaces the address entry: Back leaves the page, not the keystrokes.
      onSearch={(change) => void navigate({ search: (previous) => nextFleetSearch(previous, change), replace: true })}
    />
  );
}

export const Route = createFileRoute('/_app/partner-setup')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/partner-setup'] ?? []),
  // The fleet's page, page size, sort, search and filters: the server pages, sorts and filters it.
  validateSearch: fleetSearch,
  loaderDeps: ({ search }) => search,
  // The clients (whose workers "Work as" stores) beside the fleet's page, with the page's own query.
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, [fleetQuery(context.api, fleetQueryOf(deps)), clientsQuery(context.api)]),
  component: Fleet,
});
