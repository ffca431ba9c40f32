import { DASHBOARD_PERIOD_DAYS, type PortalClient } from '@compliance-portal/sdk';
import type { QueryClient } from '@tanstack/react-query';
import { loadQueries } from '../../../app/loaders';
import { periodStart } from '../area-health';
import { currentTenant } from '../first-run-steps';
import { jobCountQuery, overviewQuery, periodRunsQuery, tenantLocationsQuery, tenantsQuery } from './queries';

/**
 * What the overview shows first, read before it opens: the areas (the overview and the period's runs)
 * and the first-run guide's facts (the tenants, then the chosen tenant's locations and jobs). The
 * connection tests are left to the page: they are read afresh on every visit. `tenantId` and
 * `clientId` are the selected client's (the router context's).
 */
export async function loadOverview(
  queryClient: QueryClient,
  api: PortalClient,
  tenantId: string,
  clientId: string,
): Promise<void> {
  const areas = tenantId
    ? [overviewQuery(api, tenantId), periodRunsQuery(api, tenantId, periodStart(DASHBOARD_PERIOD_DAYS).toISOString())]
    : [];
  const tenants = tenantsQuery(api);
  const facts = async () => {
    await loadQueries(queryClient, [tenants]);
    const list = queryClient.getQueryData(tenants.queryKey);
    const tenant = list ? currentTenant(list, clientId, tenantId) : null;
    if (!tenant) return;
    await loadQueries(queryClient, [
      tenantLocationsQuery(api, tenant.tenantId),
      jobCountQuery(api, tenant.tenantId, 'backup'),
      jobCountQuery(api, tenant.tenantId, 'exchangeArchive'),
    ]);
  };
  await Promise.all([loadQueries(queryClient, areas), facts()]);
}
