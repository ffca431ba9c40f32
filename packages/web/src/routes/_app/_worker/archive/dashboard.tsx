import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { archiveStatisticsQuery, mailboxesTopQuery } from '../../../../features/archive/api/queries';
import { ArchiveDashboardPage } from '../../../../features/archive/archive-dashboard-page';

export const Route = createFileRoute('/_app/_worker/archive/dashboard')({
  loader: ({ context }) =>
    loadQueries(context.queryClient, [
      archiveStatisticsQuery(context.api, context.worker.workerIp),
      mailboxesTopQuery(context.api, context.worker.workerIp),
    ]),
  component: ArchiveDashboardPage,
});
