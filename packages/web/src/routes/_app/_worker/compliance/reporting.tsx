import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { DataManagementReportsPage } from '../../../../features/data-management/run-pages';
import { RUN_AREA_TYPES } from '../../../../shared/jobs/areas';
import { reportsSearch } from '../../../../shared/jobs/list-search';
import { reportsPageQueries } from '../../../../shared/jobs/route-queries';

const TYPES = RUN_AREA_TYPES.dataManagement;

export const Route = createFileRoute('/_app/_worker/compliance/reporting')({
  validateSearch: reportsSearch(TYPES),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, reportsPageQueries(context.api, context.tenantId, TYPES, deps)),
  component: DataManagementReportsPage,
});
