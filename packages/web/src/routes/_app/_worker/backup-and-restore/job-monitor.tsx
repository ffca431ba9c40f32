import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { BackupMonitorPage } from '../../../../features/backup/run-pages';
import { RUN_AREA_TYPES } from '../../../../shared/jobs/areas';
import { monitorSearch } from '../../../../shared/jobs/list-search';
import { monitorPageQueries } from '../../../../shared/jobs/route-queries';

const TYPES = RUN_AREA_TYPES.backup;

export const Route = createFileRoute('/_app/_worker/backup-and-restore/job-monitor')({
  validateSearch: monitorSearch(TYPES),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    loadQueries(context.queryClient, monitorPageQueries(context.api, context.tenantId, TYPES, deps)),
  component: BackupMonitorPage,
});
