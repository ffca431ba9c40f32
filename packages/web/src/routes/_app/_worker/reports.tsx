import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../app/loaders';
import { AllReportsPage } from '../../../features/reports/all-reports-page';
import { allReportsQuery, allReportsSearch } from '../../../features/reports/all-reports-search';

export const Route = createFileRoute('/_app/_worker/reports')({
  validateSearch: allReportsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, [allReportsQuery(context.api, context.tenantId, deps)]),
  component: AllReportsPage,
});
