import { createFileRoute, Outlet } from '@tanstack/react-router';
import { requireWorker } from '../../app/guards';
import { tenantIdOf } from '../../session/tenant-id';

export const Route = createFileRoute('/_app/_worker')({
  // The selected client's worker and tenant ('' while it has none), for the loaders beneath.
  beforeLoad: async ({ context, location }) => {
    const worker = await requireWorker(context.session, context.api, context.queryClient, location);
    return { worker, tenantId: tenantIdOf(worker) };
  },
  component: Outlet,
});
