import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { TeamsJobsPage } from '../../../../features/archive/teams-pages';
import { jobsSearch } from '../../../../shared/jobs/list-search';
import { jobsPageQueries } from '../../../../shared/jobs/route-queries';

export const Route = createFileRoute('/_app/_worker/teams/jobs')({
  validateSearch: jobsSearch(['teams']),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, jobsPageQueries(context.api, context.tenantId, 'teamsArchive', deps)),
  component: TeamsJobsPage,
});
