import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { dataManagementDashboardQuery } from '../../../../features/data-management/api/queries';
import { DataManagementDashboardPage } from '../../../../features/data-management/dashboard-page';

export const Route = createFileRoute('/_app/_worker/compliance/dashboard')({
  loader: ({ context }) => {
    const { tenantId } = context;
    // Without a tenant the page reads nothing: it says that one is needed.
    return loadQueries(context.queryClient, tenantId ? [dataManagementDashboardQuery(context.api, tenantId)] : []);
  },
  component: DataManagementDashboardPage,
});
