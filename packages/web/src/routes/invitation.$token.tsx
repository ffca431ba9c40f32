import { createFileRoute } from '@tanstack/react-router';
import { InvitationPage } from '../features/auth/invitation-page';

function InvitationRoute() {
  const { token } = Route.useParams();
  return <InvitationPage token={token} />;
}

export const Route = createFileRoute('/invitation/$token')({ component: InvitationRoute });
