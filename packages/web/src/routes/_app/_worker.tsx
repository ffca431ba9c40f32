import { createFileRoute, Outlet } from '@tanstack/react-router';
import { requireWorker } from '../../app/guards';

export const Route = createFileRoute('/_app/_worker')({
  beforeLoad: ({ context, location }) => requireWorker(context.session, context.api, context.queryClient, location),
  component: Outlet,
});
