import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { teamsStatisticsQuery } from '../../../../features/archive/api/queries';
import { TeamsDashboardPage } from '../../../../features/archive/teams-pages';

export const Route = createFileRoute('/_app/_worker/teams/dashboard')({
  loader: ({ context }) =>
    loadQueries(context.queryClient, [teamsStatisticsQuery(context.api, context.worker.workerIp)]),
  component: TeamsDashboardPage,
});
