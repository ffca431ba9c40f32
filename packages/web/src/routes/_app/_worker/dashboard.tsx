import { createFileRoute } from '@tanstack/react-router';
import { loadOverview } from '../../../features/overview/api/load';
import { OverviewPage } from '../../../features/overview/overview-page';

export const Route = createFileRoute('/_app/_worker/dashboard')({
  loader: ({ context }) => loadOverview(context.queryClient, context.api, context.tenantId, context.worker.clientId),
  component: OverviewPage,
});
