import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { casesQuery, searchQuery } from '../../../../features/ediscovery/api/queries';
import { EdiscoveryPage } from '../../../../features/ediscovery/ediscovery-page';
import { paramsPage, paramsSearch, validateEdiscoverySearch } from '../../../../features/ediscovery/search-params';
import { locationsQuery, sourceNamesQuery } from '../../../../shared/api/queries';

export const Route = createFileRoute('/_app/_worker/ediscovery/portal')({
  validateSearch: validateEdiscoverySearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient, api, tenantId }, deps }) => {
    // Without a tenant the page says so and reads nothing.
    if (!tenantId) return;
    const { page, pageSize } = paramsPage(deps);
    const made = paramsSearch(deps);
    await loadQueries(queryClient, [
      casesQuery(api, tenantId),
      locationsQuery(api, tenantId),
      ...(made ? [searchQuery(api, tenantId, made, page, pageSize)] : []),
    ]);
    // What needs the first answers: the names of the location's mailboxes and teams, the case's hits.
    // The names are read from Microsoft 365, which may be slow or failing: the page does not wait for
    // them, its filters say they are loading (or why they could not be read).
    const locationId = queryClient.getQueryData(locationsQuery(api, tenantId).queryKey)?.[0]?.locationId ?? '';
    const opened = deps.case
      ? queryClient.getQueryData(casesQuery(api, tenantId).queryKey)?.find((c) => c.caseId === deps.case)
      : undefined;
    void loadQueries(queryClient, [
      sourceNamesQuery(api, tenantId, locationId, 'exchange'),
      sourceNamesQuery(api, tenantId, locationId, 'teams'),
    ]);
    await loadQueries(queryClient, opened ? [searchQuery(api, tenantId, opened.search, page, pageSize)] : []);
  },
  component: EdiscoveryPage,
});
