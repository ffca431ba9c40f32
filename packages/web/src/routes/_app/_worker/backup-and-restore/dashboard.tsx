import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { dashboardQuery } from '../../../../features/backup/api/queries';
import { BACKUP_APPLICATIONS } from '../../../../features/backup/areas';
import { BackupDashboardPage } from '../../../../features/backup/dashboard-page';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/dashboard')({
  // The first tab's workload, as the page opens on it.
  loader: ({ context }) => {
    const { tenantId } = context;
    const application = BACKUP_APPLICATIONS[0];
    return loadQueries(
      context.queryClient,
      (['basic', 'size', 'details'] as const).map((view) => dashboardQuery(context.api, tenantId, application, view)),
    );
  },
  component: BackupDashboardPage,
});
