import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { teamsThreadsQuery, teamsTreeQuery } from '../../../../features/archive/api/browse-queries';
import { threadsQueryOf } from '../../../../features/archive/api/browse-search';
import { TeamsArchivePage } from '../../../../features/archive/teams-archive-page';
import { listSearchValidator } from '../../../../shared/url-state';

// Made outside the route's options: inside them TypeScript infers the search's type as empty.
const teamsArchiveSearch = listSearchValidator({ at: [] });

export const Route = createFileRoute('/_app/_worker/teams/archive')({
  validateSearch: teamsArchiveSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const threads = threadsQueryOf(deps.at, deps);
    return loadQueries(context.queryClient, [
      teamsTreeQuery(context.api, context.tenantId),
      ...(threads ? [teamsThreadsQuery(context.api, context.tenantId, threads)] : []),
    ]);
  },
  component: TeamsArchivePage,
});
