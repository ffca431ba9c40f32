import type { PortalClient } from '@compliance-portal/sdk';
import type { QueryClient } from '@tanstack/react-query';
import { loadQueries } from '../../../app/loaders';
import type { ListState } from '../../../components/ui/list-state';
import { locationsQuery } from '../../../shared/api/queries';
import { browseQuery, sourcePageQuery } from '../api/queries';
import { DEFAULT_RULE_DRAFT, ruleOf } from './rule';
import { DEFAULT_APPLICATION, FILE_LIST, type FileManagerSearch, SOURCE_LIST } from './search';

/**
 * What the file manager shows first, read before it opens: the sources' first locations and page, or
 * the folder's content under the rule the page opens with. Moving within the page (another page, a
 * folder, the rule typed) is read by the page itself, as it was before: only the page knows the rule.
 */
export async function loadFileManager(
  queryClient: QueryClient,
  api: PortalClient,
  tenantId: string,
  search: FileManagerSearch,
  entering: boolean,
): Promise<void> {
  if (!tenantId || !entering) return;
  const application = search.application ?? DEFAULT_APPLICATION;
  if (search.source) {
    const list = { page: 1, ...FILE_LIST, ...pickList(search) };
    const nodeId = search.path?.at(-1)?.id ?? 'root';
    const rule = ruleOf(DEFAULT_RULE_DRAFT);
    await loadQueries(queryClient, [
      browseQuery(api, tenantId, application, search.source, nodeId, rule, list.page, list.pageSize),
    ]);
    return;
  }
  const locations = locationsQuery(api, tenantId);
  await loadQueries(queryClient, [locations]);
  const locationId = queryClient.getQueryData(locations.queryKey)?.[0]?.locationId ?? '';
  const state = { page: 1, ...SOURCE_LIST, ...pickList(search) };
  await loadQueries(queryClient, [sourcePageQuery(api, tenantId, locationId, application, state)]);
}

/** The list parameters of the search. */
function pickList({ page, pageSize, sort, order, search }: FileManagerSearch): Partial<ListState> {
  return Object.fromEntries(
    Object.entries({ page, pageSize, sort, order, search }).filter(([, value]) => value !== undefined),
  );
}
