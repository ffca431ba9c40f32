import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { DeletionJobsPage } from '../../../../features/archive/deletion-jobs-page';
import { jobsSearch } from '../../../../shared/jobs/list-search';
import { jobsPageQueries } from '../../../../shared/jobs/route-queries';

export const Route = createFileRoute('/_app/_worker/archive/deletion-jobs')({
  validateSearch: jobsSearch(['exchange']),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, jobsPageQueries(context.api, context.tenantId, 'archiveDeletion', deps)),
  component: DeletionJobsPage,
});
