import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { BACKUP_APPLICATIONS } from '../../../../features/backup/areas';
import { BackupJobsPage } from '../../../../features/backup/jobs-page';
import { jobsSearch } from '../../../../shared/jobs/list-search';
import { jobsPageQueries } from '../../../../shared/jobs/route-queries';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/backup-jobs')({
  validateSearch: jobsSearch(BACKUP_APPLICATIONS),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, jobsPageQueries(context.api, context.tenantId, 'backup', deps)),
  component: BackupJobsPage,
});
