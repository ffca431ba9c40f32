import { createFileRoute } from '@tanstack/react-router';
import { loadQueries } from '../../../../app/loaders';
import { proxyAccountsQuery } from '../../../../features/archive/api/queries';
import { ProxyRightsPage } from '../../../../features/archive/proxy-rights-page';

export const Route = createFileRoute('/_app/_worker/archive/proxy-rights')({
  loader: ({ context }) => loadQueries(context.queryClient, [proxyAccountsQuery(context.api, context.worker.workerIp)]),
  component: ProxyRightsPage,
});
