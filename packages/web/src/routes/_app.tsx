import { createFileRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../app/guards';
import { AppLayout } from '../components/layout/app-layout';

export const Route = createFileRoute('/_app')({
  beforeLoad: ({ context, location }) => {
    requireSignedIn(context.session, location.href);
  },
  component: AppLayout,
});
