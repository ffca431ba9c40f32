import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { backupsQuery } from '../../../../features/backup/api/queries';
import { RestorePage } from '../../../../features/backup/restore-page';

export const Route = createFileRoute('/_app/_worker/backup-and-restore/restore')({
  loader: ({ context }) => loadQueries(context.queryClient, [backupsQuery(context.api, context.tenantId)]),
  component: RestorePage,
});
