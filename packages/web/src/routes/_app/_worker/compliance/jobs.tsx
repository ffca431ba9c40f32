import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { CLEANUP_APPLICATIONS } from '../../../../features/data-management/areas';
import { CleanupJobsPage } from '../../../../features/data-management/cleanup-jobs-page';
import { jobsSearch } from '../../../../shared/jobs/list-search';
import { jobsPageQueries } from '../../../../shared/jobs/route-queries';

export const Route = createFileRoute('/_app/_worker/compliance/jobs')({
  validateSearch: jobsSearch(CLEANUP_APPLICATIONS),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, jobsPageQueries(context.api, context.tenantId, 'versionCleanup', deps)),
  component: CleanupJobsPage,
});
