import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../../app/guards';
import { loadQueries } from '../../../app/loaders';
import { routeRoles } from '../../../components/layout/navigation';
import { tenantsQuery } from '../../../features/configuration/api/queries';
import { ConfigurationPage } from '../../../features/configuration/configuration-page';
import { CONFIGURATION_TABS } from '../../../features/configuration/tabs';
import { locationsQuery } from '../../../shared/api/queries';
import { listSearchValidator } from '../../../shared/url-state';

function Configuration() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ConfigurationPage
      tab={search.tab}
      // The tenants' list keeps its page in the address; the tenants' tab is the one without a name.
      onTab={(tab) =>
        void navigate({
          search: (previous) => ({ ...previous, tab: tab === 'tenants' ? undefined : tab }),
          replace: true,
        })
      }
    />
  );
}

// Made outside the route's options: inside them TypeScript infers the search's type as empty.
const configurationSearch = listSearchValidator({ tab: CONFIGURATION_TABS });

export const Route = createFileRoute('/_app/_worker/configuration')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/configuration'] ?? []),
  // The open tab (the tenants' when none), and the tenant list's page and page size; the other tabs'
  // lists keep theirs in the page.
  validateSearch: configurationSearch,
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  // The tenants are read for every tab (the page needs the organisation's); the locations too when
  // their tab opens. Each list is read whole and paged in the page, so its address changes nothing.
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, [
      tenantsQuery(context.api),
      ...(deps.tab === 'locations' ? [locationsQuery(context.api, context.tenantId)] : []),
    ]),
  component: Configuration,
});
